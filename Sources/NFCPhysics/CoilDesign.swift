import Foundation
import Synchronization

/// Where a session taps next so that few taps say most about the phone's coil, under the
/// physics of two loops.
///
/// A hand session has about sixteen positions. A grid spends most of them where every coil
/// still possible agrees (deep inside, or far off), and leaves the edges, where the null
/// ring and the outer lobe tell a coil's size from the reader's reach, unseen (docs/physics.md,
/// bench/physics). So the design keeps a cloud of coils the taps so far allow (`CoilCloud`:
/// centre, size, the phone's read height and the chip's rung law, weighted by the coil fit's
/// own likelihood) and taps where their predicted outcomes, a silence or the rung the ladder
/// would read down to, disagree most: the position whose outcome carries the most mutual
/// information about the coil (D. V. Lindley, *Ann. Math. Statist.* 27, 1956; K. Chaloner and
/// I. Verdinelli, *Statist. Sci.* 10, 1995).
///
/// Deterministic: the same taps give the same next position (its random numbers come from a
/// fixed seed), so a resumed session continues where it stopped.
public struct CoilDesign: Sendable {
    /// What is believed of the coil before the first tap.
    public struct Prior: Sendable, Hashable {
        /// The predicted coil's centre, mm from the back's top-left corner; `nil`: anywhere.
        public var centre: Position?
        /// How far the real centre may lie from the predicted one (standard deviation, mm).
        public var centreSpreadMm = 12.0
        /// The share of coils drawn around the prediction; the rest may be anywhere on the
        /// back, so a prediction that is wrong is not trusted to the end.
        public var trust = 0.8
        /// A coil's side: no phone coil is below 12 mm (`CoilFit`), few are above 70.
        public var sideMm = 12.0...70.0
        /// How far above its coil the phone still reads the default field: the threshold,
        /// said in a figure a lab can picture (`BenchPhysics(readHeightMm:)`).
        public var readHeightMm = 3.0...45.0

        public init(centre: Position?) { self.centre = centre }
    }

    /// A place the reader may be put, mm from the back's top-left corner.
    public struct Position: Sendable, Hashable {
        public var x: Double
        public var y: Double
        public init(x: Double, y: Double) {
            precondition(x.isFinite && y.isFinite, "a position lies somewhere finite")
            self.x = x
            self.y = y
        }
    }

    /// The body, the ladder and the likelihood the taps are read by: the fit's own.
    public let fit: CoilFit
    /// The bench that taps: its reader's antenna and gap.
    public let bench: CoilTap.Bench
    /// Where a tap may go.
    public let candidates: [Position]
    public let prior: Prior
    /// Whether each read is graded down the ladder (`run --coupling`), or only hit or miss.
    public let graded: Bool
    /// The taps a session makes at most.
    public let budget: Int
    /// The coils kept, and how many of them weigh each choice (the cost of a choice is
    /// that many coils' coupling at every candidate position).
    /// 600 and 150 found the coil as well as 1500 and 240 in bench/physics, at half the cost.
    public var cloudSize = 600
    public var weighed = 150
    /// A tap expected to tell less than this (nats) is not worth making.
    public var enough = 0.01

    let memory = CloudMemory()

    public init(
        fit: CoilFit, bench: CoilTap.Bench, candidates: [Position], prior: Prior, graded: Bool, budget: Int = 16
    ) {
        precondition(!candidates.isEmpty, "a design needs somewhere to tap")
        precondition(budget > 0, "a session taps at least once")
        self.fit = fit
        self.bench = bench
        self.candidates = candidates
        self.prior = prior
        self.graded = graded
        self.budget = budget
    }

    /// The index in `candidates` of the next position, or `nil` when the budget is spent or
    /// no position left would tell enough. `taps` are this session's, in order, each at the
    /// position asked for; `unavailable` are candidates not to offer (skipped by the
    /// operator). Positions already tapped are not offered again.
    public func next(after taps: [CoilTap], unavailable: Set<Int> = []) -> Int? {
        guard taps.count < budget else { return nil }
        let cloud = self.cloud(after: taps)
        let tapped = Set(taps.map { Position(x: $0.x, y: $0.y) })
        let open = candidates.indices.filter { !unavailable.contains($0) && !tapped.contains(candidates[$0]) }
        guard !open.isEmpty else { return nil }
        let information = expectedInformation(at: open, cloud: cloud)
        guard let best = open.indices.max(by: { information[$0] < information[$1] }), information[best] >= enough
        else { return nil }
        return open[best]
    }

    /// The cloud read from `taps`: the kept one read on where they continue what it read.
    func cloud(after taps: [CoilTap]) -> CoilCloud {
        memory.cloud(for: taps) { kept in
            var cloud = kept ?? CoilCloud(design: self)
            for tap in taps.dropFirst(cloud.taps.count) { cloud.read(tap, design: self) }
            return cloud
        }
    }

    /// The mutual information between each position's outcome and the coil, over an
    /// evenly weighted draw of `weighed` coils from the cloud.
    func expectedInformation(at positions: [Int], cloud: CoilCloud) -> [Double] {
        let coils = cloud.draw(weighed)
        let outcomes = graded ? fit.rungThresholds.count + 1 : 2
        var mixture = [Double](repeating: 0, count: positions.count * outcomes)
        var ownEntropy = [Double](repeating: 0, count: positions.count)
        var probabilities = [Double](repeating: 0, count: outcomes)
        let share = 1 / Double(coils.count)
        let reachX = bench.reader.widthMm / 2 + 30, reachY = bench.reader.heightMm / 2 + 30
        for coil in coils {
            let boundaries = graded ? coil.rungBoundaries(fit) : []
            for (k, index) in positions.enumerated() {
                let at = candidates[index]
                let far =
                    abs(at.x - coil.centreX) > coil.width / 2 + reachX || abs(at.y - coil.centreY) > coil.height / 2 + reachY
                let coupling =
                    far ? (log: -Double.infinity, spread: fit.spread) : coil.logCouplingAndSpread(at: at, fit: fit, bench: bench)
                outcomeProbabilities(coupling.log - coil.logThreshold, coupling.spread, boundaries, into: &probabilities)
                var entropy = 0.0
                for y in 0..<outcomes {
                    let p = probabilities[y]
                    mixture[k * outcomes + y] += share * p
                    if p > 0 { entropy -= p * log(p) }
                }
                ownEntropy[k] += share * entropy
            }
        }
        return positions.indices.map { k in
            var entropy = 0.0
            for y in 0..<outcomes {
                let p = mixture[k * outcomes + y]
                if p > 0 { entropy -= p * log(p) }
            }
            return entropy - ownEntropy[k]
        }
    }

    /// A tap's outcome where log|M| clears the threshold by `u`: a silence first, then (graded)
    /// a read down to each rung, or (binary) a read; by the fit's own likelihood.
    func outcomeProbabilities(_ u: Double, _ spread: Double, _ boundaries: [Double], into p: inout [Double]) {
        let sure = fit.sureRate, stray = fit.strayRate
        let reads = CoilFit.normalBelow(u / spread)
        p[0] = 1 - stray - (sure - stray) * reads
        guard graded else {
            p[1] = 1 - p[0]
            return
        }
        let rungs = fit.rungThresholds.count
        var total = p[0]
        var above = reads  // Φ((u - boundary n) / spread), boundary 0 being the default's 0
        for n in 0..<rungs {
            let next = n + 1 < rungs ? CoilFit.normalBelow((u - boundaries[n + 1]) / spread) : 0
            p[n + 1] = stray / Double(rungs) + (sure - stray) * max(above - next, 0)
            total += p[n + 1]
            above = next
        }
        for y in p.indices { p[y] /= total }
    }
}

/// The last cloud a design read, so that a session's next question reads one tap more
/// instead of all of them again.
final class CloudMemory: Sendable {
    private let last = Mutex<CoilCloud?>(nil)

    /// The cloud after `taps`: the kept one read on when `taps` continues what it read,
    /// else one read afresh.
    func cloud(for taps: [CoilTap], reading: (CoilCloud?) -> CoilCloud) -> CoilCloud {
        let kept = last.withLock { $0 }
        let continues = kept.map { taps.starts(with: $0.taps) } ?? false
        let cloud = reading(continues ? kept : nil)
        last.withLock { $0 = cloud }
        return cloud
    }
}

extension CoilDesign {
    /// The coil that the cloud read from `taps` expects to overlap the true one most: of an
    /// evenly weighted draw of the cloud, the coil with the highest mean IoU against the rest
    /// (a Bayes estimate under IoU). The coil fit starts from it as well as from its own
    /// starts (`CoilFit.estimate(_:seeds:)`): the cloud ranges over the whole back under the
    /// prior, where the fit's starts sit on the reads. `nil` without a tap.
    public func likeliestOverlap(after taps: [CoilTap], drawing count: Int = 200) -> CoilRectangle? {
        guard !taps.isEmpty else { return nil }
        let cloud = self.cloud(after: taps)
        let drawn: [CoilRectangle] = cloud.draw(count).map {
            ($0.centreX - $0.width / 2, $0.centreY - $0.height / 2, $0.width, $0.height)
        }
        func overlap(_ a: CoilRectangle, _ b: CoilRectangle) -> Double {
            let ix = max(0, min(a.x + a.width, b.x + b.width) - max(a.x, b.x))
            let iy = max(0, min(a.y + a.height, b.y + b.height) - max(a.y, b.y))
            return ix * iy / (a.width * a.height + b.width * b.height - ix * iy)
        }
        var best = drawn[0], bestScore = -1.0
        for candidate in drawn {
            let score = drawn.reduce(0) { $0 + overlap(candidate, $1) }
            if score > bestScore { (best, bestScore) = (candidate, score) }
        }
        return best
    }
}
