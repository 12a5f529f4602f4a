/// Which stack a reader is reached through.
public enum ReaderBackend: String, Sendable, Codable {
    case libnfc
    case pcsc
    case sim
}

/// What `nfcbench readers` lists and sessions record.
public struct ReaderInfo: Sendable, Hashable {
    public let backend: ReaderBackend
    public let name: String
    /// How to select it again: `libnfc:pn532_uart:/dev/ttyUSB0`, `pcsc:ACS ACR122U`, `sim`.
    public let spec: String
    public let firmware: String?

    public init(backend: ReaderBackend, name: String, spec: String, firmware: String?) {
        self.backend = backend
        self.name = name
        self.spec = spec
        self.firmware = firmware
    }
}

/// Operator feedback after a tap, where the reader has LEDs or a buzzer.
public enum TapFeedback: Sendable {
    case hit
    case miss
}

/// An open reader. Implementations own their C handles and release them in `deinit`;
/// blocking calls run off Swift's cooperative threads and are cancellable: cancelling
/// the calling task ends a wait within 300 ms with `ReaderError.Code.cancelled`.
public protocol Reader: AnyObject, Sendable {
    var info: ReaderInfo { get }
    /// Waits until a target enters the field, or `nil` when `timeout` passes first.
    func waitForTarget(timeout: Duration) async throws(ReaderError) -> DetectedTarget?
    /// Waits until the present target leaves the field: `true` when it left, `false`
    /// when it was still there at `timeout`.
    func waitForRemoval(timeout: Duration) async throws(ReaderError) -> Bool
    /// LED/buzzer feedback; readers without them ignore it.
    func signal(_ feedback: TapFeedback) async
    /// Restores what the reader changed (e.g. ACR122U polling parameters) and releases it.
    func close() async
    /// After `close()`: what could not be put back, for the operator.
    var closingWarnings: [String] { get }
}

extension Reader {
    public func signal(_ feedback: TapFeedback) async {}
    public var closingWarnings: [String] { [] }
}
