import Foundation
import NFCBench
import NFCBenchRecords
import NFCBenchSeams
import NFCLocatorCore
import NFCReaders
import Synchronization

/// Prints run events: a silhouette per position on a terminal, one plain line per event
/// when piped, nothing but the final summary with `--json`.
final class RunPrinter: Sendable {
    let context: CommandContext
    let json: Bool
    let interactive: Bool
    let useColor: Bool
    let databasePath: String
    /// The command line, for the resume hint (`ResumeHint`).
    let invocation: ParsedInvocation
    let cells: PlanShape.Cells?
    let strings: StringCatalog
    let resolutionHint: String?
    let aspectRatio: Double
    /// A live countdown while waiting for a tap, on a terminal only.
    let progress: WaitProgress
    /// Millimetres below the top and from the left edge when the model's body size is known.
    let positionWords: PositionWords
    /// The taps so far, redrawn at every position, and the places already named.
    let map = LiveMap()
    /// Whether operator keys are read (not with `--auto` or `--json`): key help only then.
    let keysAvailable: Bool
    let predicted: NormalizedRect?
    /// Adaptive runs: positions when the prediction is right (none in a graded run, whose
    /// grades choose), and the most there can be.
    let expectedPositions: Int?
    let maximumPositions: Int?
    /// iPhones present a Wallet card for about a minute: the run reminds the operator.
    let isIPhone: Bool
    /// Tag mode: the phone reads the emulated tag when it lies there, timed from its own activation.
    let tagMode: Bool
    /// An unattended run's pace and time left, said with each position.
    let pace = RunPace()

    init(
        context: CommandContext, invocation: ParsedInvocation, json: Bool, strategy: any ProbeStrategy,
        databasePath: String, resolution: AntennaResolution?, aspectRatio: Double, session: SessionRecord,
        keysAvailable: Bool, graded: Bool = false
    ) {
        self.context = context
        self.keysAvailable = keysAvailable
        self.predicted = session.predicted
        let shape = strategy.shape
        if graded || !shape.countsRightPrediction, let most = shape.gradedPositions {
            // The grades, or what each tap tells, choose each position: no count is
            // expected, only the bound.
            expectedPositions = nil
            maximumPositions = most
        } else {
            expectedPositions = shape.plannedLength == nil ? strategy.expectedProbes(for: session.predicted).count : nil
            maximumPositions = shape.plannedLength == nil ? shape.maximumPositions : nil
        }
        isIPhone = Self.platform(session) == .iOS && session.mode == .card
        tagMode = session.mode == .tag
        positionWords = PositionWords(body: BodyMillimetres(session))
        self.aspectRatio = aspectRatio
        progress = WaitProgress(output: context.output, interactive: context.output.isTerminal && !json)
        self.json = json
        interactive = context.output.isTerminal
        useColor = context.useColor(invocation)
        self.databasePath = databasePath
        self.invocation = invocation
        cells = shape.cells
        strings = context.strings()
        // The resolution's own hints are for a phone app ("sweep slowly..."); at the bench
        // the plan does the searching, so the operator is told what the plan does about it.
        resolutionHint = resolution.flatMap { r in
            switch r.guidance {
            case .marker: nil
            case .staleMarker: context.strings().string("nfc_bench.run.stale_zone")
            case .fallback: context.strings().string("nfc_bench.run.no_zone")
            }
        }
    }

    func handle(_ event: RunEvent) {
        guard !json else {
            if case .suspended(let s, let reason) = event { saved(s, reason) }
            return
        }
        let out = context.output
        switch event {
        case .started(let s, let resumed): started(s, resumed: resumed)
        case .readyCheck:
            out.line(
                "Nothing is timed yet. When the phone is prepared and the reader's field is clear, press Enter (q and Enter to quit)."
            )
        case .machineAnnounced(let plan):
            out.line(TerminalSafeText.neutralise(plan))
        case .fieldOccupied(let target):
            out.line(
                "Something answers in the reader's field: \(TerminalSafeText.neutralise(ResponderWords.describe(target))). "
                    + "A phone left on the reader would read at position 1, wherever that is: lift it, and anything with "
                    + "a chip, off the reader. The run starts when the field is clear.")
            if interactive { progress.start("  waiting for the lift", timeout: nil) }
        case .readerRestored(let what):
            out.line("Reader found weakened and restored before any tap: \(TerminalSafeText.neutralise(what)).")
        case .awaitingPlacement(let step): awaitingPlacement(step)
        case .answeredWhilePlacing(let step): answeredWhilePlacing(step)
        case .foreign(let t, let reason):
            progress.stop()
            out.line(
                "  \(TerminalSafeText.neutralise(ResponderWords.describe(t))) answered, not the phone (\(reason)): "
                    + "remove cards from the bench and from the phone's case.")
            out.line("  Position \(t.step + 1) is tapped again once the field is clear.")
        case .readerFault(let error, let step): readerFault(error, step: step)
        case .readerRecovered(let step):
            out.line("  The reader answers again" + (step.map { "; position \($0 + 1) is tapped again." } ?? "."))
        case .position(let step, let total, let probe, let attempt):
            position(step: step, total: total, probe: probe, attempt: attempt)
        case .waitingForTap(let seconds): waitingForTap(seconds)
        case .tap(let t): tapped(t)
        case .undone(let t):
            progress.stop()
            map.undo(t)
            out.line("  undone: position \(t.step + 1) (\(t.result.rawValue))")
        case .waitingForLift:
            out.line("  lift the phone off the reader")
            if interactive { progress.start("  waiting for the lift", timeout: nil) }
        case .lifted:
            progress.stop()
            if interactive { out.line("  lifted") }
        case .readerLost(let error):
            progress.stop()
            out.line("  READER LOST: \(error.message) Nothing was recorded at this position.")
            out.line("  The run pauses until the reader is back: reconnect it.")
        case .finished(let s, let score): finished(s, score)
        case .suspended(let s, let reason):
            progress.stop()
            saved(s, reason)
        }
    }

    private func readerFault(_ error: ReaderError, step: Int?) {
        progress.stop()
        context.output.line(
            step.map { "  READER FAULT at position \($0 + 1): \(error.message) Nothing was recorded here." }
                ?? "  READER FAULT after the tap: \(error.message) The tap is kept.")
        context.output.line("  The run pauses until the reader answers again\(error.hint.map { "; " + $0 } ?? ".")")
    }

    private func saved(_ s: SessionRecord, _ reason: String) {
        context.errors.line(
            "Session \(s.id) saved (\(reason)); resume with: "
                + ResumeHint.command(sessionID: s.id, databasePath: databasePath, invocation))
    }

    /// The session's header: the model and its prediction, and how to prepare the phone.
    private func started(_ s: SessionRecord, resumed: Int) {
        let out = context.output
        out.line(resumed > 0 ? "Resuming session \(s.id) (\(resumed) taps recorded)" : "Session \(s.id)")
        let badge = ConfidenceBadge(useColor: useColor).render(s.confidence, stale: s.stale)
        out.line(
            "\(TerminalSafeText.neutralise(s.displayName ?? s.modelInput)) (\(s.lookupKey))  \(badge)  "
                + "source \(s.source.rawValue)  reader \(TerminalSafeText.neutralise(s.reader.description))")
        if s.simulated {
            out.line(
                "SIMULATED reader (virtual bench or --reader sim): this session is for demos and studies, never bench evidence."
            )
        }
        if interactive, let zone = s.predicted {
            let drawing = SilhouetteDrawing(aspectRatio: s.aspectRatio, zone: zone, zoneStyle: s.stale ? .stale : .approximate)
            for line in TerminalSilhouetteRenderer(rows: 12, useColor: useColor).render(drawing) { out.line("  " + line) }
        }
        if let focus = s.planFocus { out.line(Self.learning(focus, bodyHeightMm: s.bodyHeightMm, aspectRatio: s.aspectRatio)) }
        out.line(s.mode == .tag ? Self.tagPreparation(s) : strings.string(preparationKey(s)))
        if let resolutionHint { out.line(resolutionHint) }
        out.line(positionWords.orientation)
    }

    /// Where to put the phone now, in millimetres from its edges, and on the live map.
    private func position(step: Int, total: Int?, probe: Probe, attempt: Int) {
        let out = context.output
        progress.stop()
        if isIPhone, map.reminderDue(every: .seconds(45)) {
            out.line(
                "  iPhone: present the card again now (Wallet stops after about a minute). If it was not presenting,"
                    + " press r to tap this position again instead of recording a MISS.")
        }
        // "3/18" for a fixed plan; an adaptive one states its range, the likely end first,
        // until the run has passed it (then only the bound is true).
        var count = total.map { "\(step + 1)/\($0)" } ?? "\(step + 1)"
        if total == nil, let most = maximumPositions {
            let likely = expectedPositions.flatMap { step + 1 <= $0 ? $0 : nil }
            count += likely.map { " of \($0)\u{2013}\(most) (\($0) if the prediction is right)" } ?? " of at most \(most)"
        }
        // Nobody watches an unattended run: it says its pace and when it will end.
        if !keysAvailable, let last = total ?? maximumPositions {
            pace.began(step)
            if let words = pace.words(remaining: max(0, last - step - 1), upTo: total == nil) { count += " (\(words))" }
        }
        let repeatText = attempt > 0 ? " (repeat \(attempt + 1))" : ""
        let height = probe.isAtTapHeight ? "" : ", \(OptionValue.format(probe.heightMm)) mm above the back"
        let words = positionWords.words(probe) + height
        let again = map.firstNamed(words, at: step + 1).map { " (the same place as position \($0): tapped again)" } ?? ""
        out.line("Position \(count)\(repeatText): \(words)\(again)")
        if interactive {
            let drawing = SilhouetteDrawing(
                aspectRatio: aspectRatio, zone: predicted, highlight: highlight(probe), marks: map.marks)
            for line in TerminalSilhouetteRenderer(rows: 10, useColor: useColor).render(drawing) { out.line("  " + line) }
        }
    }

    /// The operator places the phone, then says so: nothing is timed before that.
    private func awaitingPlacement(_ step: Int) {
        if tagMode {
            context.output.line(
                "  Place the phone: its reader reads the tag when it lies there (timed from its first contact). "
                    + (interactive ? "Press Enter or Space" : "Send an empty line")
                    + " if it lies still and nothing happens.")
            if interactive { progress.start("  waiting for the phone to read the tag", timeout: nil) }
            return
        }
        if interactive {
            context.output.line("  Place the phone, then press Enter or Space: the tap window runs, timed, from then.")
            if keysAvailable { context.output.line("  keys: r retry, s skip, u undo, q quit (no Enter needed)") }
            progress.start("  waiting for you to place the phone", timeout: nil)
        } else {
            context.output.line(
                "  Place the phone for position \(step + 1), then send an empty line (r, s, u or q and a newline:"
                    + " retry, skip, undo, quit). The tap window runs, timed, from then.")
        }
    }

    /// The phone answered as it was put down: the tap is the window after the confirmation.
    private func answeredWhilePlacing(_ step: Int) {
        progress.stop()
        let key = interactive ? "press Enter or Space" : "send an empty line"
        context.output.line(
            "  The phone answers at position \(step + 1). Once it lies still, \(key): the tap window runs, timed, from then.")
        if interactive { progress.start("  waiting for you to confirm the placement", timeout: nil) }
    }

    private func waitingForTap(_ seconds: Double) {
        progress.stop()
        if interactive {
            progress.start("  placed; waiting for the phone", timeout: seconds)
        } else {
            context.output.line(
                "  waiting up to \(ReaderCommands.format(seconds)) s for the phone..."
                    + (keysAvailable ? " (r retry, s skip, u undo, q quit, each then a newline)" : ""))
        }
    }

    /// One recorded tap: its result, coloured, and what the reader saw.
    private func tapped(_ t: TapRecord) {
        progress.stop()
        map.record(t)
        let detail: String =
            switch (t.result, t.tagProgress) {
            case (.hit, nil) where t.placement == .answeredBeforeConfirmation:
                "  \(t.technology ?? "") UID \(t.uid ?? ""), answered before the placement was confirmed (not timed)"
            case (.hit, nil): "  \(t.technology ?? "") UID \(t.uid ?? "") in \(format(t.latencyMs ?? 0, 1)) ms"
            case (.hit, _?) where t.placement == .answeredBeforeConfirmation:
                "  the phone read the whole NDEF message in \(format(t.latencyMs ?? 0, 1)) ms, before the placement was confirmed"
            case (.hit, _?): "  the phone read the whole NDEF message in \(format(t.latencyMs ?? 0, 1)) ms"
            case (.partial, let progress?): "  the phone started reading and stopped (got as far as \(progress.rawValue))"
            default: ""
            }
        let colour =
            switch t.result {
            case .hit: "1;32"
            case .partial, .foreign: "1;33"
            case .miss: "1;31"
            case .skipped: "2"
            }
        let graded = t.coupling.map { ", coupling \(format($0, 2)) (\(t.couplingTried ?? ""))" } ?? ""
        context.output.line(
            "  " + (useColor ? "\u{1B}[\(colour)m\(t.result.rawValue)\u{1B}[0m" : t.result.rawValue) + detail + graded)
    }

    private func finished(_ s: SessionRecord, _ score: SessionScore) {
        let out = context.output
        // The verdict counts positions on the back; a session with layers above it says so,
        // so its figure is not read as the session's taps (`sessions`, `show`).
        let layered = s.plannedProbes.contains { !$0.isAtTapHeight }
        out.line(
            "Verdict: \(score.verdict.rawValue)  hits \(score.hits)/\(score.taps)"
                + (layered ? " positions on the back" : "") + (score.skipped > 0 ? ", \(score.skipped) skipped" : ""))
        out.line(VerdictWords.sentence(score, bodyHeightMm: s.bodyHeightMm))
        if let m = score.measured {
            out.line(
                "Measured zone: x \(format(m.x)) y \(format(m.y)) w \(format(m.width)) h \(format(m.height))"
                    + (score.openEdgesWords.map { " (\($0))" } ?? ""))
        }
        if score.verdict == .noField { out.line(strings.string(preparationKey(s))) }
        out.line("Saved as \(s.id) in \(databasePath).")
    }

    /// Tag mode: the phone reads by itself; what the operator does for the phone at hand.
    static func tagPreparation(_ s: SessionRecord) -> String {
        let common = "Tag mode: the bench reader acts as an NFC tag and the phone's own reader reads it; nothing to install."
        switch platform(s) {
        case .iOS:
            return common + " iPhone: screen on and unlocked, no app open (iPhone XS and later read tags in the background)."
        case .android:
            return common + " Android: NFC on (Settings, Connected devices), screen on and unlocked."
        case .unknown:
            return common + " iPhone: screen on and unlocked, no app. Android: NFC on, screen unlocked."
        }
    }

    func preparationKey(_ s: SessionRecord) -> String {
        switch Self.platform(s) {
        case .iOS: "nfc_bench.prepare.iphone"
        case .android: "nfc_bench.prepare.android"
        case .unknown: "nfc_bench.prepare.unknown"
        }
    }

    /// The phone's platform, from the maker `NFCLocatorCore` infers for the session's model.
    static func platform(_ s: SessionRecord) -> PhonePlatform {
        PhonePlatform(modelIdentifier: s.lookupKey)
    }

    func highlight(_ p: Probe) -> NormalizedRect? {
        let (w, h) = cells.map { (1 / Double($0.columns), 1 / Double($0.rows)) } ?? (0.12, 0.06)
        let x = max(0, min(1 - w, p.x - w / 2)), y = max(0, min(1 - h, p.y - h / 2))
        return try? NormalizedRect(x: x, y: y, width: w, height: h)
    }

    func format(_ v: Double, _ digits: Int = 2) -> String { FixedPoint.format(v, digits) }

    static func counts(_ summary: TapSummary) -> [(String, JSONValue)] { SessionJSON.counts(summary) }

    static func summary(
        _ s: SessionRecord, score: SessionScore?, taps: TapSummary, databasePath: String, figures: SessionScore? = nil
    ) -> JSONValue {
        SessionJSON.summary(s, score: score, taps: taps, databasePath: databasePath, figures: figures)
    }

    /// "Plan learns from 3 earlier sessions: spare taps go to the least certain edges,
    /// top ±6 mm, left ±4 mm, ...", widest first.
    static func learning(_ focus: PlanFocus, bodyHeightMm: Double?, aspectRatio: Double) -> String {
        let widths = ZoneEdge.allCases.map { edge -> (ZoneEdge, Double) in
            let e = focus.edges[edge]!
            return (edge, (e.high - e.low) / 2 * (edge == .left || edge == .right ? aspectRatio : 1))
        }.sorted { $0.1 > $1.1 }
        let words = widths.map { edge, half in
            bodyHeightMm.map { "\(edge.rawValue) ±\(String(format: "%.0f", half * $0)) mm" }
                ?? "\(edge.rawValue) ±\(String(format: "%.3f", half)) of the height"
        }
        let sessions = focus.sessions == 1 ? "1 earlier session" : "\(focus.sessions) earlier sessions"
        return "Plan learns from \(sessions): spare taps go to the least certain edges, " + words.joined(separator: ", ") + "."
    }
}

/// What the printer remembers of the run: the taps so far as marks on the silhouette, one
/// per position (a hit if any attempt there read), the position each place was first
/// named at (a revisit says so), and when the last reminder was given. Events arrive one
/// at a time, but the printer is shared with the signal path, so the state sits behind a lock.
final class LiveMap: Sendable {
    private struct State {
        var marks: [Int: SilhouetteDrawing.Mark] = [:]
        var hits: Set<Int> = []
        var placesNamed: [String: Int] = [:]
        var lastReminder: ContinuousClock.Instant?
    }
    private let state = Mutex(State())

    var marks: [SilhouetteDrawing.Mark] { state.withLock { s in s.marks.keys.sorted().map { s.marks[$0]! } } }

    func record(_ t: TapRecord) {
        state.withLock { s in
            if t.result == .hit { s.hits.insert(t.step) }
            // A full read outranks a partial one, which outranks a miss; a FOREIGN answer
            // marks a position only while nothing else has.
            let previous = s.marks[t.step]?.kind
            let kind: SilhouetteDrawing.MarkKind =
                if s.hits.contains(t.step) { .hit } else if t.result == .partial || previous == .partial {
                    .partial
                } else if t.result == .foreign { previous ?? .foreign } else { t.result == .skipped ? .skipped : .miss }
            s.marks[t.step] = .init(x: t.probeX, y: t.probeY, kind: kind)
        }
    }

    /// The taps a resumed session already holds, in the order they were recorded.
    func seed(_ taps: [TapRecord]) {
        for t in taps { record(t) }
    }

    func undo(_ t: TapRecord) {
        state.withLock { s in
            s.marks[t.step] = nil
            s.hits.remove(t.step)
        }
    }

    /// The earlier position with these words, if another one had them; records this one.
    func firstNamed(_ words: String, at position: Int) -> Int? {
        state.withLock { s in
            if let earlier = s.placesNamed[words], earlier != position { return earlier }
            s.placesNamed[words] = position
            return nil
        }
    }

    /// True at most once per `interval`, and the first time it is asked.
    func reminderDue(every interval: Duration) -> Bool {
        state.withLock { s in
            let now = ContinuousClock.now
            guard s.lastReminder.map({ now - $0 >= interval }) ?? true else { return false }
            s.lastReminder = now
            return true
        }
    }
}
