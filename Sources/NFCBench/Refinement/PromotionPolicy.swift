import NFCBenchRecords
import NFCLocatorCore

/// When bench evidence may mark a catalog entry verified (`refine --promote`).
///
/// All of these must hold (docs/refine.md):
/// 1. at least `minimumSessions` completed sessions;
/// 2. on at least `minimumUnits` distinct physical units, as labelled with `run --unit`
///    (sessions without a label count toward no unit: one phone tapped three times
///    says nothing about its siblings);
/// 3. stable: no session is explained significantly better by a rectangle of its own
///    than by the pooled one (likelihood-ratio deviance at most `maximumSessionDeviance`,
///    the 99% point of chi-square with 4 degrees of freedom: the rectangle's 4 edges);
/// 4. precise: every edge's 95% interval is at most `maximumEdgeUncertainty` body
///    heights wide.
public struct PromotionPolicy: Sendable, Hashable {
    public var minimumSessions: Int
    public var minimumUnits: Int
    public var maximumSessionDeviance: Double
    public var maximumEdgeUncertainty: Double

    public init(
        minimumSessions: Int = 3, minimumUnits: Int = 2, maximumSessionDeviance: Double = 13.28,
        maximumEdgeUncertainty: Double = 0.1
    ) {
        self.minimumSessions = minimumSessions
        self.minimumUnits = minimumUnits
        self.maximumSessionDeviance = maximumSessionDeviance
        self.maximumEdgeUncertainty = maximumEdgeUncertainty
    }

    public var summary: String {
        "at least \(minimumSessions) sessions on at least \(minimumUnits) labelled units; no session's deviance from the pooled "
            + "zone above \(maximumSessionDeviance); every edge's 95% interval <= \(maximumEdgeUncertainty) body heights"
    }

    /// Each unmet condition as a sentence with its figures; empty when the evidence passes.
    public func unmet(sessions: Int, units: Int, sessionDeviance: [Double], estimate: ZoneEstimate) -> [String] {
        var reasons: [String] = []
        if sessions < minimumSessions { reasons.append("\(sessions) session(s), needs \(minimumSessions)") }
        if units < minimumUnits {
            reasons.append("\(units) labelled unit(s), needs \(minimumUnits) (label them with run --unit)")
        }
        if let worst = sessionDeviance.max(), worst > maximumSessionDeviance {
            reasons.append(
                "a session disagrees with the others (deviance \(Self.format(worst)), at most \(maximumSessionDeviance))")
        }
        for edge in ZoneEdge.allCases {
            guard let e = estimate.edges[edge], e.widthInBodyHeights > maximumEdgeUncertainty else { continue }
            reasons.append(
                "\(edge.rawValue) edge known only to \(Self.format(e.widthInBodyHeights)) body heights, needs \(maximumEdgeUncertainty)"
            )
        }
        return reasons
    }

    static func format(_ v: Double) -> String { String((v * 100).rounded() / 100) }
}
