import Foundation
import NFCBenchRecords
import NFCBenchSeams
import NFCReaders

/// One position of a guided run: clear field, placement, window, record, lift.
extension GuidedRun {
    struct TapContext {
        let step: Int
        /// The attempt number the tap is stored under (FOREIGN answers take one too).
        let attempt: Int
        let probe: Probe
        let signature: PhoneSignature
    }

    enum TapOutcome {
        case recorded(TapRecord)
        case undo, retry, quit
        /// The reader failed during the tap and was waited for: the position is tapped again.
        case recovered(ReaderError)
        /// A manual run's keyboard ended before the operator confirmed position `step`.
        case keyboardClosed(step: Int)
    }

    /// One position. A reader that fails anywhere in it (while the field is cleared, during
    /// the window, while the phone is lifted) records nothing more there: it is waited for
    /// (and reopened when it vanished), and the position is tapped again.
    func tapOrRecover(_ tap: TapContext, inbox: CommandInbox, events: @Sendable (RunEvent) -> Void) async throws
        -> TapOutcome
    {
        do {
            return try await self.tap(tap, inbox: inbox, events: events)
        } catch let error as ReaderError where error.code != .cancelled {
            try? await positioner.lift(index: tap.step)
            try await recoverAfter(error, step: tap.step, events: events)
            return .recovered(error)
        }
    }

    /// Journals a reader failure, waits for the reader, journals its return.
    func recoverAfter(_ error: ReaderError, step: Int?, events: @Sendable (RunEvent) -> Void) async throws {
        let lost = error.code == .unplugged
        try await journal(lost ? .readerLost : .readerFault, step: step, details: ["error": error.message])
        events(lost ? .readerLost(error) : .readerFault(error, step: step))
        try await recover(from: error)
        try await journal(.readerRecovered, step: step)
        events(.readerRecovered(step: step))
    }

    private func tap(_ tap: TapContext, inbox: CommandInbox, events: @Sendable (RunEvent) -> Void) async throws
        -> TapOutcome
    {
        let reader = readers.current
        if positioner.crossesWithFieldOff {
            // The field is off while the machine crosses and comes on only at the new
            // position, so whatever answers in the window answers there.
            try await fieldSwitch(of: reader).switchField(on: false)
            inbox.discardWaiting()
            try await positioner.place(tap.probe, index: tap.step)
            try await fieldSwitch(of: reader).switchField(on: true)
        } else {
            // The field must be clear first, so a phone left on the reader cannot count as a hit here.
            if try await !reader.waitForRemoval(timeout: liftTimeout) {
                try stillCoupledAfterMachineLift()
                events(.waitingForLift)
                _ = try await reader.waitForRemoval(timeout: .seconds(3600))
            }
            // Keys typed while the run waited for the lift belong to no window: only keys typed
            // once this position is shown count.
            inbox.discardWaiting()
            try await positioner.place(tap.probe, index: tap.step)
        }
        let placement: TapPlacement
        if operatorConfirmsPlacement(inbox) {
            // No keyboard at all: nobody can say the phone is in place, so no window may run.
            guard inbox.isOpen else { return .keyboardClosed(step: tap.step) }
            switch try await confirmPlacement(tap, inbox: inbox, reader: reader, events: events) {
            case .placed(let confirmed): placement = confirmed
            case .done(let outcome): return outcome
            }
        } else {
            placement = .reportedByPositioner
        }
        try await journal(.placed, step: tap.step, details: ["by": placement.rawValue])
        events(.waitingForTap(seconds: session.tapTimeout))
        let opened = Date()
        let observed = try await waitForTapOrCommand(inbox: inbox, reader: reader, step: tap.step)
        try await journal(
            .window, step: tap.step, at: opened,
            details: ["seconds": FixedPoint.format(session.tapTimeout, 3), "outcome": Self.outcomeWord(observed)])
        switch observed {
        case .command(let command): return try await act(on: command, tap, events: events)
        default: return try await conclude(observed, tap, placement: placement, events: events)
        }
    }

    private enum Confirmation {
        case placed(TapPlacement)
        case done(TapOutcome)
    }

    /// The operator's word that the phone is in place. Tag mode times the phone's own read
    /// from its activation, and a fault is no evidence either way: both conclude at once. A
    /// card-mode answer came while the phone was still being placed (it may have slid
    /// across the coil): it is noted, and the position's evidence is the window after the
    /// confirmation, timed from it. A keyboard that closes leaves a machine's placement
    /// standing, answer or not; by hand, the run stops there.
    private func confirmPlacement(
        _ tap: TapContext, inbox: CommandInbox, reader: any Reader, events: @Sendable (RunEvent) -> Void
    ) async throws -> Confirmation {
        events(.awaitingPlacement(step: tap.step))
        var wait = try await waitForPlacement(inbox: inbox, reader: reader, step: tap.step)
        var answered = false
        if case .observed(let early) = wait {
            guard session.mode == .card, case .window(.target(let target)) = early else {
                return .done(try await conclude(early, tap, placement: .answeredBeforeConfirmation, events: events))
            }
            try await journal(
                .answeredWhilePlacing, step: tap.step, details: ["responder": ResponderWords.describe(target)])
            events(.answeredWhilePlacing(step: tap.step))
            answered = true
            wait = await waitForConfirmation(inbox: inbox)
        }
        let placement: TapPlacement
        switch wait {
        case .command(.proceed): placement = .confirmedByOperator
        case .command(let command): return .done(try await act(on: command, tap, events: events))
        case .keyboardClosed, .observed:
            guard positioner.needsOperator else {
                placement = .reportedByPositioner
                break
            }
            try await positioner.lift(index: tap.step)
            return .done(.keyboardClosed(step: tap.step))
        }
        if answered { try await meetAfresh(reader) }
        return .placed(placement)
    }

    /// After the phone answered while being placed: the field is switched off and on, where
    /// the reader can, so the window meets the phone afresh (as a tap does) and times its
    /// answer from the confirmation, not from a selection made while it was still moving.
    private func meetAfresh(_ reader: any Reader) async throws {
        guard let field = reader.capabilities.fieldSwitch else { return }
        try await field.switchField(on: false)
        try await field.switchField(on: true)
    }

    /// What the operator's key does at a position.
    private func act(on command: OperatorCommand, _ tap: TapContext, events: @Sendable (RunEvent) -> Void) async throws
        -> TapOutcome
    {
        switch command {
        case .skip:
            try await journal(.skip, step: tap.step)
            return try await record(.skipped, nil, tap, placement: nil, events: events)
        case .undo:
            try await positioner.lift(index: tap.step)
            return .undo
        case .retry, .proceed:
            try await journal(.retry, step: tap.step)
            try await positioner.lift(index: tap.step)
            return .retry
        case .quit:
            try await positioner.lift(index: tap.step)
            return .quit
        }
    }

    /// What the reader saw, as a tap (or a fault to wait out).
    private func conclude(
        _ observed: WaitResult, _ tap: TapContext, placement: TapPlacement, events: @Sendable (RunEvent) -> Void
    ) async throws -> TapOutcome {
        switch observed {
        case .command(let command):
            return try await act(on: command, tap, events: events)
        case .window(.faulty(let error)):
            // No evidence either way: record nothing, wait for the reader, tap again.
            try await positioner.lift(index: tap.step)
            try await recoverAfter(error, step: tap.step, events: events)
            return .recovered(error)
        case .window(.clean):
            guard let coupling, let checked = try await checkSaturation(coupling, reader: readers.current) else {
                return try await record(.miss, nil, tap, placement: placement, events: events)
            }
            // A weaker field read what the full field missed: the phone is here, its front
            // end saturated. Only the phone's own answer makes that a HIT.
            if let target = checked.target, case .phone = tap.signature.fit(target) {
                return try await record(.hit, target, tap, placement: placement, grade: checked.grade, events: events)
            }
            let tried = checked.target == nil ? checked.grade.tried : checked.grade.tried + " (not the phone's answer)"
            return try await record(
                .miss, nil, tap, placement: placement,
                grade: CouplingGrade(index: nil, tried: tried, ladder: checked.grade.ladder), events: events)
        case .window(.target(let target)):
            if case .foreign(let reason) = tap.signature.fit(target) {
                try await journal(
                    .foreign, step: tap.step,
                    details: ["responder": ResponderWords.describe(target), "reason": reason, "uid": Hex.string(target.uid)])
                return try await record(.foreign, target, tap, placement: placement, foreignReason: reason, events: events)
            }
            var grade: CouplingGrade?
            if let coupling { grade = try await gradeCoupling(coupling, reader: readers.current) }
            return try await record(.hit, target, tap, placement: placement, grade: grade, events: events)
        case .tagRead(let read):
            return try await record(
                read.completed ? .hit : .partial, nil, tap, placement: placement, tagRead: read, events: events)
        }
    }

    static func outcomeWord(_ observed: WaitResult) -> String {
        switch observed {
        case .command(let command): "key \(command)"
        case .window(.clean): "clean"
        case .window(.target): "answered"
        case .window(.faulty): "reader fault"
        case .tagRead(let read): read.completed ? "read" : "partial read"
        }
    }

    /// In tag mode the latency is the time to read: from the phone's activation (field
    /// detection) to the answer to its last READ BINARY, so it holds whenever the phone read.
    /// A card-mode answer before the confirmation (sessions before the rule that waits for
    /// it) has no time to detect: nothing was timed yet.
    private func record(
        _ result: TapRecord.Result, _ detected: DetectedTarget?, _ tap: TapContext, placement: TapPlacement?,
        tagRead: TagReadResult? = nil, foreignReason: String? = nil, grade: CouplingGrade? = nil,
        events: @Sendable (RunEvent) -> Void
    ) async throws -> TapOutcome {
        if result != .skipped { try await confirmStill(through: tap) }
        let readTime = tagRead?.readTime.map { ($0.seconds * 10_000).rounded() / 10 }
        // A tag read is timed by the phone's own activation, whenever the operator confirms.
        let timed = placement != .answeredBeforeConfirmation || tagRead != nil
        let record = TapRecord(
            sessionID: session.id, step: tap.step, attempt: tap.attempt, probe: tap.probe,
            insidePredicted: predicted?.contains(x: tap.probe.x, y: tap.probe.y) ?? false, result: result,
            latencyMs: timed ? (detected.map { ($0.latencyMilliseconds * 10).rounded() / 10 } ?? readTime) : nil,
            technology: detected?.technology.rawValue ?? (tagRead == nil ? nil : "ISO14443A"),
            uid: detected.map { Hex.string($0.uid) },
            atqa: detected?.atqa.map { Hex.string($0) }, sak: detected?.sak.map { Hex.string([$0]) },
            ats: detected?.ats.map { Hex.string($0) }, atr: detected?.atr.map { Hex.string($0) }, timestamp: Date(),
            tagProgress: tagRead.map { TagProgress($0.progress) }, placement: placement,
            windowSeconds: result == .skipped ? nil : session.tapTimeout, platformProbe: detected?.platformProbe,
            coupling: grade?.index, couplingTried: grade?.tried, couplingLadder: grade?.ladder)
        try await store.record(record)  // durable before anything else happens
        events(.tap(record))
        if let foreignReason { events(.foreign(record, reason: foreignReason)) }
        // The tap is recorded: a reader failing while the phone is lifted delays the next
        // position, never repeats this one.
        do {
            try await afterTap(result, step: tap.step, events: events)
        } catch let error as ReaderError where error.code != .cancelled {
            try await recoverAfter(error, step: nil, events: events)
        }
        return .recorded(record)
    }

    /// A machine that alarmed, reset or stopped with an error during the window voids its
    /// tap: nothing is recorded, and the run stops saying why (issue 49, L3).
    private func confirmStill(through tap: TapContext) async throws {
        do {
            try await positioner.confirmStill(index: tap.step)
        } catch {
            guard !error.isInterruption else { throw error }
            throw PositionerError(
                error.message + "; the tap at position \(tap.step + 1) was not recorded and is taken again on resume")
        }
    }

    private func afterTap(_ result: TapRecord.Result, step: Int, events: @Sendable (RunEvent) -> Void) async throws {
        let reader = readers.current
        if result != .skipped { await reader.signal(result.read ? .hit : .miss) }
        if positioner.crossesWithFieldOff {
            // Off before the machine moves: the phone leaves the field here, not on the way.
            try await fieldSwitch(of: reader).switchField(on: false)
            try await positioner.lift(index: step)
            return
        }
        try await positioner.lift(index: step)
        guard result == .hit || result == .foreign else { return }
        // An operator's hands hear "lift" at once, not after the field has stayed busy for
        // `liftTimeout`; a machine positioner has already lifted, so only a phone still
        // read after that is worth a word.
        if !positioner.needsOperator, try await reader.waitForRemoval(timeout: liftTimeout) { return }
        if !positioner.needsOperator { try stillCoupledAfterMachineLift() }
        events(.waitingForLift)
        _ = try await reader.waitForRemoval(timeout: .seconds(3600))
        events(.lifted)
    }

    /// The reader's field switch, for a positioner that crosses with the field off. The run
    /// was built for a reader that has one; a reader reopened without it stops the run
    /// before anything moves inside the field.
    func fieldSwitch(of reader: any Reader) throws(PositionerError) -> any FieldSwitching {
        guard let fieldSwitch = reader.capabilities.fieldSwitch else {
            throw PositionerError(
                "reader '\(reader.info.name)' cannot switch its RF field off, and the machine crosses at clearance-z "
                    + "inside the field's reach: remove clearance-z from the rig file, or use a libnfc reader, then resume")
        }
        return fieldSwitch
    }

    /// A machine has lifted the phone to its safe height and the reader still sees it:
    /// the field reaches that high, so waiting would never end. The run stops, saved.
    func stillCoupledAfterMachineLift() throws(PositionerError) {
        guard positioner.announcement != nil else { return }
        throw PositionerError(
            "the phone still answers with the machine at its safe height: the reader's field reaches that far. "
                + "Raise safe-z in the rig file (or move the reader further from the jig), then resume")
    }
}
