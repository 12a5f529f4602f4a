import NFCBenchRecords
import NFCBenchSeams
import NFCLocatorCore

/// How a session's taps compare with the prediction, and why.
///
/// The verdict rests on evidence the taps can actually give (`ZoneEvidence`):
/// - CONFIRMED: the predicted core reads (at most the misses a phone makes anyway),
///   nothing reads far outside it, and at least two positions around it stay silent;
/// - SHIFTED: something read, and the prediction is contradicted: the core stays silent
///   beyond chance, taps far outside it read, or (graded by `run --coupling`) a position
///   outside it couples more strongly than any inside it;
/// - NO_FIELD: no tap read, and taps inside *and* around the predicted zone were all
///   clean misses: the phone is not answering at all;
/// - INCONCLUSIVE otherwise, with the reason: too few taps, no prediction, or no tap
///   where it would tell. "No probe could see it" is never taken for "it isn't there".
public struct SessionScore: Sendable, Equatable {
    public typealias Verdict = SessionVerdict

    /// Positions tapped and not skipped.
    public let taps: Int
    public let hits: Int
    public let skipped: Int
    /// Whether the predicted centre (the probe nearest it, inside the zone) read; `nil`
    /// without a prediction or without a tap there.
    public let centreHit: Bool?
    public let measured: NormalizedRect?
    public let iou: Double?
    /// Distance between predicted and measured centres, in body heights.
    public let centreOffset: Double?
    /// Measured centre minus predicted centre, in body heights (x scaled by the aspect
    /// ratio; y grows downwards).
    public let shift: (dx: Double, dy: Double)?
    public let evidence: ZoneEvidence?
    public let verdict: Verdict
    /// Why, in one sentence for the technician.
    public let reason: String
    /// The verdict came from the tests on the coil fitted in millimetres (`CoilVerdict`, a
    /// `--plan coil` session that read), not from the tap rules.
    public let coilTested: Bool

    public static let minimumTaps = 3

    /// Edges of the measured zone that no tap bounded, in `ZoneEdge` order: a zone that
    /// reaches the back's border (the reads went to the border), or with no miss beyond it
    /// across the zone's span. The coil may reach further there; reports say so and draw
    /// those edges open.
    public let openEdges: [ZoneEdge]

    static func openEdges(of zone: NormalizedRect?, history: [(probe: Probe, hit: Bool)]) -> [ZoneEdge] {
        guard let m = zone else { return [] }
        let misses = history.filter { !$0.hit }.map(\.probe)
        let border = 0.005
        func across(_ p: Probe, vertical: Bool) -> Bool {
            vertical ? (p.y >= m.y && p.y <= m.maxY) : (p.x >= m.x && p.x <= m.maxX)
        }
        return ZoneEdge.allCases.filter { edge in
            switch edge {
            case .left: m.x <= border || !misses.contains { $0.x < m.x && across($0, vertical: true) }
            case .right: m.maxX >= 1 - border || !misses.contains { $0.x > m.maxX && across($0, vertical: true) }
            case .top: m.y <= border || !misses.contains { $0.y < m.y && across($0, vertical: false) }
            case .bottom: m.maxY >= 1 - border || !misses.contains { $0.y > m.maxY && across($0, vertical: false) }
            }
        }
    }

    /// "open at the top and left: no tap bounded them", or `nil` when every edge is bounded.
    public var openEdgesWords: String? {
        guard !openEdges.isEmpty else { return nil }
        let names = openEdges.map(\.rawValue)
        let list = names.count == 1 ? names[0] : names.dropLast().joined(separator: ", ") + " and " + names.last!
        return "open at the \(list): no tap bounded \(names.count == 1 ? "it" : "them"), the coil may reach further"
    }

    /// `history`: every position tapped with whether it read; `skipped`: positions the
    /// operator skipped, which are neither hits nor misses; `grades`: the positions a
    /// `run --coupling` graded, each with its strongest grade.
    public init(
        predicted: NormalizedRect?, history: [(probe: Probe, hit: Bool)], skipped: Int = 0,
        grades: [(probe: Probe, coupling: Double)] = [], strategy: any ProbeStrategy, aspectRatio: Double
    ) {
        taps = history.count
        hits = history.filter(\.hit).count
        self.skipped = skipped
        measured = strategy.measuredZone(from: history, grades: grades)
        openEdges = Self.openEdges(of: measured, history: history)
        if let predicted,
            let nearest = history.min(by: {
                Self.distance($0.probe, predicted, aspectRatio) < Self.distance($1.probe, predicted, aspectRatio)
            }), predicted.contains(x: nearest.probe.x, y: nearest.probe.y)
        {
            centreHit = nearest.hit
        } else {
            centreHit = nil
        }
        if let predicted, let measured {
            iou = predicted.iou(with: measured)
            centreOffset = predicted.centreDistance(to: measured, aspectRatio: aspectRatio)
            shift = ((measured.midX - predicted.midX) * aspectRatio, measured.midY - predicted.midY)
        } else {
            iou = nil
            centreOffset = nil
            shift = nil
        }
        evidence = predicted.map { ZoneEvidence(predicted: $0, taps: history, grades: grades, aspectRatio: aspectRatio) }
        if taps >= Self.minimumTaps, hits > 0, let predicted,
            let judged = strategy.coilJudgement(predicted: predicted, history: history, grades: grades)
        {
            (verdict, reason) = judged
            coilTested = true
        } else {
            (verdict, reason) = Self.judge(taps: taps, hits: hits, evidence: evidence)
            coilTested = false
        }
    }

    static func judge(taps: Int, hits: Int, evidence: ZoneEvidence?) -> (Verdict, String) {
        guard taps >= minimumTaps else {
            return (.inconclusive, "only \(taps) position(s) tapped; at least \(minimumTaps) are needed")
        }
        guard let e = evidence else {
            return (.inconclusive, "no predicted zone to compare with")
        }
        if hits == 0 {
            guard e.insideTaps >= ZoneEvidence.neededInside, e.coreTaps >= 1, e.outsideTaps >= ZoneEvidence.neededAround else {
                return (
                    .inconclusive, "nothing read, but too few positions inside and around the predicted zone were tapped to tell"
                )
            }
            return (.noField, "nothing read at \(e.insideTaps) positions inside the predicted zone or \(e.outsideTaps) around it")
        }
        if e.farHits > 0 {
            return (.shifted, "\(e.farHits) position(s) well outside the predicted zone read")
        }
        if e.coreTaps > 0, e.coreMisses > e.allowedCoreMisses {
            return (.shifted, "\(e.coreMisses) of \(e.coreTaps) positions in the middle of the predicted zone did not read")
        }
        if e.strongerOutside, let inside = e.strongestInside, let outside = e.strongestOutside {
            return (
                .shifted,
                "a position outside the predicted zone couples more strongly (grade \(Self.grade(outside))) than any inside it "
                    + "(grade \(Self.grade(inside))): the field is strongest outside the prediction"
            )
        }
        guard e.coreHits > 0 else {
            return (.inconclusive, "no position in the middle of the predicted zone read or was tapped")
        }
        guard e.outsideMisses >= ZoneEvidence.neededAround else {
            return (.inconclusive, "too few silent positions around the predicted zone to rule out a larger or shifted antenna")
        }
        return (.confirmed, "the predicted zone reads and nothing well outside it does")
    }

    /// A coupling grade as reports print it: two decimals.
    static func grade(_ coupling: Double) -> String { FixedPoint.format(coupling, 2) }

    public static func == (a: SessionScore, b: SessionScore) -> Bool {
        a.taps == b.taps && a.hits == b.hits && a.skipped == b.skipped && a.centreHit == b.centreHit
            && a.measured == b.measured && a.iou == b.iou && a.centreOffset == b.centreOffset && a.evidence == b.evidence
            && a.verdict == b.verdict && a.reason == b.reason && a.coilTested == b.coilTested
    }

    static func distance(_ p: Probe, _ zone: NormalizedRect, _ aspect: Double) -> Double {
        let dx = (p.x - zone.midX) * aspect, dy = p.y - zone.midY
        return dx * dx + dy * dy
    }
}
