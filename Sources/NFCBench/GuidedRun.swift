import Foundation
import NFCBenchRecords
import NFCBenchSeams
import NFCLocatorCore
import NFCReaders

/// A guided bench run: for each probe of the plan, position the phone, wait for the
/// field to be clear, wait until the phone is in place, poll for the whole tap window,
/// record HIT or MISS durably, wait for the phone to be lifted, and score the session.
///
/// Evidence is sacred:
/// - a window opens only once the phone is in place: the operator says so (Enter or
///   Space) in a manual run, a machine positioner by finishing its move. A phone that
///   answers before the operator confirms is a HIT, marked as such;
/// - a MISS is recorded only for a confirmed placement and a window the reader polled
///   cleanly to its end (`TapWindow.clean`);
/// - a responder that is not the phone under test (`PhoneSignature`) is FOREIGN, never
///   a HIT or a MISS, and the position is tapped again;
/// - a window with a reader fault records nothing: the run waits until the reader
///   answers again (reopening one that was unplugged and plugged back) and taps again.
///
/// Every tap is committed before the next position is shown, and every event of the
/// session (`SessionEvent`) is journalled as it happens. Cancellation (Ctrl-C), a quit, a
/// failing positioner or a reader that stays faulty leave the session `in_progress`,
/// resumable with `nfcbench run --resume ID`; a resumed run replays the stored taps
/// through the plan, so no committed tap is lost or repeated.
public struct GuidedRun: Sendable {
    public var session: SessionRecord
    public let strategy: any ProbeStrategy
    public let readers: ReaderHolder
    public let positioner: any Positioner
    public let store: any BenchStoring
    public let liftTimeout: Duration
    /// `--confirm-each`: with a machine positioner, the operator also confirms every
    /// placement before its window opens. A manual run always waits for the operator.
    public let confirmEach: Bool
    public let faultPolicy: FaultPolicy
    /// Tag mode: the NDEF message the emulated tag holds at each position (`TagContent`).
    public let tagMessage: @Sendable (_ step: Int) -> NDEFMessage
    /// What the start (or resume) event records besides the tap window: the positioner,
    /// the reader, and what a resume changed.
    public var startDetails: [String: String] = [:]
    /// FOREIGN responders in a row after which a run without an operator stops, saved:
    /// something in the field keeps answering instead of the phone.
    public static let foreignInARowLimit = 3
    /// A "placed" sooner than this after the prompt is discarded: no hand reads a prompt
    /// and puts a phone down that fast, so it is an Enter meant for the position before
    /// (pressed as the phone answered there, and arriving after the lift). Wall time; a
    /// study in virtual time sets it to zero.
    public var minimumPlacementTime = Duration.milliseconds(500)
    /// `run --coupling`: the ladder each HIT is graded down (`GuidedRun+Coupling`).
    public var coupling: CouplingLadder?
    /// The run's one clock: a fault's patience, when a key arrived and when a prompt was
    /// shown are all read from it, so a test or a study in virtual time drives it.
    public var clock: any BenchClock = ContinuousBenchClock()
    /// The station's equipment register, recorded in the trail as the run starts or
    /// resumes (`nil`: the station keeps none).
    public var equipment: EquipmentRegister?

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

    /// Whether a person confirms each placement: always in a manual run, and with
    /// `--confirm-each` when someone is at the keyboard.
    func operatorConfirmsPlacement(_ inbox: CommandInbox) -> Bool {
        positioner.needsOperator || (confirmEach && inbox.isOpen)
    }

    /// The grades the plan chooses from in a graded session (`run --coupling`, or a
    /// session that already holds graded taps, resumed without it); `nil` otherwise.
    func planGrades(_ taps: [TapRecord]) -> [(probe: Probe, coupling: Double)]? {
        guard coupling != nil || taps.contains(where: { $0.grade() != nil }) else { return nil }
        return Self.evidence(taps).grades
    }

    /// History per probe, for the plan: a probe hit when any attempt there hit. Skipped
    /// probes count as visited, so the plan moves on; FOREIGN answers are no evidence.
    static func history(_ taps: [TapRecord]) -> [(probe: Probe, hit: Bool)] {
        var byStep: [Int: (probe: Probe, hit: Bool)] = [:]
        for t in taps {
            let previous = byStep[t.step]?.hit ?? false
            byStep[t.step] = (t.probe, previous || t.result.read)
        }
        return byStep.keys.sorted().compactMap { byStep[$0] }
    }

    /// The positions skipped at every attempt: in the plan's history as visited, they read
    /// nothing, and a plan that weighs silences must not take them for one.
    static func skipped(_ taps: [TapRecord]) -> Set<Probe> {
        let attempted = Set(taps.filter { $0.result != .skipped }.map(\.probe))
        return Set(taps.filter { $0.result == .skipped }.map(\.probe)).subtracting(attempted)
    }

    /// History per probe, for the score: positions skipped at every attempt are no
    /// evidence, so they are left out and counted apart; FOREIGN answers are not taps.
    static func evidence(_ taps: [TapRecord]) -> (
        history: [(probe: Probe, hit: Bool)], skipped: Int, grades: [(probe: Probe, coupling: Double)]
    ) {
        // The verdict's evidence is the taps on the back; layers above map the volume.
        let steps = Dictionary(grouping: taps.filter { $0.result != .foreign && $0.probe.isAtTapHeight }, by: \.step)
        var history: [(probe: Probe, hit: Bool)] = []
        var grades: [(probe: Probe, coupling: Double)] = []
        var skipped = 0
        for step in steps.keys.sorted() {
            guard let attempts = steps[step], let first = attempts.first else { continue }
            let tapped = attempts.filter { $0.result != .skipped }
            if tapped.isEmpty {
                skipped += 1
            } else {
                history.append((first.probe, tapped.contains { $0.result.read }))
                // A position's grade is its strongest read's, as reports draw it; a grade on
                // another ladder than the standard one is not on the scale the verdict reads.
                if let grade = tapped.compactMap({ $0.grade() }).max() { grades.append((first.probe, grade)) }
            }
        }
        return (history, skipped, grades)
    }

    /// Steps whose taps are all done: every repeat observed (FOREIGN answers do not count
    /// as repeats), or skipped.
    func completeSteps(_ taps: [TapRecord]) -> Set<Int> {
        var observed: [Int: Int] = [:]
        var done = Set<Int>()
        for t in taps {
            if t.result == .skipped { done.insert(t.step) }
            if t.result != .foreign { observed[t.step, default: 0] += 1 }
        }
        for (step, count) in observed where count >= session.repeats { done.insert(step) }
        return done
    }

    public func run(
        commands: AsyncStream<OperatorCommand>? = nil,
        events: @Sendable (RunEvent) -> Void
    ) async throws -> SessionScore? {
        var taps = try await store.taps(session.id)
        let inbox = CommandInbox(commands, clock: clock)
        defer { inbox.close() }
        var signature = PhoneSignature(session: session, taps: taps)
        var foreignInARow = 0
        do {
            var details = startDetails
            details["tapWindow"] = FixedPoint.format(session.tapTimeout, 3)
            if !taps.isEmpty { details["tapsRecorded"] = String(taps.count) }
            // How each tap became a fresh field entry: out of range, or the field switched off.
            if positioner.crossesWithFieldOff { details["crossing"] = "field off" }
            // A reader an earlier session left weakened was put back at open: the record says so.
            let restored = readers.current.restoredAtOpen
            if let restored { details["readerRestored"] = restored }
            // Resumed when the trail already holds a start, taps or not: a session quit or
            // killed before its first tap is still resumed, never started twice.
            let trail = taps.isEmpty ? try await store.events(session.id) : []
            let startedBefore = !taps.isEmpty || trail.contains { $0.kind == .started }
            try await journal(startedBefore ? .resumed : .started, details: details)
            if let equipment, !equipment.items.isEmpty {
                try await journal(.equipment, details: equipment.eventDetails(on: EquipmentRegister.day(of: Date())))
            }
            events(.started(session, resumedTaps: taps.count))
            if let restored { events(.readerRestored(restored)) }
            if let announcement = positioner.announcement { events(.machineAnnounced(announcement)) }
            // The ready gate: nothing is timed, and no machine moves, until the operator
            // says the phone is ready.
            if positioner.needsOperator || positioner.announcement != nil, inbox.isOpen {
                events(.readyCheck(session))
                guard await nextCommand(inbox, accepting: [.proceed, .quit]) != .quit else {
                    return try await suspend(reason: "quit by the operator", kind: .quit, events: events)
                }
                try await journal(.ready, details: ["field": try await clearFieldBeforeFirstPosition(events: events)])
            }
            // A machine that crosses with the field off homes with it off too.
            if positioner.crossesWithFieldOff { try await fieldSwitch(of: readers.current).switchField(on: false) }
            try await positioner.prepare()
            var faultsHere = (step: -1, count: 0)
            while true {
                let history = Self.history(taps)
                let complete = completeSteps(taps)
                // The step in progress (some attempts recorded) or the plan's next probe.
                let step: Int
                let probe: Probe
                if let partial = taps.last, !complete.contains(partial.step) {
                    step = partial.step
                    probe = partial.probe
                } else {
                    guard let next = strategy.next(after: history, grades: planGrades(taps), skipped: Self.skipped(taps))
                    else { break }
                    step = history.count
                    probe = next
                }
                let attempt = taps.filter { $0.step == step }.count
                let repeatNumber = taps.filter { $0.step == step && $0.result != .foreign }.count
                events(.position(step: step, total: strategy.shape.plannedLength, probe: probe, attempt: repeatNumber))
                let tap = TapContext(step: step, attempt: attempt, probe: probe, signature: signature)
                switch try await tapOrRecover(tap, inbox: inbox, events: events) {
                case .recorded(let record):
                    taps.append(record)
                    faultsHere = (-1, 0)
                    if record.result == .foreign {
                        foreignInARow += 1
                        if !positioner.needsOperator, foreignInARow >= Self.foreignInARowLimit {
                            throw ForeignRespondersKeptAnswering(count: foreignInARow, last: record)
                        }
                    } else if record.result != .skipped {
                        foreignInARow = 0
                        signature.learn(from: record)
                    }
                case .undo:
                    if let removed = try await store.undoLastTap(session.id) {
                        taps.removeAll { $0.step == removed.step && $0.attempt == removed.attempt }
                        try await journal(.undo, step: removed.step, details: ["result": removed.result.rawValue])
                        events(.undone(removed))
                    }
                case .retry:
                    continue
                case .recovered(let fault):
                    faultsHere = faultsHere.step == step ? (step, faultsHere.count + 1) : (step, 1)
                    if faultsHere.count >= faultPolicy.faultsPerPosition {
                        throw Self.keptFailing(at: step, times: faultsHere.count, last: fault)
                    }
                case .quit:
                    return try await suspend(reason: "quit by the operator", kind: .quit, events: events)
                case .keyboardClosed(let step):
                    return try await suspend(
                        reason: "the keyboard closed before position \(step + 1) was confirmed as placed",
                        kind: .suspended, events: events)
                }
            }
        } catch {
            try await saveAfter(error, step: taps.count, events: events)
            throw error
        }
        return try await finish(taps, events: events)
    }

    private func finish(_ taps: [TapRecord], events: @Sendable (RunEvent) -> Void) async throws -> SessionScore {
        let (history, skipped, grades) = Self.evidence(taps)
        let score = SessionScore(
            predicted: predicted, history: history, skipped: skipped, grades: grades, strategy: strategy,
            aspectRatio: session.aspectRatio)
        let now = Date()
        try await store.finish(
            session.id, status: .completed, at: now, verdict: score.verdict, verdictReason: score.reason,
            measured: score.measured, iou: score.iou)
        try await journal(.finished, details: ["verdict": score.verdict.rawValue])
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

    /// Saves the session resumable and journals why.
    private func suspend(reason: String, kind: SessionEvent.Kind, events: @Sendable (RunEvent) -> Void) async throws
        -> SessionScore?
    {
        try await store.suspend(session.id)
        try await journal(kind, details: ["reason": reason])
        events(.suspended(session, reason: reason))
        return nil
    }

    /// Leaves the session resumable after `error`, saying why.
    private func saveAfter(_ error: any Error, step: Int, events: @Sendable (RunEvent) -> Void) async throws {
        let reason: String
        let kind: SessionEvent.Kind
        if Self.isInterruption(error) {
            try? await positioner.lift(index: step)
            (reason, kind) = ("interrupted", .interrupted)
        } else if let error = error as? PositionerError {
            (reason, kind) = ("positioner failed: \(error.message)", .positionerFailed)
        } else {
            (reason, kind) = (String(describing: error), .suspended)
        }
        try await store.suspend(session.id)
        try? await journal(kind, details: ["reason": reason])
        events(.suspended(session, reason: reason))
    }

    /// Ctrl-C, in whichever wait it arrived.
    static func isInterruption(_ error: any Error) -> Bool {
        if error is CancellationError { return true }
        if let error = error as? ReaderError { return error.code == .cancelled }
        if let error = error as? PositionerError { return error.isInterruption }
        return false
    }

    /// Appends one event to the session's audit trail, durably.
    func journal(_ kind: SessionEvent.Kind, step: Int? = nil, at: Date = Date(), details: [String: String] = [:])
        async throws
    {
        try await store.record(SessionEvent(sessionID: session.id, at: at, kind: kind, step: step, details: details))
    }

    /// The next operator command among `accepting` (others are ignored); `nil` when the
    /// keyboard is gone, which lets the run go on.
    func nextCommand(_ inbox: CommandInbox, accepting: Set<OperatorCommand>) async -> OperatorCommand? {
        while let command = await inbox.next() {
            if accepting.contains(command) { return command }
        }
        return nil
    }
}

extension GuidedRun {
    /// The reader failed `times` in a row at position `step`, answering again each time in
    /// between: a fault tied to that position, which more tries will not clear.
    static func keptFailing(at step: Int, times: Int, last: ReaderError) -> ReaderError {
        ReaderError(
            last.code == .cancelled ? .failed : last.code,
            "The reader failed \(times) times in a row at position \(step + 1), though it answered again in between "
                + "each time; nothing was recorded there. Last: \(last.message)",
            hint: last.hint ?? "Check the reader and the phone at that position before continuing.")
    }
}

/// A run without an operator met FOREIGN responders at `count` taps in a row: a card on
/// the bench or in the phone's case keeps answering. The session is saved, resumable.
public struct ForeignRespondersKeptAnswering: Error, Sendable, CustomStringConvertible {
    public let count: Int
    public let last: TapRecord
    public var description: String {
        "\(count) answers in a row came from something other than the phone (last: "
            + "\(ResponderWords.describe(last))): remove cards from the bench and from the phone's case"
    }
}
