import CPCSCLite
import Dispatch
import Foundation
import NFCReaders
import Synchronization

/// A contactless reader through pcscd (ACR122U with the CCID driver, or vpcd).
///
/// All pcsc-lite calls run on one serial queue; waits use `SCardGetStatusChange` in
/// short slices and are cancelled with `SCardCancel`. The PnP pseudo-reader is watched
/// alongside the reader, so unplugging it ends a wait with `.unplugged`.
public final class PCSCReader: Reader, @unchecked Sendable {
    // @unchecked Sendable: `context`, `card`, `picc` and `serialAnswered` are only touched on `queue`
    // (serial), except `context.cancel()`, which pcsc-lite provides for exactly that:
    // ending a blocked SCardGetStatusChange from another thread.
    let queue: DispatchQueue
    private let context: PCSCContext
    var card: PCSCCard?
    var picc: PICCParameterGuard {
        didSet { reportSnapshot.withLock { $0 = picc.report } }
    }
    /// `picc.report` as of its last change, readable from any thread without a hop to
    /// `queue` (a `queue.sync` there would block a cooperative thread).
    private let reportSnapshot = Mutex(PICCParameterGuard.Report(original: nil, applied: nil, restored: false))
    private let cancelled = Atomic<Bool>(false)
    public let readerName: String
    /// The firmware's name once the reader gave it (`ReaderFirmwareQuery`), readable from
    /// any thread; PC/SC itself names no firmware.
    private let firmware = Mutex<String?>(nil)
    /// The serial number once the driver gave it (`ReaderSerialNumber`).
    private let serial = Mutex<String?>(nil)
    /// Whether the driver answered the serial-number question (a reader without a serial
    /// answers too): it is then never asked again, so a tap costs no extra connection.
    private var serialAnswered = false
    public var info: ReaderInfo {
        ReaderInfo(
            backend: .pcsc, name: readerName, spec: "pcsc:\(readerName)", firmware: firmware.withLock { $0 },
            serial: serial.withLock { $0 }, isSimulated: ReaderInfo.isVirtualPCSCName(readerName))
    }
    public let feedbackEnabled: Bool
    /// The chip's analog settings while `run --coupling` has them weakened (`PCSCReader+Analog`),
    /// filed under the reader's device where its driver names one (`deviceKey`) and
    /// naming its spec (`pcsc:<name>`) so that `doctor` can open it again.
    let analogJournal: AnalogJournal
    /// The reader's USB device and slot (`ReaderDevice.pcscKey`): what its journals are
    /// kept under, so a reader weakened under one pcscd name is restored under another
    /// (issue 49, L2); `nil` when its driver names no USB channel (vpcd, a serial reader).
    let deviceKey: String?

    private init(
        queue: DispatchQueue, context: PCSCContext, name: String, feedback: Bool, journal: PICCJournal,
        analogJournal: AnalogJournal, deviceKey: String?
    ) {
        self.queue = queue
        self.context = context
        readerName = name
        feedbackEnabled = feedback
        picc = PICCParameterGuard(reader: deviceKey ?? name, legacy: name, journal: journal)
        self.analogJournal = analogJournal
        self.deviceKey = deviceKey
    }

    /// Opens the reader whose name equals or uniquely contains `nameOrSubstring`.
    public static func open(
        _ nameOrSubstring: String, feedback: Bool = true,
        journal: PICCJournal = .fromEnvironment(ProcessInfo.processInfo.environment),
        analogJournal: AnalogJournal = .fromEnvironment(ProcessInfo.processInfo.environment),
        sysfs: String = ProcessInfo.processInfo.environment["NFCBENCH_SYSFS_ROOT"] ?? "/sys"
    )
        async throws(ReaderError) -> PCSCReader
    {
        let queue = DispatchQueue(label: "nfcbench.pcsc")
        let result: Result<PCSCReader, ReaderError> = await withCheckedContinuation { continuation in
            queue.async {
                do {
                    let context = try PCSCContext()
                    let names = try context.readers()
                    let name = try match(nameOrSubstring, in: names)
                    let channel = Self.channel(of: name, in: context)
                    let reader = PCSCReader(
                        queue: queue, context: context, name: name, feedback: feedback, journal: journal,
                        analogJournal: analogJournal,
                        deviceKey: ReaderDevice.pcscKey(channelID: channel, readerName: name, sysfs: sysfs))
                    // The analog settings first, while a killed session's suspended auto
                    // polling still keeps the chip to the host.
                    reader.restorePendingAnalog(reader.escapeChannel())
                    reader.picc.onOpen(reader.escapeChannel())
                    reader.askFirmware()
                    reader.askSerial()
                    continuation.resume(returning: .success(reader))
                } catch let status as PCSCStatus {
                    continuation.resume(returning: .failure(Self.failure(status, reader: nameOrSubstring)))
                } catch let error as ReaderError {
                    continuation.resume(returning: .failure(error))
                } catch {
                    continuation.resume(returning: .failure(ReaderError(.failed, "\(error)")))
                }
            }
        }
        return try result.get()
    }

    /// Whether another program holds the card in `name` (pcscd's INUSE or EXCLUSIVE
    /// state), asked without connecting, so a running session is not disturbed. An empty
    /// reader holds nothing; `nil` when pcscd cannot say.
    public static func isInUse(_ name: String) -> Bool? {
        guard let context = try? PCSCContext() else { return nil }
        var states = [PCSCContext.ReaderState(name: name, current: DWORD(SCARD_STATE_UNAWARE))]
        do throws(PCSCStatus) {
            try context.waitForChange(&states, timeoutMs: 0)
        } catch {
            return nil
        }
        return states[0].event & DWORD(SCARD_STATE_INUSE | SCARD_STATE_EXCLUSIVE) != 0
    }

    /// Reader names pcscd reports (for `nfcbench readers`).
    public static func readerNames() throws(ReaderError) -> [String] {
        do { return try PCSCContext().readers() } catch { throw failure(error, reader: "pcscd") }
    }

    static func match(_ wanted: String, in names: [String]) throws(ReaderError) -> String {
        if names.contains(wanted) { return wanted }
        let candidates = names.filter { $0.localizedCaseInsensitiveContains(wanted) }
        if candidates.count == 1 { return candidates[0] }
        if candidates.isEmpty {
            throw ReaderError(
                .noReader, "No PC/SC reader matches '\(wanted)'.",
                hint: names.isEmpty
                    ? "pcscd sees no reader: plug one in, then run 'nfcbench doctor'."
                    : "Readers present: \(names.map { "'\($0)'" }.joined(separator: ", ")).")
        }
        throw ReaderError(
            .ambiguousReader, "'\(wanted)' matches \(candidates.count) readers.",
            hint: "Give more of the name: \(candidates.map { "'\($0)'" }.joined(separator: ", ")).")
    }

    public func waitForTarget(timeout: Duration) async throws(ReaderError) -> DetectedTarget? {
        try await interruptible { [self] () throws(ReaderError) -> DetectedTarget? in
            let start = ContinuousClock.now
            let deadline = start + timeout
            var states = [
                PCSCContext.ReaderState(name: readerName, current: DWORD(SCARD_STATE_UNAWARE)),
                PCSCContext.ReaderState(name: PCSCContext.pnpReader, current: DWORD(SCARD_STATE_UNAWARE)),
            ]
            while true {
                if cancelled.load(ordering: .relaxed) { throw ReaderError.cancelled(readerName) }
                let remaining = deadline - ContinuousClock.now
                if remaining <= .zero { return nil }
                do throws(PCSCStatus) {
                    try context.waitForChange(&states, timeoutMs: UInt32(min(remaining, .seconds(1)).milliseconds))
                } catch {
                    if error == .timeout { continue }
                    throw Self.failure(error, reader: readerName)
                }
                let event = states[0].event
                if event & DWORD(SCARD_STATE_UNKNOWN | SCARD_STATE_UNAVAILABLE) != 0 {
                    throw ReaderError.unplugged(readerName)
                }
                if event & DWORD(SCARD_STATE_PRESENT) != 0 && event & DWORD(SCARD_STATE_MUTE) == 0 {
                    if let target = try readTarget(start: start) { return target }
                }
                states[0].current = event & ~DWORD(SCARD_STATE_CHANGED)
                states[1].current = states[1].event & ~DWORD(SCARD_STATE_CHANGED)
            }
        }
    }

    /// Two of pcscd's status polls (PCSCLITE_STATUS_POLL_RATE, 400 ms) and a margin.
    static let shortestCleanWindow = Duration.milliseconds(1000)

    /// A clean window: pcscd reported the reader's state without error from start to end
    /// (a mute card, a reader link that garbles or an APDU that fails is no evidence, and
    /// one anywhere makes the whole window faulty). Errors are retried within the window,
    /// so a phone that answers after one still counts as a hit.
    public func pollWindow(_ window: Duration) async throws(ReaderError) -> TapWindow {
        try await interruptible { [self] () throws(ReaderError) -> TapWindow in
            let start = ContinuousClock.now
            // pcscd looks at a reader every 400 ms; a shorter watch could end before it has
            // looked once, and call a faulty reader clean.
            let deadline = start + max(window, Self.shortestCleanWindow)
            var states = [
                PCSCContext.ReaderState(name: readerName, current: DWORD(SCARD_STATE_UNAWARE)),
                PCSCContext.ReaderState(name: PCSCContext.pnpReader, current: DWORD(SCARD_STATE_UNAWARE)),
            ]
            var fault: ReaderError?
            while true {
                if cancelled.load(ordering: .relaxed) { throw ReaderError.cancelled(readerName) }
                let remaining = deadline - ContinuousClock.now
                if remaining <= .zero { break }
                do throws(PCSCStatus) {
                    try context.waitForChange(&states, timeoutMs: UInt32(min(remaining, .seconds(1)).milliseconds))
                } catch {
                    if error == .timeout { continue }
                    let failure = Self.failure(error, reader: readerName)
                    if failure.code == .unplugged || failure.code == .serviceNotRunning { throw failure }
                    fault = failure
                    usleep(20_000)
                    continue
                }
                let event = states[0].event
                if event & DWORD(SCARD_STATE_UNKNOWN | SCARD_STATE_UNAVAILABLE) != 0 {
                    throw ReaderError.unplugged(readerName)
                }
                if event & DWORD(SCARD_STATE_PRESENT) != 0 {
                    if event & DWORD(SCARD_STATE_MUTE) != 0 {
                        fault = ReaderError(
                            .failed, "Reader '\(readerName)' reports a card that does not answer.",
                            hint: "Lift the phone, check the reader's cable, and unplug and replug it if this persists.")
                    } else {
                        do throws(ReaderError) {
                            if let target = try readTarget(start: start) { return .target(target) }
                            // Present, then gone before it could be read: not a clean field.
                            fault = ReaderError(
                                .failed, "Reader '\(readerName)' saw a card that left before it could be read.",
                                hint: "Hold the phone still on the reader; check the reader if this persists.")
                        } catch  where error.code == .garbage || error.code == .failed {
                            fault = error
                        }
                    }
                }
                states[0].current = event & ~DWORD(SCARD_STATE_CHANGED)
                states[1].current = states[1].event & ~DWORD(SCARD_STATE_CHANGED)
            }
            if let fault { return .faulty(fault) }
            return .clean
        }
    }

    /// pcscd knows whether a card is present (its driver polls the reader): the first
    /// status answers at once, so half a second only covers a card just arriving.
    public func fieldOccupant() async throws(ReaderError) -> DetectedTarget? {
        try await waitForTarget(timeout: .milliseconds(500))
    }

    public func waitForRemoval(timeout: Duration) async throws(ReaderError) -> Bool {
        try await interruptible { [self] () throws(ReaderError) -> Bool in
            let deadline = ContinuousClock.now + timeout
            var states = [PCSCContext.ReaderState(name: readerName, current: DWORD(SCARD_STATE_UNAWARE))]
            while true {
                if cancelled.load(ordering: .relaxed) { throw ReaderError.cancelled(readerName) }
                let remaining = deadline - ContinuousClock.now
                do throws(PCSCStatus) {
                    try context.waitForChange(&states, timeoutMs: UInt32(max(.zero, min(remaining, .seconds(1))).milliseconds))
                } catch {
                    guard error == .timeout else { throw Self.failure(error, reader: readerName) }
                    if remaining <= .zero { return false }
                    continue
                }
                let event = states[0].event
                if event & DWORD(SCARD_STATE_UNKNOWN | SCARD_STATE_UNAVAILABLE) != 0 { throw ReaderError.unplugged(readerName) }
                if event & DWORD(SCARD_STATE_EMPTY) != 0 {
                    card = nil
                    return true
                }
                if remaining <= .zero { return false }
                states[0].current = event & ~DWORD(SCARD_STATE_CHANGED)
            }
        }
    }

    public func signal(_ feedback: TapFeedback) async {
        guard feedbackEnabled else { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async { [self] in
                // ACR122U LED/buzzer: hit = green blink + short beep; miss = red blink + two beeps.
                let command: [UInt8] =
                    feedback == .hit
                    ? [0xFF, 0x00, 0x40, 0x2E, 0x04, 0x01, 0x01, 0x01, 0x01]
                    : [0xFF, 0x00, 0x40, 0x5D, 0x04, 0x02, 0x02, 0x02, 0x01]
                _ = escapeChannel().send(command)
                continuation.resume()
            }
        }
    }

    /// Restores the reader's setting and lets go of it: the card connection and the PC/SC
    /// context are released here, on the queue, before `close()` returns, so nothing of
    /// pcsc-lite is left for whichever thread drops the last reference (the process may
    /// be exiting by then). The reader is unusable afterwards.
    public func close() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async { [self] in
                if !context.isReleased {
                    restorePendingAnalog(escapeChannel())
                    _ = picc.resumeAutoPolling(escapeChannel())
                    picc.onClose(escapeChannel())
                    card = nil
                    context.release()
                }
                continuation.resume()
            }
        }
    }

    /// The PICC parameter the reader had at open, and whether it is back.
    public var piccReport: PICCParameterGuard.Report { reportSnapshot.withLock { $0 } }

    /// Analog settings for ACR122U-family readers (their name says so, or their firmware
    /// answered the PICC parameter query) and the virtual bench's, whose virtual card
    /// answers as that firmware does; others are left alone.
    public var capabilities: ReaderCapabilities {
        let acr122 =
            readerName.localizedCaseInsensitiveContains("ACR122") || info.isSimulated || piccReport.original != nil
        return ReaderCapabilities(
            tagEmulator: nil, tagEmulation: .unsupported("'\(info.name)' is reached through PC/SC, which has no target mode"),
            analogProfile: acr122 ? self : nil)
    }

    public var closingWarnings: [String] {
        var warnings: [String] = []
        if analogJournal.original(for: analogKey) != nil {
            warnings.append(
                "Reader '\(readerName)' keeps a weakened field for now, because no card was present to send the restore "
                    + "through; its analog settings are journaled and will be put back the next time nfcbench opens it "
                    + "('nfcbench doctor' does it at once with a phone on the reader).")
        }
        return warnings + piccWarnings
    }

    private var piccWarnings: [String] {
        let report = piccReport
        guard let original = report.original, report.applied != nil, !report.restored else { return [] }
        return [
            "Reader '\(readerName)' keeps nfcbench's polling setting for now (PICC parameter "
                + "\(Hex.string([PICCParameterGuard.benchValue])), because no card was present to send the restore through; "
                + "the original \(Hex.string([original])) is journaled and will be restored the next time nfcbench opens it."
        ]
    }

    // MARK: - Internals (on `queue`)

    /// Connects to the card just seen, reads ATR, UID (`FF CA 00 00 00`) and, for
    /// ISO 14443-4 targets, ATS (`FF CA 01 00 00`). `nil` when it left meanwhile.
    private func readTarget(start: ContinuousClock.Instant) throws(ReaderError) -> DetectedTarget? {
        do {
            let connection = try PCSCCard(context: context, reader: readerName)
            card = connection
            restorePendingAnalog(escapeChannel())
            picc.onCardConnected(escapeChannel())
            askFirmware()
            askSerial()
            let atr = try connection.atr()
            let uidResponse = try connection.transmit([0xFF, 0xCA, 0x00, 0x00, 0x00])
            guard uidResponse.count >= 2, uidResponse.suffix(2) == [0x90, 0x00] else {
                throw ReaderError.garbage(readerName, underlying: "GET UID answered \(Hex.string(uidResponse, separator: " "))")
            }
            let uid = Array(uidResponse.dropLast(2))
            let info = ATRInfo(atr: atr)
            var ats: [UInt8]?
            let typeB =
                info.map { $0.historicalBytes.count == 8 && !$0.isISO14443PartAStorage } ?? false && uid.count == 4
                && atr.count == 13
            if info?.isISO14443Part4 == true, !typeB {
                let response = try connection.transmit([0xFF, 0xCA, 0x01, 0x00, 0x00])
                if response.count > 3, response.suffix(2) == [0x90, 0x00] { ats = Array(response.dropLast(2).dropFirst()) }
            }
            var detected = DetectedTarget(
                technology: typeB ? .iso14443B : .iso14443A, uid: uid, ats: ats, atr: atr,
                latency: ContinuousClock.now - start, reader: readerName)
            // Whether it answers as an Android phone (`AndroidHCEProbe`), after the latency
            // was taken: the SELECT goes to the card itself, as any APDU does.
            if info?.isISO14443Part4 == true {
                detected.platformProbe = AndroidHCEProbe.platform(fromAnswer: try? connection.transmit(AndroidHCEProbe.select))
            }
            return detected
        } catch let status as PCSCStatus {
            card = nil
            if status.meansTargetLeft { return nil }
            throw Self.failure(status, reader: readerName)
        } catch let error as ReaderError {
            throw error
        } catch {
            throw ReaderError(.failed, "\(error)")
        }
    }

    /// Asks an ACR122U-family reader (one that answered the PICC parameter query) for its
    /// firmware's name, once. On `queue`.
    private func askFirmware() {
        guard picc.report.original != nil, firmware.withLock({ $0 }) == nil,
            let answer = escapeChannel().send(ReaderFirmwareQuery.command), let name = ReaderFirmwareQuery.parse(answer)
        else { return }
        firmware.withLock { $0 = name }
    }

    /// Asks the driver for the reader's serial number, once it has one: on a direct
    /// connection, else on the card connection (readers that refuse direct connections).
    /// On `queue`.
    private func askSerial() {
        guard !serialAnswered else { return }
        guard
            let answer = Self.serialAnswer(of: readerName, in: context) ?? (try? card?.attribute(ReaderSerialNumber.attribute))
        else { return }
        serialAnswered = true
        serial.withLock { $0 = ReaderSerialNumber.parse(answer) }
    }

    /// The serial number of the reader called `name`, asked on a direct connection of its
    /// own (no card needed; nothing on the reader changes). `nil` when its driver has
    /// none, or another program holds the reader exclusively.
    public static func serialNumber(of name: String) -> String? {
        guard let context = try? PCSCContext(), let answer = serialAnswer(of: name, in: context) else { return nil }
        return ReaderSerialNumber.parse(answer)
    }

    /// The channel the driver of the reader called `name` names (`ReaderChannel`), asked
    /// on a direct connection; `nil` when it names none or the question failed.
    static func channel(of name: String, in context: PCSCContext) -> UInt32? {
        (try? PCSCCard(context: context, reader: name, direct: true).attribute(ReaderChannel.attribute))
            .flatMap(ReaderChannel.parse)
    }

    /// The same, on a context of its own.
    static func channel(of name: String) -> UInt32? {
        guard let context = try? PCSCContext() else { return nil }
        return channel(of: name, in: context)
    }

    /// The driver's answer on a direct connection; `nil` when the connection or the
    /// question failed (an answer without a serial is an empty answer, not `nil`).
    private static func serialAnswer(of name: String, in context: PCSCContext) -> [UInt8]? {
        try? PCSCCard(context: context, reader: name, direct: true).attribute(ReaderSerialNumber.attribute)
    }

    /// Escape commands: `SCardControl` on a direct connection when the reader allows it,
    /// else pseudo-APDUs over the card connection while a card is present.
    func escapeChannel() -> PICCParameterGuard.Channel {
        PICCParameterGuard.Channel { [self] command in
            if let answer = escapeByControl(command) { return answer }
            if card == nil { card = try? PCSCCard(context: context, reader: readerName) }
            guard let card else { return nil }
            do { return try card.transmit(command) } catch { self.card = nil; return nil }
        }
    }

    /// An escape command by `SCardControl` on a direct connection, which needs no card;
    /// `nil` when the driver refuses it (stock libccid) or the reader is gone.
    func escapeByControl(_ command: [UInt8]) -> [UInt8]? {
        guard let direct = try? PCSCCard(context: context, reader: readerName, direct: true) else { return nil }
        return try? direct.control(command)
    }

    func interruptible<T: Sendable>(_ body: @escaping @Sendable () throws(ReaderError) -> T) async throws(ReaderError)
        -> T
    {
        cancelled.store(false, ordering: .relaxed)
        let result: Result<T, ReaderError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                queue.async { [self] in
                    do throws(ReaderError) {
                        guard !context.isReleased else {
                            throw ReaderError(.failed, "Reader '\(readerName)' was closed.", hint: "Open it again.")
                        }
                        continuation.resume(returning: .success(try body()))
                    } catch {
                        continuation.resume(returning: .failure(error))
                    }
                }
            }
        } onCancel: {
            cancelled.store(true, ordering: .relaxed)
            context.cancel()
        }
        return try result.get()
    }

    static func failure(_ status: PCSCStatus, reader: String) -> ReaderError {
        switch status {
        case .noService, .serviceStopped:
            return ReaderError(
                .serviceNotRunning, "pcscd is not running.",
                hint: "Start it: 'sudo systemctl start pcscd' (or run 'pcscd'); then retry.", underlying: status.description)
        case .noReaders, .unknownReader:
            return ReaderError(
                .noReader, "No PC/SC reader is connected.",
                hint: "Plug the reader in; 'pcsc_scan' should list it.", underlying: status.description)
        case .sharingViolation:
            return ReaderError(
                .busy, "Reader '\(reader)' is in use by another process.",
                hint: "Close the other program using it (a browser, another nfcbench, libnfc tools).",
                underlying: status.description)
        case .readerUnavailable, .commError:
            return .unplugged(reader, underlying: status.description)
        case .cancelled:
            return .cancelled(reader)
        default:
            return ReaderError(
                .failed, "PC/SC call failed on '\(reader)'.", hint: "Run 'nfcbench doctor'.",
                underlying: status.description)
        }
    }
}

extension ATRInfo {
    /// A storage-card ATR (PC/SC RID); such targets have no ATS.
    var isISO14443PartAStorage: Bool { !isISO14443Part4 }
}

extension Duration {
    var milliseconds: Int64 { Int64(seconds * 1000) }
}
