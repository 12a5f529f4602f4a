import Foundation

/// Taps pooled at one reader position: how often the phone answered there.
public struct PositionTally: Sendable, Hashable {
    public let x: Double
    public let y: Double
    public var hits: Int
    public var taps: Int

    public init(x: Double, y: Double, hits: Int, taps: Int) {
        precondition(taps > 0 && (0...taps).contains(hits), "a tally needs taps, and no more hits than taps")
        self.x = x; self.y = y; self.hits = hits; self.taps = taps
    }

    public var rate: Double { Double(hits) / Double(taps) }
    /// 95% Wilson score interval of the read rate: honest at 0 of 3 or 3 of 3, where the
    /// plain rate would claim certainty.
    public var interval: ClosedRange<Double> { Wilson.interval(successes: hits, trials: taps) }

    /// Groups observations by position (to 1e-4 of the back, far below a finger's width).
    public static func pool(_ observations: [(x: Double, y: Double, hit: Bool)]) -> [PositionTally] {
        var counts: [[Int]: (hits: Int, taps: Int)] = [:]
        for o in observations {
            let key = [Int((o.x * 10_000).rounded()), Int((o.y * 10_000).rounded())]
            let c = counts[key] ?? (0, 0)
            counts[key] = (c.hits + (o.hit ? 1 : 0), c.taps + 1)
        }
        return counts.map { key, c in
            PositionTally(x: Double(key[0]) / 10_000, y: Double(key[1]) / 10_000, hits: c.hits, taps: c.taps)
        }.sorted { ($0.y, $0.x) < ($1.y, $1.x) }
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
