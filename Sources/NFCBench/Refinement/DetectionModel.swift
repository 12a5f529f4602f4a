import Foundation
import NFCBenchRecords
import NFCReaders

/// How the chance of a read falls off around a phone's coil, as the refinement assumes it.
///
/// Distances are in body heights, with x scaled by the aspect ratio, so an edge band is
/// the same millimetres along both axes. Inside the coil (beyond the soft band) a tap
/// reads with `sureRate`; far outside with `strayRate`; across the band of half-width
/// `softness`, centred `reach` outside the coil's edge, the chance ramps linearly. The
/// rates are not 0 and 1 so that one stray read or one missed tap only costs likelihood
/// instead of ruling a rectangle out.
public struct DetectionModel: Sendable, Hashable {
    /// How far outside the coil's edge the reader's centre still reads half the time.
    /// 0 (the default) makes the estimated zone the half-read boundary itself; a lab that
    /// has measured its reader against a known phone gives the reach to estimate the coil.
    public let reach: Double
    public let softness: Double
    public let sureRate: Double
    public let strayRate: Double
    /// How far a graded read's coupling may stray from what its depth predicts.
    public let gradeSpread: Double
    /// The coupling each grade stands for: the interval between the threshold of the
    /// weakest profile that read and that of the next, which did not (the ladder's model,
    /// docs/coupling.md). Index 0 is grade 0 (the default field only).
    let gradeLows: [Double]
    let gradeHighs: [Double]
    let ladder: CouplingLadder
    private let logSure: Double, logNotSure: Double, logStray: Double, logNotStray: Double

    public init(
        reach: Double = 0, softness: Double = 0.03, sureRate: Double = 0.97, strayRate: Double = 0.01,
        gradeSpread: Double = 0.05, ladder: CouplingLadder = .standard
    ) {
        precondition(reach >= 0 && softness > 0, "reach must be >= 0 and softness > 0")
        precondition(strayRate > 0 && strayRate < sureRate && sureRate < 1, "rates must satisfy 0 < stray < sure < 1")
        self.reach = reach
        self.softness = softness
        self.sureRate = sureRate
        self.strayRate = strayRate
        self.gradeSpread = gradeSpread
        self.ladder = ladder
        let thresholds = ladder.profiles.map(\.threshold).reversed().map { $0 }  // default first
        gradeLows = thresholds.indices.map { $0 == 0 ? -.infinity : thresholds[$0] }
        gradeHighs = thresholds.indices.map { $0 + 1 < thresholds.count ? thresholds[$0 + 1] : .infinity }
        logSure = log(sureRate); logNotSure = log(1 - sureRate)
        logStray = log(strayRate); logNotStray = log(1 - strayRate)
    }

    /// Where in the ramp from `strayRate` (0) to `sureRate` (1) a reader `d` inside the
    /// coil's edge (negative outside) sits.
    func ramp(_ d: Double) -> Double { min(max((d + reach + softness) / (2 * softness), 0), 1) }

    /// The chance that a tap `d` inside the coil's edge reads.
    func readChance(_ d: Double) -> Double { strayRate + (sureRate - strayRate) * ramp(d) }

    /// Log-likelihood of `hits` reads in `taps` at `signedDistance`. Off the band the
    /// chance is a constant, so the logarithms are taken once: the estimator calls this
    /// hundreds of thousands of times per fit.
    func logLikelihood(hits: Int, taps: Int, signedDistance d: Double) -> Double {
        let t = ramp(d)
        if t <= 0 { return Double(hits) * logStray + Double(taps - hits) * logNotStray }
        if t >= 1 { return Double(hits) * logSure + Double(taps - hits) * logNotSure }
        let p = strayRate + (sureRate - strayRate) * t
        return Double(hits) * log(p) + Double(taps - hits) * log(1 - p)
    }

    /// The ordinal model of coupling against distance (docs/coupling.md): a read `d`
    /// inside the coil's edge couples in proportion to its depth inside the area the reader
    /// reaches, from 0 at that area's edge (`reach` outside the coil) to 1 on the coil's
    /// centre line, `inradius` deep, give or take `gradeSpread`. A grade says the coupling
    /// lay in its interval of the ladder; its likelihood is the chance of that.
    func logLikelihood(grades: [Double], signedDistance d: Double, inradius: Double) -> Double {
        let expected = min(max((d + reach) / (inradius + reach), 0), 1)
        var sum = 0.0
        for g in grades {
            let k = ladder.rungsRead(coupling: g)
            let chance =
                Self.normalBelow((gradeHighs[k] - expected) / gradeSpread)
                - Self.normalBelow((gradeLows[k] - expected) / gradeSpread)
            sum += log(max(chance, 1e-9))
        }
        return sum
    }

    /// The standard normal distribution function.
    static func normalBelow(_ z: Double) -> Double {
        z == .infinity ? 1 : z == -.infinity ? 0 : 0.5 * erfc(-z / 2.squareRoot())
    }

}

/// A candidate coil as its four edges, in fractions of the back.
struct EdgeRect: Hashable {
    var left: Double
    var top: Double
    var right: Double
    var bottom: Double

    subscript(_ edge: ZoneEdge) -> Double {
        get {
            switch edge {
            case .left: left
            case .top: top
            case .right: right
            case .bottom: bottom
            }
        }
        set {
            switch edge {
            case .left: left = newValue
            case .top: top = newValue
            case .right: right = newValue
            case .bottom: bottom = newValue
            }
        }
    }

    /// Positive inside, negative outside, in body heights. The estimator's own copy of
    /// the geometry: the simulated phone (`SimulatedPhone`) is the world it is tested
    /// against and must not share code with the model that fits it.
    func signedDistance(x: Double, y: Double, aspectRatio: Double) -> Double {
        let dxOut = max(left - x, 0, x - right) * aspectRatio
        let dyOut = max(top - y, 0, y - bottom)
        if dxOut > 0 || dyOut > 0 { return -((dxOut * dxOut + dyOut * dyOut).squareRoot()) }
        return min(min(x - left, right - x) * aspectRatio, min(y - top, bottom - y))
    }
}
