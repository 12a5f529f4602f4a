import Foundation
import NFCLocatorCore
import NFCPhysics

/// When bench evidence may publish or promote a coil (`catalog publish`, and `refine
/// --promote` where the sessions record their reader's antenna): the promotion policy's
/// conditions (docs/refine.md) asked of the coil, in millimetres, rather than of the read
/// region. Read regions of two readers differ by the readers' sizes
/// (docs/physics.md), so two benches that agree on the coil would look like a disagreement
/// there; on the coil they must agree.
///
/// All must hold:
/// 1. at least `minimumSessions` bench sessions on at least `minimumUnits` labelled units;
/// 2. the pooled fit bounds every figure (no open interval);
/// 3. precise: each figure's 95 % interval is at most `maximumEdgeUncertainty` body heights wide;
/// 4. stable: no session's own coil centre (fitted under the pooled fit's rung law, which
///    every graded tap of the phone informs) lies farther from the pooled centre, on either
///    axis, than the two 95 % half-widths facing each other combined in quadrature, widened
///    for the number of checks (Bonferroni: a family-wise false-alarm rate of 5 % over all
///    sessions and both axes). A session whose own fit leaves its centre open cannot say
///    where the coil is alone and is not checked.
public struct CoilPromotion: Sendable {
    public let policy: PromotionPolicy
    public let bodyWidthMm: Double
    public let bodyHeightMm: Double

    /// The conditions a coil did not meet, in words.
    public struct Unmet: Error, Sendable {
        public let reasons: [String]
    }

    public init(policy: PromotionPolicy, bodyWidthMm: Double, bodyHeightMm: Double) {
        self.policy = policy
        self.bodyWidthMm = bodyWidthMm
        self.bodyHeightMm = bodyHeightMm
    }

    /// The pooled coil when every condition holds, else what did not.
    /// `pooled`: the sessions' pooled fit when the caller has made it already (`refine`
    /// writes it), so it is not made twice.
    public func judge(_ sessions: [SessionEvidence], units: Int, pooled known: CoilEstimate? = nil)
        -> Result<CoilEstimate, Unmet>
    {
        var unmet: [String] = []
        if sessions.count < policy.minimumSessions {
            unmet.append("\(sessions.count) bench session(s), needs \(policy.minimumSessions)")
        }
        if units < policy.minimumUnits {
            unmet.append("\(units) labelled unit(s), needs \(policy.minimumUnits) (label them with run --unit)")
        }
        guard unmet.isEmpty else { return .failure(Unmet(reasons: unmet)) }
        let pooled: CoilEstimate
        var ownCentres: [(x: CoilEstimate.Interval, y: CoilEstimate.Interval)?]?
        if let known {
            pooled = known
        } else {
            switch fitWithCentres(sessions) {
            case .success(let fitted):
                pooled = fitted.estimate
                ownCentres = fitted.alongside
            case .failure(let why): return .failure(Unmet(reasons: [why.words]))
            }
        }
        let figures = [
            ("centre x", pooled.centreX), ("centre y", pooled.centreY), ("width", pooled.width), ("height", pooled.height),
        ]
        for (name, figure) in figures where figure.open {
            unmet.append("the taps do not bound the coil's \(name)")
        }
        let widest = policy.maximumEdgeUncertainty * bodyHeightMm
        for (name, figure) in figures where !figure.open && figure.high - figure.low > widest {
            unmet.append(
                "the coil's \(name) is known only to \(Self.mm(figure.high - figure.low)) mm, needs \(Self.mm(widest)) mm "
                    + "(\(policy.maximumEdgeUncertainty) body heights)")
        }
        if sessions.count > 1 {
            let widening = Self.bonferroniWidening(checks: 2 * sessions.count)
            let own =
                ownCentres
                ?? SessionCoil.sessionCentres(
                    sessions.map { ($0.session, $0.taps) }, bodyWidthMm: bodyWidthMm, bodyHeightMm: bodyHeightMm,
                    exponent: pooled.rungFieldExponent, from: pooled.rectangle)
            for (session, centre) in zip(sessions, own) {
                guard let centre, !centre.x.open, !centre.y.open else { continue }
                for (axis, mine, all) in [("x", centre.x, pooled.centreX), ("y", centre.y, pooled.centreY)] {
                    let below = mine.value < all.value
                    let allowed =
                        widening
                        * hypot(
                            below ? mine.high - mine.value : mine.value - mine.low,
                            below ? all.value - all.low : all.high - all.value)
                    let distance = abs(mine.value - all.value)
                    if distance > allowed {
                        unmet.append(
                            "session \(session.session.id) puts the coil's centre \(Self.mm(distance)) mm from the pooled "
                                + "one along \(axis), more than its uncertainty allows (\(Self.mm(allowed)) mm)")
                    }
                }
            }
        }
        return unmet.isEmpty ? .success(pooled) : .failure(Unmet(reasons: unmet))
    }

    /// The pooled fit and, beside its intervals, each session's own centre (condition 4),
    /// which needs only the pooled coil and rung law: the two were once made one after the
    /// other (issue 53, bench/publish).
    private func fitWithCentres(_ sessions: [SessionEvidence]) -> Result<
        (estimate: CoilEstimate, alongside: [(x: CoilEstimate.Interval, y: CoilEstimate.Interval)?]),
        SessionCoil.Unavailable
    > {
        let pairs = sessions.map { ($0.session, $0.taps) }
        let (width, height, checked) = (bodyWidthMm, bodyHeightMm, sessions.count > 1)
        return SessionCoil.pooled(pairs, bodyWidthMm: width, bodyHeightMm: height) { coil, exponent in
            guard checked else { return [] }
            return SessionCoil.sessionCentres(pairs, bodyWidthMm: width, bodyHeightMm: height, exponent: exponent, from: coil)
        }
    }

    static func mm(_ v: Double) -> String { String(format: "%.1f", v) }

    /// How much wider than a 95 % half-width a bound must be for `checks` two-sided checks to
    /// raise a false alarm 5 % of the time together: z(1 - 0.025 / checks) / z(0.975).
    static func bonferroniWidening(checks: Int) -> Double {
        normalQuantile(1 - 0.025 / Double(max(1, checks))) / 1.959964
    }

    /// The standard normal quantile (Acklam's rational approximation, relative error < 1.2e-9
    /// with one Newton step on erfc).
    static func normalQuantile(_ p: Double) -> Double {
        precondition(p > 0 && p < 1, "a probability strictly between 0 and 1")
        let a = [
            -39.69683028665376, 220.9460984245205, -275.9285104469687, 138.3577518672690, -30.66479806614716, 2.506628277459239,
        ]
        let b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572]
        let c = [
            -0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968,
            2.938163982698783,
        ]
        let d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416]
        let low = 0.02425
        var x: Double
        if p < low {
            let q = sqrt(-2 * log(p))
            x =
                (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5])
                / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1)
        } else if p <= 1 - low {
            let q = p - 0.5, r = q * q
            x =
                (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q
                / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1)
        } else {
            let q = sqrt(-2 * log(1 - p))
            x =
                -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5])
                / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1)
        }
        let e = 0.5 * erfc(-x / 2.0.squareRoot()) - p
        let u = e * (2 * Double.pi).squareRoot() * exp(x * x / 2)
        return x - u / (1 + x * u / 2)
    }
}

extension DeviceAntennaProfile {
    /// The back in millimetres as every coil fit reads a session's positions: the published
    /// height times the aspect ratio a session stores (`SessionCoil.estimate`), so `show`,
    /// `refine` and `catalog publish` place the same taps at the same millimetres even where
    /// a catalog's `bodyWidthMm` and `aspectRatio` disagree. `nil` without a published height.
    public var coilBodyMm: (width: Double, height: Double)? {
        bodyHeightMm.map { (width: $0 * aspectRatio, height: $0) }
    }
}
