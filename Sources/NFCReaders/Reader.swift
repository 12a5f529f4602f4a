/// Which stack a reader is reached through, by its spec's scheme. An open set: each backend
/// module names its own (`libnfc`, `pcsc`, `replay`) and registers it once
/// (`ReaderBackendRegistration`).
public struct ReaderBackend: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The in-process simulated phone.
    public static let sim = ReaderBackend(rawValue: "sim")

    public var description: String { rawValue }
}

/// What `nfcbench readers` lists and sessions record.
public struct ReaderInfo: Sendable, Hashable {
    public let backend: ReaderBackend
    public let name: String
    /// How to select it again: `libnfc:pn532_uart:/dev/ttyUSB0`, `pcsc:ACS ACR122U`, `sim`.
    public let spec: String
    public let firmware: String?
    /// The reader's own serial number, where its driver gives one (a USB reader's
    /// iSerialNumber through PC/SC); what tells two readers of one model apart in a record.
    public let serial: String?
    /// A simulation, not hardware: the in-process simulated reader, an emulated PN532 on
    /// a pseudo-terminal, or a vpcd virtual card. Sessions record it; what a simulated
    /// reader sees is never bench evidence.
    public let isSimulated: Bool

    public init(
        backend: ReaderBackend, name: String, spec: String, firmware: String?, serial: String? = nil, isSimulated: Bool = false
    ) {
        self.backend = backend
        self.name = name
        self.spec = spec
        self.firmware = firmware
        self.serial = serial
        self.isSimulated = isSimulated || backend == .sim
    }

    /// Reader names pcscd gives vpcd's virtual readers (`Virtual PCD`, the driver's own
    /// name) and the virtual bench's (`nfcbench virtual`).
    public static func isVirtualPCSCName(_ name: String) -> Bool {
        name.localizedCaseInsensitiveContains("Virtual PCD") || name.localizedCaseInsensitiveContains("nfcbench virtual")
    }
}

/// Operator feedback after a tap, where the reader has LEDs or a buzzer.
public enum TapFeedback: Sendable {
    case hit
    case miss
}

/// What one tap window saw. Evidence is sacred: a MISS is recorded only for `.clean`.
public enum TapWindow: Sendable {
    /// A target answered.
    case target(DetectedTarget)
    /// The reader polled without error for the whole window, and nothing answered.
    case clean
    /// The reader failed inside the window and did not poll cleanly again before its
    /// end: the window says nothing about the phone.
    case faulty(ReaderError)
}

/// An open reader. Implementations own their C handles and release them in `deinit`;
/// blocking calls run off Swift's cooperative threads and are cancellable: cancelling
/// the calling task ends a wait within 300 ms with `ReaderError.Code.cancelled`.
public protocol Reader: AnyObject, Sendable {
    var info: ReaderInfo { get }
    /// Waits until a target enters the field, or `nil` when `timeout` passes first.
    func waitForTarget(timeout: Duration) async throws(ReaderError) -> DetectedTarget?
    /// Polls for the whole of `window`: a target, a clean window, or a faulty one. Errors
    /// inside the window are retried within it; only cancellation and a vanished reader
    /// are thrown.
    func pollWindow(_ window: Duration) async throws(ReaderError) -> TapWindow
    /// Waits until the present target leaves the field: `true` when it left, `false`
    /// when it was still there at `timeout`.
    func waitForRemoval(timeout: Duration) async throws(ReaderError) -> Bool
    /// What answers in the field now, from one short look (a poll round), or `nil` when the
    /// field is clear; the target found is the one `waitForRemoval` then waits out. A run
    /// asks before its first position: `waitForRemoval` alone follows only a target the
    /// reader saw, so a phone left on the reader would read at position 1, wherever that is.
    func fieldOccupant() async throws(ReaderError) -> DetectedTarget?
    /// LED/buzzer feedback; readers without them ignore it.
    func signal(_ feedback: TapFeedback) async
    /// Restores what the reader changed (e.g. ACR122U polling parameters) and releases it.
    func close() async
    /// After `close()`: what could not be put back, for the operator.
    var closingWarnings: [String] { get }
    /// What an earlier session left changed on this reader (killed while the field was
    /// weakened) and this open put back before anything else, in words for the session's
    /// record; `nil` when the reader was found as it should be.
    var restoredAtOpen: String? { get }
    /// What the reader can do beyond polling for a card, asked of the reader itself so that
    /// no caller downcasts to a backend to find out.
    var capabilities: ReaderCapabilities { get }
}

/// A reader's optional abilities. Each is `nil` or `.unsupported` with the reason unless the
/// backend offers it; the next ones (identity probes, analog settings) join here.
public struct ReaderCapabilities: Sendable {
    /// Tag mode's emulator, when the reader has a target mode at all.
    public let tagEmulator: (any TagEmulating)?
    /// Whether tag mode works on this particular reader (its chip, its controller), and why not.
    public let tagEmulation: TagEmulationSupport
    /// The RF field switch, when the host can turn the field off between taps.
    public let fieldSwitch: (any FieldSwitching)?
    /// The analog settings, when the host can weaken the field to grade a tap (`--coupling`).
    public let analogProfile: (any AnalogProfiling)?

    public init(
        tagEmulator: (any TagEmulating)?, tagEmulation: TagEmulationSupport, fieldSwitch: (any FieldSwitching)? = nil,
        analogProfile: (any AnalogProfiling)? = nil
    ) {
        precondition(
            tagEmulator != nil || tagEmulation != .supported, "a reader that supports tag mode must offer its emulator")
        self.tagEmulator = tagEmulator
        self.tagEmulation = tagEmulation
        self.fieldSwitch = fieldSwitch
        self.analogProfile = analogProfile
    }

    /// Card polling only, for `reason` (the reader's stack has no target mode).
    public static func pollingOnly(_ reason: String) -> ReaderCapabilities {
        ReaderCapabilities(tagEmulator: nil, tagEmulation: .unsupported(reason))
    }
}

extension Reader {
    /// For readers that cannot fail mid-window (the simulated one): any error ends the
    /// window as faulty.
    public func pollWindow(_ window: Duration) async throws(ReaderError) -> TapWindow {
        do {
            if let target = try await waitForTarget(timeout: window) { return .target(target) }
            return .clean
        } catch  where error.code == .cancelled || error.code == .unplugged {
            throw error
        } catch {
            return .faulty(error)
        }
    }

    public func signal(_ feedback: TapFeedback) async {}
    public var closingWarnings: [String] { [] }
    public var restoredAtOpen: String? { nil }
    public var capabilities: ReaderCapabilities { .pollingOnly("'\(info.name)' has no target mode") }
}
