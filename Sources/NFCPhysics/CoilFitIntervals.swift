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
    /// refitted at every value, then bisecting the last step, and on binary taps across any
    /// valley to a second hill (`secondHill`); and whether the taps leave it open (the walk
    /// reached the parameter's limit still inside). The two ends share nothing, so they are
    /// found on cores of their own.
    func profileEnd(
        of index: Int, towards direction: Double, _ point: [Double], _ best: Double, exponent: Double, _ taps: Pooled
    ) -> (end: Double, open: Bool) {
        var reached = walkedEnd(of: index, towards: direction, from: point, point, best, exponent: exponent, taps)
        // Binary taps alone can leave a second hill beyond a valley (docs/physics.md): a coil
        // about half as tall explains 16 binary taps nearly as well as the true one. The
        // walk stops in the valley; the set of values the taps allow runs on across it, and
        // the interval is the whole of it. Graded taps have not shown one, and are not searched.
        guard !reached.open, !taps.isGraded else { return reached }
        while let hill = secondHill(of: index, towards: direction, beyond: reached.end, point, best, exponent: exponent, taps) {
            reached = walkedEnd(of: index, towards: direction, from: hill, point, best, exponent: exponent, taps)
            if reached.open { break }
        }
        return reached
    }

    /// A point beyond `end` (an interval's end) where the profile rises back above the
    /// cutoff, the fit there as its warm start; `nil` when none does. It looks 2, 4, 8, ...
    /// mm further, to the parameter's limit, each fit started from the best coil with the
    /// value held and thresholds that make the held coil's farthest read just read: another
    /// hill's coil couples differently from the best one.
    func secondHill(
        of index: Int, towards direction: Double, beyond end: Double, _ point: [Double], _ best: Double,
        exponent: Double, _ taps: Pooled
    ) -> [Double]? {
        let limits = range(of: index, point)
        var distance = 2.0
        while true {
            let candidate = min(max(end + direction * distance, limits.lowerBound), limits.upperBound)
            var held = point
            held[index] = candidate
            held = fittedAround(held, index)
            let coil = Array(held.prefix(4))
            let (ll, fitted) = profile(
                index, at: candidate, from: coil + startingThresholds(coil, taps), exponent: exponent, taps)
            if best - ll <= Self.profileDrop { return fitted }
            if candidate == limits.lowerBound || candidate == limits.upperBound { return nil }
            distance *= 2
        }
    }

    /// The walk of `profileEnd` from `start` (a fit inside the interval) outwards.
    func walkedEnd(
        of index: Int, towards direction: Double, from start: [Double], _ point: [Double], _ best: Double,
        exponent: Double, _ taps: Pooled
    ) -> (end: Double, open: Bool) {
        let limits = range(of: index, point)
        var inside = start[index], outside: Double? = nil
        var warm = start
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
