import CLibNFC
import Dispatch
import Foundation
import NFCReaders
import Synchronization

/// A PN53x reader through libnfc (`pn53x_usb`, `acr122_usb`, `pn532_uart`, ...).
///
/// Every libnfc call runs on one serial dispatch queue, off Swift's cooperative
/// threads, so a stuck reader cannot starve the program. Waits are interruptible:
/// task cancellation and the wait's own deadline both call `nfc_abort_command`, which
/// ends the blocking read within milliseconds.
public final class LibNFCReader: Reader, @unchecked Sendable {
    // @unchecked Sendable: `device` and `lastTarget` are only touched on `queue` (a
    // serial queue), except `device.abort()`, which libnfc documents as safe to call
    // from another thread while a command blocks. Flags are atomics.
    private let queue: DispatchQueue
    let device: LibNFCDevice
    /// Held for the reader's lifetime on serial connstrings.
    private let portLock: SerialPortLock?
    private var lastTarget: nfc_target?
    let cancelled = Atomic<Bool>(false)
    /// Set when a libnfc call outlived its abort: the queue is blocked until the device
    /// answers or goes away, so nothing more may wait on it.
    private let wedged = Atomic<Bool>(false)
    private let waitGeneration = Atomic<Int>(0)
    public let info: ReaderInfo
    public let connstring: String
    let diagnosis: LibNFCDiagnosis
    let analogJournal: AnalogJournal
    public let restoredAtOpen: String?
    private let closeWarnings = Mutex<[String]>([])

    private init(
        device: LibNFCDevice, lock: SerialPortLock?, queue: DispatchQueue, connstring: String,
        diagnosis: LibNFCDiagnosis, analogJournal: AnalogJournal, restoredAtOpen: String?
    ) {
        self.analogJournal = analogJournal
        self.restoredAtOpen = restoredAtOpen
        self.device = device
        portLock = lock
        self.queue = queue
        self.connstring = connstring
        self.diagnosis = diagnosis
        info = ReaderInfo(
            backend: .libnfc, name: device.name, spec: "libnfc:\(connstring)", firmware: device.firmware,
            isSimulated: ReaderDevice.serialPath(of: connstring).map(Self.isPseudoTerminal) ?? false)
    }

    /// Opens and initialises the reader as an initiator, putting back analog settings an
    /// earlier session left weakened (`AnalogJournal`).
    public static func open(
        connstring: String, diagnosis: LibNFCDiagnosis = LibNFCDiagnosis(),
        analogJournal: AnalogJournal = .fromEnvironment(ProcessInfo.processInfo.environment)
    ) async throws(ReaderError) -> LibNFCReader {
        let pending = PendingOpen<LibNFCReader>()
        begin(connstring: connstring, diagnosis: diagnosis, analogJournal: analogJournal, then: pending.finish)
        return try await pending.reader()
    }

    /// Begins the open at once on the reader's own queue, from the calling thread, and
    /// hands its outcome to `then` there. The whole open blocks (the port's lock, libnfc's open
    /// with `pn532_uart`'s 50 ms sleep, the initiator's set-up), so it runs where every
    /// later libnfc call of this reader runs; beginning it with no task in between is
    /// what lets `poll --reader` start that sleep a thread hop sooner (`ReaderHeadStart`).
    public static func begin(
        connstring: String, diagnosis: LibNFCDiagnosis, analogJournal: AnalogJournal,
        then finish: @escaping @Sendable (Result<LibNFCReader, ReaderError>) -> Void
    ) {
        let queue = DispatchQueue(label: "nfcbench.libnfc")
        queue.async {
            finish(
                Result { () throws(ReaderError) -> LibNFCReader in
                    try openHere(queue: queue, connstring: connstring, diagnosis: diagnosis, analogJournal: analogJournal)
                })
        }
    }

    /// The open itself, on `queue`.
    private static func openHere(
        queue: DispatchQueue, connstring: String, diagnosis: LibNFCDiagnosis, analogJournal: AnalogJournal
    ) throws(ReaderError) -> LibNFCReader {
        // Lock a serial port before libnfc touches it, so a second user gets a clear
        // "busy" instead of interleaved frames.
        let lock: SerialPortLock?
        if let path = ReaderDevice.serialPath(of: connstring) {
            guard FileManager.default.fileExists(atPath: path) else { throw diagnosis.openFailure(connstring: connstring) }
            lock = try SerialPortLock.acquire(path: path, patience: .milliseconds(500))
        } else {
            lock = nil
        }
        guard let device = LibNFCDevice(connstring: connstring) else { throw diagnosis.openFailure(connstring: connstring) }
        if let status = device.initiatorInit() {
            throw .garbage(connstring, underlying: "nfc_initiator_init: \(status)")
        }
        // Journalled under the reader's device, so a reader weakened under another of its
        // names is found here too (`ReaderDevice`).
        let weakened: [UInt8]?
        switch device.restoreJournalledAnalogSettings(analogJournal, connstring: connstring) {
        case .success(let restored): weakened = restored
        case .failure(let status): throw .garbage(connstring, underlying: "restoring the analog settings: \(status)")
        }
        return LibNFCReader(
            device: device, lock: lock, queue: queue, connstring: connstring, diagnosis: diagnosis,
            analogJournal: analogJournal,
            restoredAtOpen: weakened.map {
                "analog settings (RFConfiguration 0x0A) put back to \(Hex.string($0, separator: " ")): "
                    + "a session that could not restore them left the reader weakened"
            })
    }

    public func waitForTarget(timeout: Duration) async throws(ReaderError) -> DetectedTarget? {
        try await interruptible(timeout: timeout) { deadline, start in
            while true {
                if self.cancelled.load(ordering: .relaxed) { return .failure(.cancelled(self.info.name)) }
                if ContinuousClock.now >= deadline { return .success(nil) }
                switch self.device.pollOnce(pollNr: 1, period: 1) {
                case .success(let target?):
                    self.lastTarget = target
                    let latency = ContinuousClock.now - start
                    return .success(self.identified(target, latency: latency))
                case .success(nil):
                    continue
                case .failure(.aborted):
                    continue  // our deadline or cancellation; the loop head decides which
                case .failure(let status):
                    return .failure(self.failure(status))
                }
            }
        }
    }

    /// The target as detected, and whether it answers as an Android phone: an ISO-DEP
    /// target is asked `AndroidHCEProbe`'s SELECT once, after its latency was taken.
    func identified(_ target: nfc_target, latency: Duration) -> DetectedTarget {
        var detected = LibNFCDevice.detected(target, latency: latency, reader: info.name)
        let isoDEP = detected.technology == .iso14443B || (detected.sak ?? 0) & 0x20 != 0
        if isoDEP {
            detected.platformProbe = AndroidHCEProbe.platform(
                fromAnswer: device.exchange(AndroidHCEProbe.select, timeoutMs: Self.probeTimeoutMs))
        }
        return detected
    }

    /// An Android phone answers the HCE SELECT within milliseconds.
    static let probeTimeoutMs: Int32 = 300

    /// How long the last poll of a window may run past the window's end before the
    /// window counts as faulty (a chip that never finishes its poll).
    static let pollGrace = Duration.seconds(2)
    /// One InAutoPoll round (1 poll, period 150 ms, ISO 14443 A, 4A and B) takes the chip
    /// at most ~450 ms; a round that takes longer than this came through a link that is
    /// not answering in time, and the round proves nothing about the field.
    static let slowestCleanPoll = Duration.milliseconds(900)
    /// How long the link check after a slow round may take for the round to count: the
    /// handful of commands of `nfc_initiator_init` take a PN532 a few milliseconds.
    static let quickLinkCheck = Duration.milliseconds(300)

    /// A round of commands a PN532 answers in milliseconds (`nfc_initiator_init`), and how
    /// long it took: what proves the link where a silence or a slow answer alone cannot.
    func timedLinkCheck() -> (status: LibNFCStatus?, took: Duration) {
        let start = ContinuousClock.now
        let status = device.initiatorInit()
        return (status, ContinuousClock.now - start)
    }

    /// Every poll runs to its end, so the polls cover the whole window, the last one
    /// reaching past its end. An error anywhere makes the window faulty; polling goes on
    /// after it, so a phone that answers later still counts as a hit.
    public func pollWindow(_ window: Duration) async throws(ReaderError) -> TapWindow {
        try await interruptible(timeout: window + Self.pollGrace) { _, start in
            let windowEnd = start + window
            var cleanPolls = 0
            var fault: ReaderError?
            while ContinuousClock.now < windowEnd || cleanPolls == 0 && fault == nil {
                if self.cancelled.load(ordering: .relaxed) { return .failure(.cancelled(self.info.name)) }
                let pollStart = ContinuousClock.now
                let outcome = self.device.pollOnce(pollNr: 1, period: 1)
                let pollTime = ContinuousClock.now - pollStart
                switch outcome {
                case .success(let target?):
                    self.lastTarget = target
                    return .success(.target(self.identified(target, latency: ContinuousClock.now - start)))
                case .success(nil) where pollTime > Self.slowestCleanPoll:
                    // A slow round is a slow link or a host that stalled. The link is asked at
                    // once for a few commands it answers in milliseconds: answered in time, the
                    // stall was the host's (the chip's answer came whole, only late) and the
                    // round counts; late again, the link is slow and the window proves nothing.
                    let (status, checkTime) = self.timedLinkCheck()
                    if status == nil, checkTime <= Self.quickLinkCheck {
                        cleanPolls += 1
                        continue
                    }
                    fault = ReaderError(
                        .failed,
                        "Reader '\(self.info.name)' took \(Int(pollTime.seconds * 1000)) ms for a poll that takes the chip at most ~450 ms"
                            + " and \(Int(checkTime.seconds * 1000)) ms to answer a few commands it answers in milliseconds.",
                        hint: "Check the cable and the serial speed; unplug and replug the reader.")
                case .success(nil):
                    cleanPolls += 1
                case .failure(.aborted):
                    if self.cancelled.load(ordering: .relaxed) { return .failure(.cancelled(self.info.name)) }
                    return .success(
                        .faulty(
                            ReaderError(
                                .failed,
                                "Reader '\(self.info.name)' did not finish a poll within \(Int(Self.pollGrace.seconds)) s of the window's end.",
                                hint: "Check the cable and power; unplug and replug the reader.")))
                case .failure(let status):
                    let error = self.failure(status)
                    if error.code == .unplugged { return .failure(error) }
                    fault = error  // any error makes the window faulty; polling goes on for a target
                    usleep(20_000)
                }
            }
            if let fault { return .success(.faulty(fault)) }
            return .success(.clean)
        }
    }

    public func waitForRemoval(timeout: Duration) async throws(ReaderError) -> Bool {
        try await interruptible(timeout: timeout) { deadline, _ in
            guard let target = self.lastTarget else { return .success(true) }
            while true {
                if self.cancelled.load(ordering: .relaxed) { return .failure(.cancelled(self.info.name)) }
                switch self.device.presence(of: target) {
                case nil:
                    if ContinuousClock.now >= deadline { return .success(false) }
                    usleep(30_000)
                case .io?:
                    return .failure(self.failure(.io))
                case .aborted?:
                    continue
                case _?:
                    self.lastTarget = nil
                    self.device.deselect()
                    return .success(true)
                }
            }
        }
    }

    /// One poll round (the chip's own, up to ~450 ms); a target found is kept selected, so
    /// `waitForRemoval` follows it until it leaves.
    public func fieldOccupant() async throws(ReaderError) -> DetectedTarget? {
        try await interruptible(timeout: Self.occupantLook) { deadline, start in
            while true {
                if self.cancelled.load(ordering: .relaxed) { return .failure(.cancelled(self.info.name)) }
                switch self.device.pollOnce(pollNr: 1, period: 1) {
                case .success(let target?):
                    self.lastTarget = target
                    return .success(self.identified(target, latency: ContinuousClock.now - start))
                case .success(nil):
                    return .success(nil)
                case .failure(.aborted):
                    // Our deadline or cancellation: a look that could not finish saw nothing
                    // it can vouch for, so it is a fault, not a clear field.
                    if ContinuousClock.now >= deadline {
                        return .failure(ReaderError(.failed, "Reader '\(self.info.name)' did not finish one poll round."))
                    }
                case .failure(let status):
                    return .failure(self.failure(status))
                }
            }
        }
    }

    /// How long one look at the field may take: a poll round with margin.
    static let occupantLook = Duration.seconds(2)

    /// Drops the selected target (on the queue): after the field went off it is gone.
    func forgetTarget() {
        if lastTarget != nil { device.deselect() }
        lastTarget = nil
    }

    public func close() async {
        // A wedged reader's queue may never run again; its device is closed when the
        // stuck call returns and the last reference goes.
        guard !wedged.load(ordering: .relaxed) else { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async {
                self.lastTarget = nil
                if case .failure(let error) = self.restorePendingAnalogSettings() {
                    self.closeWarnings.withLock {
                        $0.append(
                            "Reader '\(self.info.name)' kept its weakened analog settings (\(error.message)); "
                                + "they are put back the next time it is opened.")
                    }
                }
                continuation.resume()
            }
        }
    }

    public var closingWarnings: [String] { closeWarnings.withLock { $0 } }

    /// How long a call may outlive its abort before the reader counts as lost. libnfc
    /// cannot interrupt everything: `pn532_uart` waits for a command's ACK with no
    /// timeout and no abort while polling (InAutoPoll runs with timeout 0), so a PN532
    /// that goes mute mid-command blocks the call until the device answers or vanishes.
    static let abortGrace = Duration.seconds(3)

    /// The queue the deadlines and aborts fire on. Not the global queue: on Linux its width
    /// is the core count, so blocking work elsewhere in the process (on 2 cores, a few
    /// blocked calls) held a window's abort back for seconds. A serial queue of its own is
    /// served by an overcommitting thread, and its blocks only set flags and abort.
    static let timers = DispatchQueue(label: "nfcbench.libnfc.timers")

    /// Runs `body` on the queue with cancellation and a deadline that aborts libnfc. A
    /// call that outlives its abort by `abortGrace` is left behind (the reader is marked
    /// wedged) and the wait ends with the reader lost, so the run pauses for a replug
    /// instead of hanging.
    func interruptible<T: Sendable>(
        timeout: Duration,
        _ body: @escaping @Sendable (ContinuousClock.Instant, ContinuousClock.Instant) -> Result<T, ReaderError>
    ) async throws(ReaderError) -> T {
        let start = ContinuousClock.now
        let deadline = start + timeout
        let generation = waitGeneration.wrappingAdd(1, ordering: .relaxed).newValue
        cancelled.store(false, ordering: .relaxed)
        // The timers hold the reader weakly: one dropped mid-run lets go of its device and
        // port lock at once, not when its last timer fires. A call in progress holds it.
        Self.timers.asyncAfter(deadline: .now() + max(0, timeout.seconds)) { [weak self] in
            guard let self else { return }
            if waitGeneration.load(ordering: .relaxed) == generation { device.abort() }
        }
        let lost = ReaderError(
            .unplugged, "Reader '\(info.name)' stopped answering in the middle of a command, which libnfc cannot interrupt.",
            hint: "Unplug it and plug it back in; the run continues when it answers again.")
        let result: Result<T, ReaderError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let once = ResumeOnce(continuation)
                if wedged.load(ordering: .relaxed) {
                    once.resume(.failure(lost))
                    return
                }
                Self.timers.asyncAfter(deadline: .now() + max(0, (timeout + Self.abortGrace).seconds)) {
                    [weak self] in
                    if once.resume(.failure(lost)) { self?.wedged.store(true, ordering: .relaxed) }
                }
                queue.async {
                    let outcome = body(deadline, start)
                    if !once.resume(outcome) { self.wedged.store(false, ordering: .relaxed) }
                }
            }
        } onCancel: {
            cancelled.store(true, ordering: .relaxed)
            device.abort()
        }
        waitGeneration.wrappingAdd(1, ordering: .relaxed)
        return try result.get()
    }

    /// A libnfc status as the error the operator can act on. On the libnfc queue.
    ///
    /// A pulled cable hangs the port up before its device node goes (udev removes it a
    /// moment later; the virtual bench closes its pty before it removes the link), so the
    /// first failed read can find the node still there. A failure other than a timeout
    /// looks again after `unplugSettle` before it is called a garbled reply.
    func failure(_ status: LibNFCStatus) -> ReaderError {
        var present = diagnosis.deviceStillPresent(connstring: connstring)
        if present && status != .timeout {
            usleep(UInt32(Self.unplugSettle.seconds * 1_000_000))
            present = diagnosis.deviceStillPresent(connstring: connstring)
        }
        if !present {
            return .unplugged(info.name, underlying: status.description)
        }
        switch status {
        case .timeout:
            return ReaderError(
                .failed, "Reader '\(info.name)' stopped answering in time.",
                hint: "Check the cable and power; unplug and replug the reader.", underlying: status.description)
        default:
            return .garbage(info.name, underlying: status.description)
        }
    }

    /// How long a device node may outlive its hung-up port.
    static let unplugSettle = Duration.milliseconds(150)

    /// A serial reader on a pseudo-terminal is an emulation (the virtual bench), never a
    /// reader: real PN532 boards sit on /dev/ttyUSB*, /dev/ttyACM*, /dev/ttyS* or
    /// /dev/ttyAMA*. (A real reader forwarded through a pty would be taken as simulated:
    /// the cautious side.)
    static func isPseudoTerminal(_ path: String) -> Bool {
        let resolved = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? path
        return resolved.hasPrefix("/dev/pts/") || path.hasPrefix("/dev/pts/")
    }

    /// Connstrings libnfc can see now.
    public static func connstrings() -> [String] { LibNFCDevice.listConnstrings() }

    /// What `readers` shows of a device without disturbing a run: a serial reader another
    /// process holds is reported in use and left alone; a free one is opened briefly (as
    /// `nfc-list` does) for its firmware. `inUse` is `nil` when the device could not be
    /// opened for another reason (permissions, a USB reader claimed by the kernel).
    public static func describe(connstring: String) -> (firmware: String?, inUse: Bool?) {
        var lock: SerialPortLock?
        if let path = ReaderDevice.serialPath(of: connstring) {
            do throws(ReaderError) {
                lock = try SerialPortLock(path: path)
            } catch {
                return (nil, error.code == .busy ? true : nil)
            }
        }
        defer { _ = lock }
        guard let device = LibNFCDevice(connstring: connstring) else { return (nil, nil) }
        return (device.firmware, false)
    }

    public static var libraryVersion: String { LibNFCDevice.libraryVersion }
}

/// Resumes a continuation exactly once, from whichever of two threads comes first.
final class ResumeOnce<T: Sendable>: Sendable {
    private let continuation: Mutex<CheckedContinuation<T, Never>?>
    init(_ continuation: CheckedContinuation<T, Never>) { self.continuation = Mutex(continuation) }

    /// `true` when this call resumed it.
    @discardableResult
    func resume(_ value: T) -> Bool {
        guard
            let c = continuation.withLock({ c in
                defer { c = nil }; return c
            })
        else { return false }
        c.resume(returning: value)
        return true
    }
}

extension LibNFCDiagnosis {
    /// Whether the device behind `connstring` is still attached.
    func deviceStillPresent(connstring: String) -> Bool {
        if let path = ReaderDevice.serialPath(of: connstring) { return FileManager.default.fileExists(atPath: path) }
        return !supportedDevices().isEmpty
    }
}
