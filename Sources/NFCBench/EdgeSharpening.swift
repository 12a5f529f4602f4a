import Foundation
import NFCBenchRecords

/// The taps a learning session spends once its edges are bounded: each goes to the edge
/// whose pooled interval is widest for the taps it already got (width / (1 + taps)), at
/// an offset around the pooled edge and a position along it that vary from tap to tap.
///
/// Offsets span the interval, so taps land in the reader's fall-off, where a read rate
/// says the most about where the edge is; the positions along the edge vary so a coil
/// that is not a perfect rectangle is averaged rather than sampled at one point.
struct EdgeSharpening {
    let focus: PlanFocus
    let aspectRatio: Double
    let inset: Double
    /// Avoided coordinates (the bounding column's x, the row's y): a sharpening tap never
    /// lands on a bounding line, so it cannot change what bounding measured.
    let avoid: (x: Double, y: Double)
    /// Offsets from the pooled edge, in half-intervals.
    static let offsets: [Double] = [-0.5, 0.5, 0, -1, 1]
    /// Positions along the edge, as fractions of the pooled extent between the other two edges.
    static let along: [Double] = [0.5, 0.3, 0.7, 0.4, 0.6]
    /// The narrowest half-interval sampled, in body heights: the reader's fall-off band.
    static let minimumHalfWidth = 0.015

    func width(_ edge: ZoneEdge) -> Double {
        let e = focus.edges[edge]!
        return (e.high - e.low) * (edge == .left || edge == .right ? aspectRatio : 1)
    }

    /// The `k`-th sharpening tap (from 0).
    func probe(_ k: Int) -> Probe {
        var counts: [ZoneEdge: Int] = [:]
        var chosen = ZoneEdge.left
        for _ in 0...k {
            var best = -1.0
            for edge in ZoneEdge.allCases {
                let score = width(edge) / Double(1 + counts[edge, default: 0])
                if score > best { best = score; chosen = edge }
            }
            counts[chosen, default: 0] += 1
        }
        let j = counts[chosen]! - 1
        let horizontal = chosen == .left || chosen == .right
        let e = focus.edges[chosen]!
        let half = max((e.high - e.low) / 2, Self.minimumHalfWidth / (horizontal ? aspectRatio : 1))
        let across = e.value + Self.offsets[j % Self.offsets.count] * half
        let (from, to) =
            horizontal
            ? (focus.edges[.top]!.value, focus.edges[.bottom]!.value) : (focus.edges[.left]!.value, focus.edges[.right]!.value)
        let along = from + (to - from) * Self.along[j % Self.along.count]
        var x = clamp(horizontal ? across : along), y = clamp(horizontal ? along : across)
        if x == avoid.x { x = AdaptivePlan.rounded(x < 0.5 ? x + 0.001 : x - 0.001) }
        if y == avoid.y { y = AdaptivePlan.rounded(y < 0.5 ? y + 0.001 : y - 0.001) }
        return Probe(x: x, y: y)
    }

    func clamp(_ v: Double) -> Double { AdaptivePlan.rounded(min(max(v, inset), 1 - inset)) }
}
