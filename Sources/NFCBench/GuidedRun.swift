import Foundation
import NFCBenchRecords
import NFCLocatorCore
import NFCReaders

/// What the runner tells its front end, in order. The CLI prints these; tests read them.
public enum RunEvent: Sendable {
    case started(SessionRecord, resumedTaps: Int)
    case position(step: Int, total: Int?, probe: Probe, attempt: Int)
    case waitingForTap(seconds: Double)
    case tap(TapRecord)
    case undone(TapRecord)
    case waitingForLift
    case readerLost(ReaderError)
    case finished(SessionRecord, SessionScore)
    case suspended(SessionRecord, reason: String)
}

/// What the operator asked for while the runner waited.
public enum OperatorCommand: Sendable { case retry, skip, undo, quit }

/// A guided bench run: for each probe of the plan, position the phone, wait for the
/// field to be clear, poll until the phone answers or the tap timeout passes, record HIT
/// or MISS durably, wait for the phone to be lifted, and score the session at the end.
///
/// Every tap is committed before the next position is shown. Cancellation (Ctrl-C), a
/// failing positioner or a lost reader leave the session `in_progress`, resumable with
/// `nfcbench run --resume ID`; a resumed run replays the stored taps through the plan,
/// so no committed tap is lost or repeated.
public struct GuidedRun: Sendable {
    public var session: SessionRecord
    public let strategy: any ProbeStrategy
    public let reader: any Reader
    public let positioner: any Positioner
    public let store: any BenchStoring
    public let liftTimeout: Duration

    public init(
        session: SessionRecord, strategy: any ProbeStrategy, reader: any Reader, positioner: any Positioner,
        store: any BenchStoring, liftTimeout: Duration = .seconds(10)
    ) {
        self.session = session
        self.strategy = strategy
        self.reader = reader
        self.positioner = positioner
        self.store = store
        self.liftTimeout = liftTimeout
    }

    var predicted: NormalizedRect? { session.predicted }

    /// History per probe: a probe hit when any attempt there hit. Skipped probes count as visited.
    static func history(_ taps: [TapRecord]) -> [(probe: Probe, hit: Bool)] {
        var byStep: [Int: (probe: Probe, hit: Bool)] = [:]
        for t in taps {
            let previous = byStep[t.step]?.hit ?? false
            byStep[t.step] = (t.probe, previous || t.result == .hit)
        }
        return byStep.keys.sorted().map { byStep[$0]! }
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
                        step: step, total: strategy.kind == .grid ? GridPlanLength.of(strategy) : nil,
                        probe: probe, attempt: attempt))
                switch try await tap(at: probe, step: step, attempt: attempt, inbox: inbox, events: events) {
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
        } catch let error as ReaderError where error.code == .cancelled {
            try? await positioner.lift(index: taps.count)
            try await store.suspend(session.id)
            events(.suspended(session, reason: "interrupted"))
            throw error
        } catch let error as PositionerError where error.isInterruption {
            try await store.suspend(session.id)
            events(.suspended(session, reason: "interrupted"))
            throw error
        } catch let error as PositionerError {
            try await store.suspend(session.id)
            events(.suspended(session, reason: "positioner failed: \(error.message)"))
            throw error
        } catch let error as ReaderError {
            try await store.suspend(session.id)
            events(.suspended(session, reason: error.description))
            throw error
        }
        let score = SessionScore(
            predicted: predicted, history: Self.history(taps), strategy: strategy,
            aspectRatio: session.aspectRatio)
        let now = Date()
        try await store.finish(
            session.id, status: .completed, at: now, verdict: score.verdict, measured: score.measured,
            iou: score.iou)
        var finished = session
        finished.status = .completed
        finished.endedAt = now
        finished.verdict = score.verdict
        finished.measured = score.measured
        finished.iou = score.iou
        events(.finished(finished, score))
        return score
    }

    enum TapOutcome { case recorded(TapRecord), undo, retry, quit }

    private func tap(
        at probe: Probe, step: Int, attempt: Int, inbox: CommandInbox,
        events: @Sendable (RunEvent) -> Void
    ) async throws -> TapOutcome {
        // The field must be clear first, so a phone left on the reader cannot count as a hit here.
        if try await !reader.waitForRemoval(timeout: liftTimeout) {
            events(.waitingForLift)
            _ = try await reader.waitForRemoval(timeout: .seconds(3600))
        }
        try await positioner.place(probe, index: step)
        events(.waitingForTap(seconds: session.tapTimeout))
        let target = try await waitForTapOrCommand(inbox: inbox)
        let result: TapRecord.Result
        let detected: DetectedTarget?
        switch target {
        case .command(.skip): result = .skipped; detected = nil
        case .command(.undo): try await positioner.lift(index: step); return .undo
        case .command(.retry): try await positioner.lift(index: step); return .retry
        case .command(.quit): try await positioner.lift(index: step); return .quit
        case .target(let t): result = t == nil ? .miss : .hit; detected = t
        }
        let record = TapRecord(
            sessionID: session.id, step: step, attempt: attempt, probe: probe,
            insidePredicted: predicted?.contains(x: probe.x, y: probe.y) ?? false, result: result,
            latencyMs: detected.map { ($0.latencyMilliseconds * 10).rounded() / 10 },
            technology: detected?.technology.rawValue, uid: detected.map { Hex.string($0.uid) },
            atqa: detected?.atqa.map { Hex.string($0) }, sak: detected?.sak.map { Hex.string([$0]) },
            ats: detected?.ats.map { Hex.string($0) }, atr: detected?.atr.map { Hex.string($0) }, timestamp: Date())
        try await store.record(record)  // durable before anything else happens
        events(.tap(record))
        await reader.signal(result == .hit ? .hit : .miss)
        try await positioner.lift(index: step)
        if result == .hit, try await !reader.waitForRemoval(timeout: liftTimeout) {
            events(.waitingForLift)
            _ = try await reader.waitForRemoval(timeout: .seconds(3600))
        }
        return .recorded(record)
    }

    enum WaitResult { case target(DetectedTarget?), command(OperatorCommand) }

    /// Polls for the tap; an operator command ends the wait early.
    private func waitForTapOrCommand(inbox: CommandInbox) async throws -> WaitResult {
        let timeout = Duration.milliseconds(Int(session.tapTimeout * 1000))
        guard inbox.isOpen else { return .target(try await reader.waitForTarget(timeout: timeout)) }
        let reader = self.reader
        return try await withThrowingTaskGroup(of: WaitResult.self) { group in
            group.addTask { .target(try await reader.waitForTarget(timeout: timeout)) }
            group.addTask {
                guard let command = await inbox.next() else {
                    try await Task.sleep(for: .seconds(86_400)); throw CancellationError()
                }
                return .command(command)
            }
            let first = try await group.next()!
            group.cancelAll()
            return first
        }
    }
}

/// Grid plans have a known length; adaptive ones do not.
enum GridPlanLength {
    static func of(_ strategy: any ProbeStrategy) -> Int? { (strategy as? GridPlan)?.order.count }
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
    func close() { buffer.close() }
}
