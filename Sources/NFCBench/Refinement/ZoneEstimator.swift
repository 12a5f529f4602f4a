import Foundation
import NFCBenchRecords
import NFCLocatorCore

/// The zone the taps say, with each edge's uncertainty.
public struct ZoneEstimate: Sendable, Hashable {
    public struct Edge: Sendable, Hashable {
        public let value: Double
        /// 95% profile-likelihood interval: the positions this edge may take, the other
        /// three held at their estimates, before the fit gets worse by chi-square(1)/2.
        public let low: Double
        public let high: Double
        /// The interval's width in body heights (x edges scaled by the aspect ratio).
        public let widthInBodyHeights: Double
        /// The interval reaches the body's border: nothing ruled out a coil running to the edge.
        public let open: Bool
    }

    public let zone: NormalizedRect
    public let edges: [ZoneEdge: Edge]
    public let logLikelihood: Double
}

/// Fits a rectangle to pooled taps by maximum likelihood under a `DetectionModel`.
///
/// Coordinate ascent over the four edges on a 1/400 lattice of the back, starting from
/// the box of the positions that mostly read. Where the likelihood is flat (an edge
/// anywhere between the last read and the first miss fits equally), the estimate takes
/// the middle of the flat stretch: the evidence says "between", not "at the last read".
/// Partial read rates near an edge pull it to where the model's half-read boundary fits
/// them, which is what lets pooled sessions place edges between grid points.
public struct ZoneEstimator: Sendable {
    public let model: DetectionModel
    public let aspectRatio: Double
    static let steps = 400
    static let minimumSide = 0.01
    /// chi-square(1) 95% quantile / 2.
    static let profileDrop = 1.920729

    public init(model: DetectionModel = DetectionModel(), aspectRatio: Double) {
        precondition(aspectRatio > 0, "aspect ratio must be positive")
        self.model = model
        self.aspectRatio = aspectRatio
    }

    public func estimate(_ tallies: [PositionTally]) -> ZoneEstimate? {
        let reading = tallies.filter { $0.hits > 0 }
        guard !reading.isEmpty else { return nil }
        let core = reading.filter { 2 * $0.hits >= $0.taps }
        let seed = core.isEmpty ? reading : core
        var rect = EdgeRect(
            left: seed.map(\.x).min()!, top: seed.map(\.y).min()!,
            right: seed.map(\.x).max()!, bottom: seed.map(\.y).max()!)
        rect.left = max(0, rect.left - Self.minimumSide); rect.top = max(0, rect.top - Self.minimumSide)
        rect.right = min(1, rect.right + Self.minimumSide); rect.bottom = min(1, rect.bottom + Self.minimumSide)
        // One sweep per edge order, the most likely result kept: which edge a sweep moves
        // first decides which local optimum it reaches. A stray read that widens the
        // starting box lets the first edge swing past misses that a later edge would have
        // explained, and coordinate ascent never moves two edges at once to come back.
        var best = ascend(from: rect, first: .left, tallies)
        var bestLikelihood = logLikelihood(best, tallies)
        for first in [ZoneEdge.top, .right, .bottom] {
            let candidate = ascend(from: rect, first: first, tallies)
            let likelihood = logLikelihood(candidate, tallies)
            if likelihood > bestLikelihood + 1e-9 { (best, bestLikelihood) = (candidate, likelihood) }
        }
        rect = best
        let ll = logLikelihood(rect, tallies)
        var edges: [ZoneEdge: ZoneEstimate.Edge] = [:]
        // Graded reads: each edge at the mean of its stretch around the peak, the other
        // edges at the most likely zone (`meanAroundPeak`).
        let graded = tallies.contains { !$0.grades.isEmpty }
        let profiles = ZoneEdge.allCases.map { profile($0, of: rect, tallies) }
        var centred = rect
        if graded {
            for (edge, profile) in zip(ZoneEdge.allCases, profiles) {
                centred[edge] = Self.onLattice(Self.meanAroundPeak(profile, best: ll))
            }
            if centred.right - centred.left < Self.minimumSide || centred.bottom - centred.top < Self.minimumSide {
                centred = rect  // a sliver's edges averaged past each other: the peak it is
            }
        }
        for (edge, profile) in zip(ZoneEdge.allCases, profiles) {
            let kept = profile.filter { $0.ll >= ll - Self.profileDrop }.map(\.value)
            let low = kept.min()!, high = kept.max()!
            let scale = edge == .left || edge == .right ? aspectRatio : 1
            edges[edge] = ZoneEstimate.Edge(
                value: centred[edge], low: low, high: high, widthInBodyHeights: (high - low) * scale,
                open: edge == .left || edge == .top ? low <= 0 : high >= 1)
        }
        guard
            let zone = try? NormalizedRect(
                x: centred.left, y: centred.top, width: centred.right - centred.left,
                height: centred.bottom - centred.top)
        else { return nil }
        return ZoneEstimate(zone: zone, edges: edges, logLikelihood: graded ? logLikelihood(centred, tallies) : ll)
    }

    /// Coordinate ascent, sweeping the edges in their order from `first` (left, top, right,
    /// bottom, round). Where the likelihood is flat the edge takes the middle of the flat
    /// stretch.
    func ascend(from start: EdgeRect, first: ZoneEdge, _ tallies: [PositionTally]) -> EdgeRect {
        let all = ZoneEdge.allCases, offset = all.firstIndex(of: first)!
        let order = (0..<all.count).map { all[($0 + offset) % all.count] }
        var rect = start
        for _ in 0..<20 {
            var moved = false
            for edge in order {
                let profile = self.profile(edge, of: rect, tallies)
                let best = profile.map(\.ll).max()!
                let flat = profile.filter { $0.ll >= best - 1e-9 }.map(\.value)
                let value = Self.onLattice((flat.min()! + flat.max()!) / 2)
                if abs(value - rect[edge]) > 1e-12 { rect[edge] = value; moved = true }
            }
            if !moved { break }
        }
        return rect
    }

    /// Log-likelihood along one edge's lattice, the other edges held.
    func profile(_ edge: ZoneEdge, of rect: EdgeRect, _ tallies: [PositionTally]) -> [(value: Double, ll: Double)] {
        var out: [(value: Double, ll: Double)] = []
        out.reserveCapacity(Self.steps + 1)
        for i in 0...Self.steps {
            var candidate = rect
            candidate[edge] = Double(i) / Double(Self.steps)
            guard candidate.right - candidate.left >= Self.minimumSide - 1e-12,
                candidate.bottom - candidate.top >= Self.minimumSide - 1e-12
            else { continue }
            out.append((candidate[edge], logLikelihood(candidate, tallies)))
        }
        return out
    }

    /// How well `zone` explains `tallies` under the model (higher is better).
    public func logLikelihood(of zone: NormalizedRect, _ tallies: [PositionTally]) -> Double {
        logLikelihood(EdgeRect(left: zone.x, top: zone.y, right: zone.maxX, bottom: zone.maxY), tallies)
    }

    func logLikelihood(_ rect: EdgeRect, _ tallies: [PositionTally]) -> Double {
        var sum = 0.0
        let inradius = min((rect.right - rect.left) * aspectRatio, rect.bottom - rect.top) / 2
        for t in tallies {
            let d = rect.signedDistance(x: t.x, y: t.y, aspectRatio: aspectRatio)
            sum += model.logLikelihood(hits: t.hits, taps: t.taps, signedDistance: d)
            if !t.grades.isEmpty { sum += model.logLikelihood(grades: t.grades, signedDistance: d, inradius: inradius) }
        }
        return sum
    }

    /// The likelihood-weighted mean of an edge's positions, over the stretch around its
    /// peak that stays within `meanWindow` of it: a second peak (a stray read, a missed
    /// tap) is another explanation, not a weight to average in.
    static func meanAroundPeak(_ profile: [(value: Double, ll: Double)], best: Double) -> Double {
        let peak = profile.firstIndex { $0.ll >= best - 1e-9 }!
        var low = peak, high = peak
        while low > 0, profile[low - 1].ll >= best - meanWindow { low -= 1 }
        while high + 1 < profile.count, profile[high + 1].ll >= best - meanWindow { high += 1 }
        var sum = 0.0, weight = 0.0
        for point in profile[low...high] {
            let w = exp(point.ll - best)
            sum += w * point.value
            weight += w
        }
        return sum / weight
    }

    /// How far below its peak an edge's likelihood may fall and still count towards the
    /// mean: the 95% profile interval's drop.
    static let meanWindow = profileDrop

    static func onLattice(_ v: Double) -> Double { (v * Double(steps)).rounded() / Double(steps) }
}

extension PlanFocus {
    /// The focus a pooled estimate gives the next session of its model.
    public init?(_ estimate: ZoneEstimate, sessions: Int) {
        var edges: [ZoneEdge: PlanFocus.Edge] = [:]
        for (edge, e) in estimate.edges {
            guard let interval = PlanFocus.Edge(value: e.value, low: e.low, high: e.high) else { return nil }
            edges[edge] = interval
        }
        self.init(edges: edges, sessions: sessions)
    }
}
