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
        public enum Outcome: String, Sendable { case hit = "HIT", miss = "MISS", skipped = "SKIPPED" }
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
    }

    public let session: SessionRecord
    public let positions: [Position]
    public let score: SessionScore
    public let body: BodyMillimetres?

    public init(_ session: SessionRecord, taps: [TapRecord]) {
        self.session = session
        body = BodyMillimetres(session)
        let strategy = ProbePlans.make(
            session.plan, around: session.predicted, aspectRatio: session.aspectRatio, pass: session.planPass,
            focus: session.planFocus)
        var positions: [Position] = []
        var index = 0
        while index < taps.count {
            var end = index
            while end < taps.count, taps[end].step == taps[index].step { end += 1 }
            let attempts = taps[index..<end]
            let first = attempts[attempts.startIndex]
            let tapped = attempts.filter { $0.result != .skipped }
            let outcome: Position.Outcome =
                tapped.isEmpty ? .skipped : tapped.contains { $0.result.read } ? .hit : .miss
            positions.append(
                Position(
                    number: positions.count + 1, probe: first.probe, outcome: outcome, attempts: tapped.count,
                    latencyMs: tapped.first { $0.result.read }?.latencyMs, insidePredicted: first.insidePredicted,
                    evidence: session.predicted.map {
                        ZoneEvidence.band(of: first.probe, in: $0, aspectRatio: session.aspectRatio)
                    },
                    firstTappedAt: first.timestamp))
            index = end
        }
        self.positions = positions
        // The verdict's evidence is the positions themselves: a position hit if any of its
        // attempts read, and skipped positions are neither hits nor misses.
        let tapped = positions.filter { $0.outcome != .skipped }
        score = SessionScore(
            predicted: session.predicted, history: tapped.map { ($0.probe, $0.outcome == .hit) },
            skipped: positions.count - tapped.count, strategy: strategy, aspectRatio: session.aspectRatio)
    }

    /// Whether the position's result contradicts the prediction: a miss in the zone's
    /// core, or a hit far outside it. Edge and near taps say nothing either way.
    public func contradicts(_ p: Position) -> Bool {
        (p.evidence == .core && p.outcome == .miss) || (p.evidence == .far && p.outcome == .hit)
    }

    /// The verdict in words, with direction and millimetres when it is SHIFTED.
    public var verdictSentence: String { VerdictWords.sentence(score, bodyHeightMm: session.bodyHeightMm) }

    /// Marketing name and identifier: "Galaxy S24 (SM-S921B)".
    public var name: String { Self.displayName(session) }

    static func displayName(_ s: SessionRecord) -> String {
        guard let display = s.displayName, !display.isEmpty, display != s.modelInput else { return s.modelInput }
        return "\(display) (\(s.modelInput))"
    }

    /// The silhouette with predicted and measured zones and every position, numbered.
    public var drawing: SilhouetteDrawing {
        SilhouetteDrawing(
            aspectRatio: session.aspectRatio, zone: session.predicted, zoneStyle: session.stale ? .stale : .approximate,
            marks: positions.map {
                SilhouetteDrawing.Mark(
                    x: $0.probe.x, y: $0.probe.y,
                    kind: $0.outcome == .hit ? .hit : $0.outcome == .miss ? .miss : .skipped, label: String($0.number))
            }, measured: score.measured)
    }
}
