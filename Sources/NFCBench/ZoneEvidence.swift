import NFCBenchRecords
import NFCLocatorCore

/// Where each tap stands relative to the predicted zone, and what it says.
///
/// A reader reads a little beyond a coil's edge and not quite to it (its reach, the
/// coil's fall-off), so only taps clear of the edge are evidence either way:
/// - the *core*: inside the zone and at least `coreMargin` body heights from its edge
///   (the centre always counts, however small the zone); a right prediction reads there;
/// - *far outside*: more than `farMargin` body heights from the zone; a right prediction
///   stays silent there;
/// - the band between says nothing about the prediction.
public struct ZoneEvidence: Sendable, Equatable {
    /// Body heights inside the edge before a tap is core evidence: the simulated reader's
    /// half-read boundary sits 0.02 outside the coil with a 0.03 ramp, so 0.03 inside
    /// reads surely; an ACR122U over a phone behaves alike.
    public static let coreMargin = 0.03
    /// Body heights outside the edge beyond which nothing should read (about 12 mm on a
    /// 150 mm phone: twice the reach a PN533 shows with a phone on its antenna).
    public static let farMargin = 0.08

    /// Silent positions around the zone that CONFIRMED needs: they rule out a larger or
    /// shifted antenna. NO_FIELD needs as many taps around it, and as many inside.
    public static let neededAround = 2
    public static let neededInside = 2

    public var coreTaps = 0
    public var coreHits = 0
    /// Inside the zone, all of it (core and the inner edge band).
    public var insideTaps = 0
    public var insideHits = 0
    /// Outside, within `farMargin` of the edge: a reader may still reach the coil from there.
    public var nearTaps = 0
    public var nearHits = 0
    public var farTaps = 0
    public var farHits = 0
    /// `run --coupling`: the strongest grade among the graded positions inside the zone
    /// (core and inner edge) and outside it; `nil` where none was graded.
    public var strongestInside: Double?
    public var strongestOutside: Double?

    /// How much more strongly a position outside the zone must couple than every graded
    /// position inside it to contradict the prediction: a third of the ladder, four rungs of
    /// the standard one. A rung or two is the measurement's own scatter (a phone right at a
    /// profile's threshold answers one round and not the next, and the rungs near the
    /// default are close); a third of the ladder is a weaker field reaching the phone
    /// outside the zone and not inside it, which a coil centred inside cannot do.
    public static let couplingMargin = 1.0 / 3

    /// Where one position stands: in the core, in the inner edge band, near outside, or
    /// far outside the predicted zone.
    public enum Band: String, Sendable {
        case core, edge, near, far

        /// The band in words, for reports.
        public var words: String {
            switch self {
            case .core: "inside the predicted zone"
            case .edge: "at the predicted zone's inner edge"
            case .near: "just outside the predicted zone"
            case .far: "well outside the predicted zone"
            }
        }
    }

    public static func band(of p: Probe, in zone: NormalizedRect, aspectRatio: Double) -> Band {
        let d = signedDistance(p, to: zone, aspectRatio: aspectRatio)
        if d >= min(coreMargin, halfSize(zone, aspectRatio)) || (d >= 0 && isCentre(p, of: zone)) { return .core }
        if d >= 0 { return .edge }
        return d >= -farMargin ? .near : .far
    }

    /// `grades`: the graded positions of a `run --coupling` session, each with its
    /// strongest grade (`TapRecord.coupling`); empty for an ungraded session.
    public init(
        predicted: NormalizedRect, taps: [(probe: Probe, hit: Bool)], grades: [(probe: Probe, coupling: Double)] = [],
        aspectRatio: Double
    ) {
        for (probe, coupling) in grades where coupling.isFinite {
            switch Self.band(of: probe, in: predicted, aspectRatio: aspectRatio) {
            case .core, .edge: strongestInside = max(strongestInside ?? coupling, coupling)
            case .near, .far: strongestOutside = max(strongestOutside ?? coupling, coupling)
            }
        }
        for (probe, hit) in taps {
            let band = Self.band(of: probe, in: predicted, aspectRatio: aspectRatio)
            switch band {
            case .core, .edge:
                insideTaps += 1
                if hit { insideHits += 1 }
                if band == .core {
                    coreTaps += 1
                    if hit { coreHits += 1 }
                }
            case .near:
                nearTaps += 1
                if hit { nearHits += 1 }
            case .far:
                farTaps += 1
                if hit { farHits += 1 }
            }
        }
    }

    /// Misses in the core that a right prediction can explain: phones miss a tap now and
    /// then even squarely over the coil (the simulated one 3% of the time). One is
    /// allowed, and one in five beyond five core taps.
    public var allowedCoreMisses: Int { max(1, coreTaps / 5) }
    public var coreMisses: Int { coreTaps - coreHits }
    public var outsideTaps: Int { nearTaps + farTaps }
    /// Taps outside the zone that stayed silent: the plan looked around and found nothing.
    public var outsideMisses: Int { outsideTaps - nearHits - farHits }

    /// A graded position outside the zone couples more strongly, by `couplingMargin` or
    /// more, than every graded position inside it: the field is strongest outside the
    /// prediction, so the coil's centre is not where it was predicted. `false` when
    /// either side has no grade (an ungraded session, or no graded read inside).
    public var strongerOutside: Bool {
        guard let inside = strongestInside, let outside = strongestOutside else { return false }
        return outside - inside >= Self.couplingMargin - 1e-9
    }

    /// Positive inside the zone: the distance to its nearest edge; negative outside: the
    /// distance to it. In body heights (x scaled by the aspect ratio).
    public static func signedDistance(_ p: Probe, to zone: NormalizedRect, aspectRatio: Double) -> Double {
        let dxOut = max(zone.x - p.x, 0, p.x - zone.maxX) * aspectRatio
        let dyOut = max(zone.y - p.y, 0, p.y - zone.maxY)
        if dxOut > 0 || dyOut > 0 { return -((dxOut * dxOut + dyOut * dyOut).squareRoot()) }
        return min(min(p.x - zone.x, zone.maxX - p.x) * aspectRatio, min(p.y - zone.y, zone.maxY - p.y))
    }

    /// Half the zone's smaller side, in body heights: the core of a small zone is its middle.
    static func halfSize(_ zone: NormalizedRect, _ aspectRatio: Double) -> Double {
        min(zone.width * aspectRatio, zone.height) / 2 * 0.5
    }

    static func isCentre(_ p: Probe, of zone: NormalizedRect) -> Bool {
        abs(p.x - zone.midX) < 1e-6 && abs(p.y - zone.midY) < 1e-6
    }
}
