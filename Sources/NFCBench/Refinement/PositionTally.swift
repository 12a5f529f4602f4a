import Foundation

/// Taps pooled at one reader position: how often the phone answered there.
public struct PositionTally: Sendable, Hashable {
    public let x: Double
    public let y: Double
    public var hits: Int
    public var taps: Int
    /// `run --coupling`: the graded reads here, each 0 (the default field only) to 1 (the
    /// weakest profile of the ladder).
    public var grades: [Double] = []

    public init(x: Double, y: Double, hits: Int, taps: Int) {
        precondition(taps > 0 && (0...taps).contains(hits), "a tally needs taps, and no more hits than taps")
        self.x = x; self.y = y; self.hits = hits; self.taps = taps
    }

    public var rate: Double { Double(hits) / Double(taps) }
    /// 95% Wilson score interval of the read rate: honest at 0 of 3 or 3 of 3, where the
    /// plain rate would claim certainty.
    public var interval: ClosedRange<Double> { Wilson.interval(successes: hits, trials: taps) }

    /// Groups observations by position (to 1e-4 of the back, far below a finger's width),
    /// with the grades of graded reads at the same positions.
    public static func pool(
        _ observations: [(x: Double, y: Double, hit: Bool)], grades: [(x: Double, y: Double, grade: Double)] = []
    ) -> [PositionTally] {
        func key(_ x: Double, _ y: Double) -> [Int] { [Int((x * 10_000).rounded()), Int((y * 10_000).rounded())] }
        var counts: [[Int]: (hits: Int, taps: Int)] = [:]
        for o in observations {
            let c = counts[key(o.x, o.y)] ?? (0, 0)
            counts[key(o.x, o.y)] = (c.hits + (o.hit ? 1 : 0), c.taps + 1)
        }
        var graded: [[Int]: [Double]] = [:]
        for g in grades where counts[key(g.x, g.y)] != nil { graded[key(g.x, g.y), default: []].append(g.grade) }
        return counts.map { key, c in
            var tally = PositionTally(x: Double(key[0]) / 10_000, y: Double(key[1]) / 10_000, hits: c.hits, taps: c.taps)
            tally.grades = graded[key] ?? []
            return tally
        }.sorted { ($0.y, $0.x) < ($1.y, $1.x) }
    }

    /// The same tallies without their grades: what the binary taps alone say.
    public static func binary(_ tallies: [PositionTally]) -> [PositionTally] {
        tallies.map {
            var t = $0; t.grades = []; return t
        }
    }
}

public enum Wilson {
    public static func interval(successes: Int, trials: Int, z: Double = 1.959964) -> ClosedRange<Double> {
        guard trials > 0 else { return 0...1 }
        let n = Double(trials), p = Double(successes) / n, z2 = z * z
        let centre = (p + z2 / (2 * n)) / (1 + z2 / n)
        let half = z / (1 + z2 / n) * (p * (1 - p) / n + z2 / (4 * n * n)).squareRoot()
        // Exact at the extremes: no rounding noise claims a read rate above 0 after 0 reads.
        return (successes == 0 ? 0 : max(0, centre - half))...(successes == trials ? 1 : min(1, centre + half))
    }
}
