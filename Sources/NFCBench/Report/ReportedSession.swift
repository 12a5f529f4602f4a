import Foundation
import NFCBenchRecords
import NFCLocatorCore

/// One session as a report tells it: its positions in plan order with what each gave,
/// the score recomputed from the stored taps, and the body's size for millimetres.
///
/// The score is recomputed rather than read from the session row, so a report of an
/// unfinished (resumable) session still says where the taps point, and every format
/// (HTML, SVG, JUnit, session CSV) tells the same numbers.
public struct ReportedSession: Sendable {
    /// One plan position: all its attempts, reduced to what the verdict uses.
    public struct Position: Sendable, Equatable {
        public enum Outcome: String, Sendable {
            case hit = "HIT", miss = "MISS", skipped = "SKIPPED"
            /// Tag mode: the phone began reading and never finished at this position. It
            /// counts as a read for the verdict (the field reached), and is shown as PARTIAL.
            case partial = "PARTIAL"
            /// Only something other than the phone answered here: no evidence either way.
            case foreign = "FOREIGN"

            /// Whether the phone's field reached the reader here.
            public var read: Bool { self == .hit || self == .partial }

            /// How a drawing marks it.
            public var markKind: SilhouetteDrawing.MarkKind {
                switch self {
                case .hit: .hit
                case .miss: .miss
                case .skipped: .skipped
                case .partial: .partial
                case .foreign: .foreign
                }
            }
        }
        /// 1-based, as the operator saw it.
        public let number: Int
        public let probe: Probe
        public let outcome: Outcome
        public let attempts: Int
        /// Time to detect at the first attempt that read.
        public let latencyMs: Double?
        public let insidePredicted: Bool
        /// Where the position stands relative to the prediction (`nil` without one): a
        /// miss in the core or a hit far outside contradicts it.
        public let evidence: ZoneEvidence.Band?
        public let firstTappedAt: Date
        /// Tag mode: how far the furthest read got, when no read here finished.
        public let partialProgress: TagProgress?
        /// Answers at this position from something other than the phone.
        public let foreignAnswers: Int
        /// The window length of the position's first observed attempt (a resume may change it).
        public let windowSeconds: Double?
        /// The first answer here came before the operator confirmed the placement.
        public let answeredBeforeConfirmation: Bool
        /// `run --coupling`: the strongest grade of the position's reads; `nil` ungraded.
        public var coupling: Double? = nil
    }

    public let session: SessionRecord
    public let positions: [Position]
    public let score: SessionScore
    public let body: BodyMillimetres?
    /// The session's audit trail (empty for sessions recorded before it was kept).
    public let events: [SessionEvent]
    /// Why the trail could not be read, when it could not (a damaged event row).
    public let eventsProblem: String?
    /// Graded taps whose grade is on another ladder than the standard one, per ladder
    /// name: counted as plain reads (`TapRecord.grade(on:)`), and said so in the report.
    public let gradesSetAside: [(ladder: String, taps: Int)]
    /// Kept for the coil fit, which only the reports that show it pay for (`coil()`).
    private let taps: [TapRecord]

    /// The coil the session's taps say under the physical model (`SessionCoil`): a fit of
    /// a tenth of a second or so, so computed when a report shows it, not for every export row.
    public func coil() -> Result<SessionCoil, SessionCoil.Unavailable> { SessionCoil.estimate(session, taps: taps) }

    /// The session's taps counted as every surface counts them, in total and per layer.
    public var tapSummary: TapSummary { TapSummary(taps) }

    public init(_ session: SessionRecord, taps: [TapRecord], events: [SessionEvent] = [], eventsProblem: String? = nil) {
        self.session = session
        self.taps = taps
        self.events = events
        self.eventsProblem = eventsProblem
        body = BodyMillimetres(session)
        let setAside = Dictionary(grouping: taps.filter { $0.gradeSetAside() }) { $0.couplingLadderName ?? "unnamed" }
        gradesSetAside = setAside.keys.sorted().map { ($0, setAside[$0]!.count) }
        let strategy = session.strategy
        var positions: [Position] = []
        var index = 0
        while index < taps.count {
            var end = index
            while end < taps.count, taps[end].step == taps[index].step { end += 1 }
            let attempts = taps[index..<end]
            let first = attempts[attempts.startIndex]
            let tapped = attempts.filter { $0.result != .skipped && $0.result != .foreign }
            let foreign = attempts.filter { $0.result == .foreign }.count
            let outcome: Position.Outcome =
                if tapped.contains(where: { $0.result == .hit }) {
                    .hit
                } else if tapped.contains(where: { $0.result == .partial }) { .partial } else if !tapped.isEmpty { .miss } else {
                    foreign > 0 ? .foreign : .skipped
                }
            let firstRead = tapped.first { $0.result.read }
            positions.append(
                Position(
                    number: positions.count + 1, probe: first.probe, outcome: outcome, attempts: tapped.count,
                    latencyMs: firstRead?.latencyMs, insidePredicted: first.insidePredicted,
                    evidence: session.predicted.map {
                        ZoneEvidence.band(of: first.probe, in: $0, aspectRatio: session.aspectRatio)
                    },
                    firstTappedAt: first.timestamp,
                    partialProgress: outcome == .partial ? Self.furthest(tapped.compactMap(\.tagProgress)) : nil,
                    foreignAnswers: foreign, windowSeconds: tapped.first?.windowSeconds,
                    answeredBeforeConfirmation: firstRead?.placement == .answeredBeforeConfirmation,
                    coupling: tapped.compactMap { $0.grade() }.max()))
            index = end
        }
        self.positions = positions
        // The verdict's evidence is the positions themselves: a position hit if any of its
        // attempts read, and skipped positions are neither hits nor misses.
        // Positions above the back (`--heights`) map the operating volume, not the zone.
        let tapped = positions.filter { $0.outcome != .skipped && $0.outcome != .foreign && $0.probe.isAtTapHeight }
        let skipped = positions.filter { $0.probe.isAtTapHeight && ($0.outcome == .skipped || $0.outcome == .foreign) }.count
        score = SessionScore(
            predicted: session.predicted, history: tapped.map { ($0.probe, $0.outcome.read) },
            skipped: skipped, grades: tapped.compactMap { p in p.coupling.map { (p.probe, $0) } }, strategy: strategy,
            aspectRatio: session.aspectRatio)
    }

    /// The tap windows the session used, shortest first: one unless a resume changed it.
    public var windowLengths: [Double] {
        let stored = Set(positions.compactMap(\.windowSeconds))
        return stored.isEmpty ? [session.tapTimeout] : stored.sorted()
    }

    /// Positions where reads began and stopped early (tag mode).
    public var partialPositions: [Position] { positions.filter { $0.outcome == .partial } }

    /// The furthest of several partial reads' progress.
    static func furthest(_ progress: [TagProgress]) -> TagProgress? {
        progress.max { TagProgress.allCases.firstIndex(of: $0)! < TagProgress.allCases.firstIndex(of: $1)! }
    }

    /// Whether the position's result contradicts the prediction: a miss in the zone's
    /// core, or a hit far outside it, on the back. Edge and near taps say nothing either
    /// way, and taps above the back (`--heights`) map the operating volume, which the
    /// verdict does not use (docs/refine.md).
    public func contradicts(_ p: Position) -> Bool {
        guard p.probe.isAtTapHeight else { return false }
        return (p.evidence == .core && p.outcome == .miss) || (p.evidence == .far && p.outcome.read)
    }

    /// Whether the verdict's decision rule took `p`'s contradiction in its stride: a
    /// CONFIRMED session allows a phone's occasional miss in the core (`allowedCoreMisses`),
    /// so such a position is a tolerated outlier, not a failed check (JUnit).
    public func toleratedByVerdict(_ p: Position) -> Bool {
        contradicts(p) && session.status == .completed && score.verdict == .confirmed
    }

    /// Where a position lies, with its height when it is above the back.
    public func placeWords(_ p: Position) -> String {
        let at =
            body.map { $0.words(p.probe) }
            ?? "x \(FixedPoint.format(p.probe.x, 3)), y \(FixedPoint.format(p.probe.y, 3)) of the back"
        return p.probe.isAtTapHeight ? at : at + ", \(FixedPoint.format(p.probe.heightMm, 1)) mm above the back"
    }

    /// The verdict in words, with direction and millimetres when it is SHIFTED.
    public var verdictSentence: String {
        let words = VerdictWords.sentence(score, bodyHeightMm: session.bodyHeightMm)
        let observed = positions.filter { $0.outcome != .skipped && $0.outcome != .foreign }.count
        return PartialReadWords.sentence(partial: partialPositions.count, of: observed).map { words + " " + $0 } ?? words
    }

    /// A zone in millimetres from the left and top edges where the body size is known,
    /// else in fractions of the back: the words the report and `show` use.
    public func zoneWords(_ r: NormalizedRect) -> String {
        guard let body else {
            return
                "x \(FixedPoint.format(r.x, 3))–\(FixedPoint.format(r.maxX, 3)), y \(FixedPoint.format(r.y, 3))–\(FixedPoint.format(r.maxY, 3)) of the back"
        }
        return
            "\(FixedPoint.format(r.x * body.width, 0))–\(FixedPoint.format(r.maxX * body.width, 0)) mm from the left edge, \(FixedPoint.format(r.y * body.height, 0))–\(FixedPoint.format(r.maxY * body.height, 0)) mm below the top edge"
    }

    /// Marketing name and identifier: "Galaxy S24 (SM-S921B)".
    public var name: String { Self.displayName(session) }

    static func displayName(_ s: SessionRecord) -> String {
        guard let display = s.displayName, !display.isEmpty, display != s.modelInput else { return s.modelInput }
        return "\(display) (\(s.modelInput))"
    }

    /// The silhouette with predicted and measured zones and every position, numbered,
    /// captioned with the model, unit, session and start in `clock`'s local time.
    public func drawing(clock: ReportClock) -> SilhouetteDrawing {
        var drawing = drawing
        drawing.caption = [
            name + (session.unit.map { ", unit " + $0 } ?? ""),
            "session \(session.id)" + (session.simulated ? ", SIMULATED" : ""),
            "started \(clock.local(session.startedAt))",
        ]
        return drawing
    }

    /// The silhouette with predicted and measured zones and every position, numbered.
    public var drawing: SilhouetteDrawing {
        var drawing = SilhouetteDrawing(
            aspectRatio: session.aspectRatio, zone: session.predicted, zoneStyle: session.stale ? .stale : .approximate,
            // Taps above the back have their own maps (`drawing(atHeightMm:)`).
            marks: positions.filter(\.probe.isAtTapHeight).map {
                SilhouetteDrawing.Mark(
                    x: $0.probe.x, y: $0.probe.y,
                    kind: $0.outcome.markKind, label: String($0.number))
            }, measured: score.measured)
        drawing.openSides = Set(score.openEdges.compactMap { SilhouetteDrawing.Side(rawValue: $0.rawValue) })
        return drawing
    }
}
