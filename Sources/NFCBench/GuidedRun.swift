import Foundation
import NFCBenchRecords
import NFCLocatorCore
import NFCReaders

/// A guided bench run: for each probe of the plan, position the phone, wait for the
/// field to be clear, poll for the whole tap window, record HIT or MISS durably, wait
/// for the phone to be lifted, and score the session at the end.
///
/// Evidence is sacred: a MISS is recorded only for a window the reader polled cleanly
/// to its end (`TapWindow.clean`). A window with a reader fault records nothing: the
/// run tells the operator, waits until the reader answers again (reopening one that was
/// unplugged and plugged back), and taps the position again.
///
/// Every tap is committed before the next position is shown. Cancellation (Ctrl-C), a
/// quit, a failing positioner or a reader that stays faulty leave the session
/// `in_progress`, resumable with `nfcbench run --resume ID`; a resumed run replays the
/// stored taps through the plan, so no committed tap is lost or repeated.
public struct GuidedRun: Sendable {
    public var session: SessionRecord
    public let strategy: any ProbeStrategy
    public let readers: ReaderHolder
    public let positioner: any Positioner
    public let store: any BenchStoring
    public let liftTimeout: Duration
    /// `--confirm-each`: the operator confirms every placement before its window opens.
    public let confirmEach: Bool
    public let faultPolicy: FaultPolicy
    /// Tag mode: the NDEF message the emulated tag holds at each position (`TagContent`).
    public let tagMessage: @Sendable (_ step: Int) -> NDEFMessage

    public init(
        session: SessionRecord, strategy: any ProbeStrategy, readers: ReaderHolder, positioner: any Positioner,
        store: any BenchStoring, liftTimeout: Duration = .seconds(10), confirmEach: Bool = false,
        faultPolicy: FaultPolicy = FaultPolicy(), tagMessage: (@Sendable (_ step: Int) -> NDEFMessage)? = nil
    ) {
        self.session = session
        self.strategy = strategy
        self.readers = readers
        self.positioner = positioner
        self.store = store
        self.liftTimeout = liftTimeout
        self.confirmEach = confirmEach
        self.faultPolicy = faultPolicy
        let id = session.id
        self.tagMessage = tagMessage ?? { step in TagContent.default(session: id, position: step) }
    }

    public init(
        session: SessionRecord, strategy: any ProbeStrategy, reader: any Reader, positioner: any Positioner,
        store: any BenchStoring, liftTimeout: Duration = .seconds(10), confirmEach: Bool = false,
        faultPolicy: FaultPolicy = FaultPolicy()
    ) {
        self.init(
            session: session, strategy: strategy, readers: ReaderHolder(reader), positioner: positioner, store: store,
            liftTimeout: liftTimeout, confirmEach: confirmEach, faultPolicy: faultPolicy)
    }

    var predicted: NormalizedRect? { session.predicted }

    /// History per probe, for the plan: a probe hit when any attempt there hit. Skipped
    /// probes count as visited, so the plan moves on.
    static func history(_ taps: [TapRecord]) -> [(probe: Probe, hit: Bool)] {
        var byStep: [Int: (probe: Probe, hit: Bool)] = [:]
        for t in taps {
            let previous = byStep[t.step]?.hit ?? false
            byStep[t.step] = (t.probe, previous || t.result.read)
        }
        return byStep.keys.sorted().compactMap { byStep[$0] }
    }

    /// History per probe, for the score: positions skipped at every attempt are no
    /// evidence, so they are left out and counted apart.
    static func evidence(_ taps: [TapRecord]) -> (history: [(probe: Probe, hit: Bool)], skipped: Int) {
        let steps = Dictionary(grouping: taps, by: \.step)
        var history: [(probe: Probe, hit: Bool)] = []
        var skipped = 0
        for step in steps.keys.sorted() {
            guard let attempts = steps[step], let first = attempts.first else { continue }
            let tapped = attempts.filter { $0.result != .skipped }
            if tapped.isEmpty {
                skipped += 1
            } else {
                history.append((first.probe, tapped.contains { $0.result.read }))
            }
        }
        return (history, skipped)
    }

    public func run(
        commands: AsyncStream<OperatorCommand>? = nil,
        events: @Sendable (RunEvent) -> Void
    ) async throws -> SessionScore? {
        var taps = try await store.taps(session.id)
        events(.started(session, resumedTaps: taps.count))
        let inbox = CommandInbox(commands)
        defer { inbox.close() }
        do {
            // The ready gate: nothing is timed until the operator says the phone is ready.
            if positioner.needsOperator, inbox.isOpen {
                events(.readyCheck(session))
                if await nextCommand(inbox, accepting: [.proceed, .quit]) == .quit {
                    try await store.suspend(session.id)
                    events(.suspended(session, reason: "quit by the operator"))
                    return nil
                }
            }
            while true {
                let history = Self.history(taps)
                let completeSteps = Set(taps.filter { $0.attempt == session.repeats - 1 || $0.result == .skipped }.map(\.step))
                // The step in progress (some attempts recorded) or the plan's next probe.
                let step: Int
                let probe: Probe
                if let partial = taps.last, !completeSteps.contains(partial.step) {
                    step = partial.step
                    probe = partial.probe
                } else {
                    guard let next = strategy.next(after: history) else { break }
                    step = history.count
                    probe = next
                }
                let attempt = taps.filter { $0.step == step }.count
                events(
                    .position(
                        step: step, total: strategy.shape.plannedLength,
                        probe: probe, attempt: attempt))
                switch try await tapOrRecover(at: probe, step: step, attempt: attempt, inbox: inbox, events: events) {
                case .recorded(let record):
                    taps.append(record)
                case .undo:
                    if let removed = try await store.undoLastTap(session.id) {
                        taps.removeAll { $0.step == removed.step && $0.attempt == removed.attempt }
                        events(.undone(removed))
                    }
                case .retry:
                    continue
                case .quit:
                    try await store.suspend(session.id)
                    events(.suspended(session, reason: "quit by the operator"))
                    return nil
                }
            }
        } catch {
            try await saveAfter(error, step: taps.count, events: events)
            throw error
        }
        let (history, skipped) = Self.evidence(taps)
        let score = SessionScore(
            predicted: predicted, history: history, skipped: skipped, strategy: strategy, aspectRatio: session.aspectRatio)
        let now = Date()
        try await store.finish(
            session.id, status: .completed, at: now, verdict: score.verdict, verdictReason: score.reason,
            measured: score.measured, iou: score.iou)
        var finished = session
        finished.status = .completed
        finished.endedAt = now
        finished.verdict = score.verdict
        finished.verdictReason = score.reason
        finished.measured = score.measured
        finished.iou = score.iou
        events(.finished(finished, score))
        return score
    }

    /// Leaves the session resumable after `error`, saying why.
    private func saveAfter(_ error: any Error, step: Int, events: @Sendable (RunEvent) -> Void) async throws {
        let reason: String
        if Self.isInterruption(error) {
            try? await positioner.lift(index: step)
            reason = "interrupted"
        } else if let error = error as? PositionerError {
            reason = "positioner failed: \(error.message)"
        } else {
            reason = String(describing: error)
        }
        try await store.suspend(session.id)
        events(.suspended(session, reason: reason))
    }

    /// Ctrl-C, in whichever wait it arrived.
    static func isInterruption(_ error: any Error) -> Bool {
        if error is CancellationError { return true }
        if let error = error as? ReaderError { return error.code == .cancelled }
        if let error = error as? PositionerError { return error.isInterruption }
        return false
    }

    enum TapOutcome { case recorded(TapRecord), undo, retry, quit }

    /// One position. A reader that fails anywhere in it (while the field is cleared, during
    /// the window, while the phone is lifted) records nothing more there: it is waited for
    /// (and reopened when it vanished), and the position is tapped again.
    private func tapOrRecover(
        at probe: Probe, step: Int, attempt: Int, inbox: CommandInbox,
        events: @Sendable (RunEvent) -> Void
    ) async throws -> TapOutcome {
        do {
            return try await tap(at: probe, step: step, attempt: attempt, inbox: inbox, events: events)
        } catch let error as ReaderError where error.code != .cancelled {
            try? await positioner.lift(index: step)
            events(error.code == .unplugged ? .readerLost(error) : .readerFault(error, step: step))
            try await recover(from: error)
            events(.readerRecovered(step: step))
            return .retry
        }
    }

    private func tap(
        at probe: Probe, step: Int, attempt: Int, inbox: CommandInbox,
        events: @Sendable (RunEvent) -> Void
    ) async throws -> TapOutcome {
        let reader = readers.current
        // The field must be clear first, so a phone left on the reader cannot count as a hit here.
        if try await !reader.waitForRemoval(timeout: liftTimeout) {
            events(.waitingForLift)
            _ = try await reader.waitForRemoval(timeout: .seconds(3600))
        }
        try await positioner.place(probe, index: step)
        if confirmEach, inbox.isOpen {
            events(.confirmPlacement(step: step))
            switch await nextCommand(inbox, accepting: [.proceed, .skip, .undo, .retry, .quit]) {
            case .skip: return try await record(.skipped, nil, probe: probe, step: step, attempt: attempt, events: events)
            case .undo: try await positioner.lift(index: step); return .undo
            case .retry: try await positioner.lift(index: step); return .retry
            case .quit: try await positioner.lift(index: step); return .quit
            case .proceed, nil: break
            }
        }
        events(.waitingForTap(seconds: session.tapTimeout))
        switch try await waitForTapOrCommand(inbox: inbox, reader: reader, step: step) {
        case .command(.skip):
            return try await record(.skipped, nil, probe: probe, step: step, attempt: attempt, events: events)
        case .command(.undo): try await positioner.lift(index: step); return .undo
        case .command(.retry), .command(.proceed): try await positioner.lift(index: step); return .retry
        case .command(.quit): try await positioner.lift(index: step); return .quit
        case .window(.faulty(let error)):
            // No evidence either way: record nothing, wait for the reader, tap again.
            try await positioner.lift(index: step)
            events(.readerFault(error, step: step))
            try await recover(from: error)
            events(.readerRecovered(step: step))
            return .retry
        case .window(.clean):
            return try await record(.miss, nil, probe: probe, step: step, attempt: attempt, events: events)
        case .window(.target(let target)):
            return try await record(.hit, target, probe: probe, step: step, attempt: attempt, events: events)
        case .tagRead(let read):
            return try await record(
                read.completed ? .hit : .partial, nil, probe: probe, step: step, attempt: attempt, tagRead: read,
                events: events)
        }
    }

    /// In tag mode the latency is the time to read: from the phone's activation (field
    /// detection) to the answer to its last READ BINARY.
    private func record(
        _ result: TapRecord.Result, _ detected: DetectedTarget?, probe: Probe, step: Int, attempt: Int,
        tagRead: TagReadResult? = nil, events: @Sendable (RunEvent) -> Void
    ) async throws -> TapOutcome {
        let readTime = tagRead?.readTime.map { ($0.seconds * 10_000).rounded() / 10 }
        let record = TapRecord(
            sessionID: session.id, step: step, attempt: attempt, probe: probe,
            insidePredicted: predicted?.contains(x: probe.x, y: probe.y) ?? false, result: result,
            latencyMs: detected.map { ($0.latencyMilliseconds * 10).rounded() / 10 } ?? readTime,
            technology: detected?.technology.rawValue ?? (tagRead == nil ? nil : "ISO14443A"),
            uid: detected.map { Hex.string($0.uid) },
            atqa: detected?.atqa.map { Hex.string($0) }, sak: detected?.sak.map { Hex.string([$0]) },
            ats: detected?.ats.map { Hex.string($0) }, atr: detected?.atr.map { Hex.string($0) }, timestamp: Date(),
            tagProgress: tagRead.map { TagProgress($0.progress) })
        try await store.record(record)  // durable before anything else happens
        events(.tap(record))
        // The tap is recorded: a reader failing while the phone is lifted delays the next
        // position, never repeats this one.
        do {
            try await afterTap(result, step: step, events: events)
        } catch let error as ReaderError where error.code != .cancelled {
            events(error.code == .unplugged ? .readerLost(error) : .readerFault(error, step: nil))
            try await recover(from: error)
            events(.readerRecovered(step: nil))
        }
        return .recorded(record)
    }

    private func afterTap(_ result: TapRecord.Result, step: Int, events: @Sendable (RunEvent) -> Void) async throws {
        let reader = readers.current
        if result != .skipped { await reader.signal(result.read ? .hit : .miss) }
        try await positioner.lift(index: step)
        guard result == .hit else { return }
        // An operator's hands hear "lift" at once, not after the field has stayed busy for
        // `liftTimeout`; a machine positioner has already lifted, so only a phone still
        // read after that is worth a word.
        if !positioner.needsOperator, try await reader.waitForRemoval(timeout: liftTimeout) { return }
        events(.waitingForLift)
        _ = try await reader.waitForRemoval(timeout: .seconds(3600))
        events(.lifted)
    }

    /// Waits until the reader answers again: a clean window or a target (the phone may
    /// still be on it). An unplugged reader is reopened first. Throws `ReaderStayedFaulty`
    /// after `faultPolicy.patience`, `CancellationError` on Ctrl-C.
    private func recover(from error: ReaderError) async throws {
        let clock = ContinuousClock()
        let start = clock.now
        var state = RecoveryState(last: error, needsReopen: error.code == .unplugged)
        while clock.now - start < faultPolicy.patience {
            try await Task.sleep(for: faultPolicy.interval)
            state = try await probeReader(state)
            if state.answered { return }
        }
        throw ReaderStayedFaulty(last: state.last, waited: faultPolicy.patience)
    }

    struct RecoveryState {
        var last: ReaderError
        var needsReopen: Bool
        var answered = false
        var faultyProbes = 0
    }

    /// Faulty probes in a row after which the reader is opened afresh: a reader that was
    /// replugged under the same name (a PN532 brought back from mute, a USB serial
    /// adapter re-enumerated) leaves the old handle failing forever, and only a new open
    /// reaches the new device. A reader that is merely garbling stays open (the reopen
    /// finds its port still held and keeps the old one).
    static let reopenAfterFaultyProbes = 4

    /// One look at the reader during recovery.
    private func probeReader(_ state: RecoveryState) async throws -> RecoveryState {
        var next = state
        if next.needsReopen {
            guard await readers.reopen() else { return next }
            next.needsReopen = false
        }
        switch await probeWindow() {
        case .success(.faulty(let fault)):
            next.last = fault
            next.faultyProbes += 1
            if next.faultyProbes % Self.reopenAfterFaultyProbes == 0 { next.needsReopen = true }
        case .success(.clean), .success(.target): next.answered = true
        case .failure(let error) where error.code == .unplugged:
            next.last = error
            next.needsReopen = true
        case .failure(let error): throw error
        }
        return next
    }

    private func probeWindow() async -> Result<TapWindow, ReaderError> {
        do throws(ReaderError) {
            return .success(try await readers.current.pollWindow(faultPolicy.probeWindow))
        } catch {
            return .failure(error)
        }
    }

    /// The next operator command among `accepting` (others are ignored); `nil` when the
    /// keyboard is gone, which lets the run go on.
    private func nextCommand(_ inbox: CommandInbox, accepting: Set<OperatorCommand>) async -> OperatorCommand? {
        while let command = await inbox.next() {
            if accepting.contains(command) { return command }
        }
        return nil
    }

    enum WaitResult { case window(TapWindow), tagRead(TagReadResult), command(OperatorCommand) }

    /// One tap window as the session's mode sees it: the reader polling for the phone
    /// (card mode), or emulating a tag for the phone to read (tag mode).
    private func observe(_ reader: any Reader, window: Duration, step: Int) async throws -> WaitResult {
        guard session.mode == .tag else { return .window(try await reader.pollWindow(window)) }
        guard let emulator = reader.capabilities.tagEmulator else {
            throw ReaderError(.unsupported, "Reader '\(reader.info.name)' cannot emulate a tag (tag mode).")
        }
        switch try await emulator.emulateTag(tagMessage(step), window: window) {
        case .read(let read): return .tagRead(read)
        case .clean: return .window(.clean)
        case .faulty(let error): return .window(.faulty(error))
        }
    }

    /// Polls for the whole tap window; an operator command ends the wait early.
    private func waitForTapOrCommand(inbox: CommandInbox, reader: any Reader, step: Int) async throws -> WaitResult {
        let window = Duration.milliseconds(Int64(session.tapTimeout * 1000))
        guard inbox.isOpen else { return try await observe(reader, window: window, step: step) }
        // A key typed before the window opened (during the lift, say) is acted on first.
        while let waiting = inbox.poll() {
            if waiting != .proceed { return .command(waiting) }
        }
        return try await withThrowingTaskGroup(of: WaitResult.self) { group in
            group.addTask { try await observe(reader, window: window, step: step) }
            group.addTask {
                while let command = await inbox.next() {
                    if command != .proceed { return .command(command) }
                }
                try await Task.sleep(for: .seconds(86_400))
                throw CancellationError()
            }
            guard let first = try await group.next() else { throw CancellationError() }
            group.cancelAll()
            // A command that arrived as the window ended is kept for the next wait.
            while let late = try? await group.next() {
                if case .command(let command) = late { inbox.unread(command) }
            }
            return first
        }
    }
}

/// Operator commands, delivered one at a time to whichever wait is current.
final class CommandInbox: Sendable {
    private let stream: AsyncStream<OperatorCommand>?
    private let buffer = AsyncStreamBuffer()

    init(_ stream: AsyncStream<OperatorCommand>?) {
        self.stream = stream
        if let stream { buffer.feed(from: stream) }
    }

    var isOpen: Bool { stream != nil }
    func next() async -> OperatorCommand? { await buffer.next() }
    func poll() -> OperatorCommand? { buffer.poll() }
    func unread(_ command: OperatorCommand) { buffer.unread(command) }
    func close() { buffer.close() }
}
