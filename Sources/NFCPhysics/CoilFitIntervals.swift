import Foundation

/// The coil fit's 95 % intervals: profile likelihood, each figure held at a value and the
/// others refitted, until the fit is worse by chi-square(1)/2 (`CoilFit.profileDrop`).
extension CoilFit {
    /// The 95 % interval of a parameter from its two ends, found apart (`profileEnd`).
    static func interval(_ value: Double, below: (end: Double, open: Bool), above: (end: Double, open: Bool))
        -> CoilEstimate.Interval
    {
        CoilEstimate.Interval(
            value: value, low: min(below.end, value), high: max(above.end, value), open: below.open || above.open)
    }

    /// One end of parameter `index`'s interval (`direction` -1: below the estimate, +1:
    /// above), walking out from the estimate in doubling steps, the other parameters
    /// refitted at every value, then bisecting the last step; and whether the taps leave it
    /// open (the walk reached the parameter's limit still inside). The two ends share
    /// nothing, so they are found on cores of their own.
    func profileEnd(
        of index: Int, towards direction: Double, _ point: [Double], _ best: Double, exponent: Double, _ taps: Pooled
    ) -> (end: Double, open: Bool) {
        let limits = range(of: index, point)
        var inside = point[index], outside: Double? = nil
        var warm = point
        var step = 0.5
        while outside == nil {
            let candidate = direction < 0 ? max(limits.lowerBound, inside - step) : min(limits.upperBound, inside + step)
            let (ll, fitted) = profile(index, at: candidate, from: warm, exponent: exponent, taps)
            if best - ll > Self.profileDrop {
                outside = candidate
            } else {
                inside = candidate
                warm = fitted
                if candidate == limits.lowerBound || candidate == limits.upperBound { break }
                step *= 2
            }
        }
        guard let far = outside else { return (inside, true) }
        var (near, out) = (inside, far)
        for _ in 0..<5 {
            let middle = (near + out) / 2
            let (ll, fitted) = profile(index, at: middle, from: warm, exponent: exponent, taps)
            if best - ll > Self.profileDrop { out = middle } else { near = middle; warm = fitted }
        }
        return ((near + out) / 2, false)
    }

    /// The most likely fit with parameter `index` held at `value`.
    func profile(_ index: Int, at value: Double, from start: [Double], exponent: Double, _ taps: Pooled)
        -> (Double, [Double])
    {
        var held = start
        held[index] = value
        held = fittedAround(held, index)
        let free = (0..<taps.parameterCount).filter { $0 != index }
        let steps = taps.steps([1, 1, 1.5, 1.5], 0.2)
        let found = NelderMead.maximise(
            { v in
                var p = held
                for (k, i) in free.enumerated() { p[i] = v[k] }
                return logLikelihood(p, exponent: exponent, taps)
            }, from: free.map { held[$0] }, steps: free.map { steps[$0] }, maxEvaluations: 600)
        var fitted = held
        for (k, i) in free.enumerated() { fitted[i] = found.point[k] }
        return (found.value, fitted)
    }

    /// Where parameter `index` may go: anywhere a coil of the smallest size still fits (the
    /// other figures give way, `fittedAround`).
    func range(of index: Int, _ p: [Double]) -> ClosedRange<Double> {
        let half = Self.smallestCoilMm / 2
        switch index {
        case 0: return half...bodyWidthMm - half
        case 1: return half...bodyHeightMm - half
        case 2: return Self.smallestCoilMm...bodyWidthMm
        default: return Self.smallestCoilMm...bodyHeightMm
        }
    }

    /// The coil with parameter `index` held, the others moved just enough to keep it inside
    /// the body: a centre held near the border narrows the coil; a size held wide moves its
    /// centre in. Without this, a coil as wide as the body would pin its centre's interval
    /// to a point.
    func fittedAround(_ p: [Double], _ index: Int) -> [Double] {
        var q = p
        switch index {
        case 0: q[2] = min(q[2], 2 * min(q[0], bodyWidthMm - q[0]))
        case 1: q[3] = min(q[3], 2 * min(q[1], bodyHeightMm - q[1]))
        case 2: q[0] = min(max(q[0], q[2] / 2), bodyWidthMm - q[2] / 2)
        case 3: q[1] = min(max(q[1], q[3] / 2), bodyHeightMm - q[3] / 2)
        default: break
        }
        return q
    }
}
