import Foundation

/// Maximises a function of a few variables by the Nelder-Mead simplex (Nelder and Mead,
/// The Computer Journal 7, 1965), with the standard coefficients.
///
/// The coil's likelihood has no useful gradient where its taps are binary, and only five
/// parameters: a simplex that needs values alone is the plain tool for it.
enum NelderMead {
    static func maximise(
        _ f: ([Double]) -> Double, from start: [Double], steps: [Double], tolerance: Double = 1e-7,
        maxEvaluations: Int = 3000
    ) -> (point: [Double], value: Double) {
        let n = start.count
        precondition(n >= 1 && steps.count == n, "one step per variable")
        var points = [start]
        for i in 0..<n {
            var p = start
            p[i] += steps[i]
            points.append(p)
        }
        var values = points.map(f)
        var evaluations = n + 1
        while evaluations < maxEvaluations {
            let order = values.indices.sorted { values[$0] > values[$1] }
            points = order.map { points[$0] }
            values = order.map { values[$0] }
            if abs(values[0] - values[n]) <= tolerance * (1 + abs(values[0])) && values[n].isFinite { break }
            var centroid = [Double](repeating: 0, count: n)
            for p in points.dropLast() { for i in 0..<n { centroid[i] += p[i] / Double(n) } }
            func along(_ t: Double) -> [Double] { (0..<n).map { centroid[$0] + t * (points[n][$0] - centroid[$0]) } }
            let reflected = along(-1), fr = f(reflected)
            evaluations += 1
            if fr > values[0] {
                let expanded = along(-2), fe = f(expanded)
                evaluations += 1
                (points[n], values[n]) = fe > fr ? (expanded, fe) : (reflected, fr)
            } else if fr > values[n - 1] {
                (points[n], values[n]) = (reflected, fr)
            } else {
                let contracted = fr > values[n] ? along(-0.5) : along(0.5)
                let fc = f(contracted)
                evaluations += 1
                if fc > max(fr, values[n]) {
                    (points[n], values[n]) = (contracted, fc)
                } else {
                    for j in 1...n {
                        points[j] = (0..<n).map { points[0][$0] + 0.5 * (points[j][$0] - points[0][$0]) }
                        values[j] = f(points[j])
                    }
                    evaluations += n
                }
            }
        }
        let best = values.indices.max { values[$0] < values[$1] }!
        return (points[best], values[best])
    }
}
