import Foundation

/// One tap as the coil fit reads it, in millimetres on the phone's back.
public struct CoilTap: Sendable, Hashable {
    /// The reader antenna's centre, from the back's top-left corner, seen from the back.
    public var x: Double
    public var y: Double
    /// How far above the back the reader was (a rig's height layer), mm.
    public var heightMm: Double
    /// Whether the default field read.
    public var hit: Bool
    /// A graded read (`run --coupling`): how many rungs below the default still read, 0
    /// for the default alone. `nil` for a tap that was not graded.
    public var rungsRead: Int?
    /// The bench that tapped: its reader's antenna and the gap with the phone resting on
    /// it. Taps of several benches pool; each bench gets a threshold of its own, since
    /// each reader drives its antenna with its own current.
    public var bench: Bench

    public struct Bench: Sendable, Hashable {
        public var reader: ReaderAntenna
        public var gapMm: Double
        public init(reader: ReaderAntenna, gapMm: Double) {
            precondition(gapMm > 0 && gapMm.isFinite, "the antennas are a positive, finite distance apart")
            self.reader = reader
            self.gapMm = gapMm
        }
    }

    public init(x: Double, y: Double, heightMm: Double = 0, hit: Bool, rungsRead: Int? = nil, bench: Bench) {
        precondition(x.isFinite && y.isFinite && heightMm.isFinite && heightMm >= 0, "a tap lies somewhere finite")
        precondition(rungsRead.map { $0 >= 0 && hit } ?? true, "only a read is graded, by a count of rungs")
        self.x = x
        self.y = y
        self.heightMm = heightMm
        self.hit = hit
        self.rungsRead = rungsRead
        self.bench = bench
    }
}

/// The coil a session's taps say, in millimetres, each figure with its 95 % interval.
public struct CoilEstimate: Sendable, Hashable {
    public struct Interval: Sendable, Hashable {
        public let value: Double
        /// The 95 % profile-likelihood interval: the values this figure may take, the others
        /// refitted at each, before the fit gets worse by chi-square(1)/2.
        public let low: Double
        public let high: Double
        /// The interval reached the body's border or the largest coil: the taps did not bound it.
        public let open: Bool
    }

    public let centreX: Interval
    public let centreY: Interval
    public let width: Interval
    public let height: Interval
    /// The fitted exponent of the ladder's rung-to-field mapping (1: as the ladder assumes).
    public let rungFieldExponent: Double
    public let logLikelihood: Double
    /// How many benches' taps were pooled.
    public let benches: Int

    /// The coil's rectangle: left, top, width and height, mm.
    public var rectangle: CoilRectangle {
        (centreX.value - width.value / 2, centreY.value - height.value / 2, width.value, height.value)
    }
}

/// A coil's rectangle on the back: left, top, width and height, mm.
public typealias CoilRectangle = (x: Double, y: Double, width: Double, height: Double)

/// Fits the phone's coil to taps by maximum likelihood under the physics of two loops.
///
/// Each tap's reader antenna and gap are known; the coil (centre and size) is sought; the
/// phone's threshold on each bench is a nuisance, fitted with it, and so is the exponent that maps the
/// ladder's rungs to field strengths, which no datasheet gives. A tap reads where
/// log|M| - log θ, plus a per-placement scatter of `spread`, is at least 0; a graded read
/// says where between two rungs' log strengths it fell. So the fit is of the coil, not of
/// the read region: a bigger reader reads farther out, and the model knows by how much
/// (docs/physics.md).
public struct CoilFit: Sendable {
    public let bodyWidthMm: Double
    public let bodyHeightMm: Double
    /// Each rung's nominal threshold, the default's (0) first, then weaker fields.
    public let rungThresholds: [Double]
    /// Assumed of every coil: its turns and their pitch (typical phone coils have 3 to 5
    /// turns about half a millimetre apart). The figures reported are the outer turn's.
    public var coilTurns = 4
    public var coilPitchMm = 0.6
    /// The standard deviation of log|M| at which the phone wakes, placement to placement,
    /// besides the placement's own error (orientation, battery, a hand's tilt).
    public var spread = 0.25
    /// How far a placement lands from the position asked for (standard deviation per axis,
    /// mm): about 1.5 for a hand, a few hundredths for a motion stage. It is turned into an
    /// error in log|M| through the coupling's slope at the tap, so a tap where coupling
    /// changes fast (an edge) is trusted less than one where it changes slowly; without
    /// it the intervals were too narrow (bench/physics). 0: every placement exact.
    public var placementSpreadMm = 0.0
    /// The most a placement's error is taken to move log|M|: the slope is a linearisation,
    /// which fails on the null ring, where |M| passes through 0.
    static let largestSpread = 1.0
    public var sureRate = 0.97
    public var strayRate = 0.01
    /// Where the exponent of the rung-to-field mapping is sought.
    public var exponentRange = 0.5...2.0
    /// No phone coil is smaller (a side, mm); below it a tiny coil with a low threshold
    /// mimics a cluster of reads.
    public static let smallestCoilMm = 12.0
    /// chi-square(1) 95 % quantile / 2.
    static let profileDrop = 1.920729

    public init(bodyWidthMm: Double, bodyHeightMm: Double, rungThresholds: [Double]) {
        precondition(bodyWidthMm > 0 && bodyHeightMm > 0, "a bench and a body")
        precondition(
            rungThresholds.first == 0 && zip(rungThresholds, rungThresholds.dropFirst()).allSatisfy { $0 < $1 },
            "rung thresholds start at the default's 0 and rise")
        self.bodyWidthMm = bodyWidthMm
        self.bodyHeightMm = bodyHeightMm
        self.rungThresholds = rungThresholds
    }

    /// Taps with the index of their bench: the parameters are the coil's four, then one
    /// log threshold per bench.
    struct Pooled {
        let taps: [CoilTap]
        let bench: [Int]
        let benchCount: Int
        init(_ taps: [CoilTap]) {
            var seen: [CoilTap.Bench: Int] = [:]
            bench = taps.map { tap in
                if let i = seen[tap.bench] { return i }
                seen[tap.bench] = seen.count
                return seen.count - 1
            }
            benchCount = seen.count
            self.taps = taps
        }
        var parameterCount: Int { 4 + benchCount }
        /// Some read was graded down the ladder (`run --coupling`).
        var isGraded: Bool { taps.contains { $0.rungsRead != nil } }
        func steps(_ coil: [Double], _ threshold: Double) -> [Double] {
            coil + Array(repeating: threshold, count: benchCount)
        }
    }

    /// The best coil for `taps`, with intervals; `nil` without a single read. `seeds`: coils
    /// to start the search from besides its own starts (`CoilDesign.likeliestOverlap`, where
    /// a cloud of the coils the taps allow has been read): the likelihood of a few taps has
    /// several hills, and the search's own starts, centred on the reads, miss the right one in
    /// about one session in twenty (bench/physics).
    public func estimate(_ tapsGiven: [CoilTap], seeds: [CoilRectangle] = []) -> CoilEstimate? {
        estimated(tapsGiven, seeds: seeds, beside: nil)
    }

    /// The best coil's centre alone, with its intervals: what a check of one session against
    /// the pooled coil compares (`catalog publish`'s stability rule), at half the intervals' cost.
    /// `exponent`: the rung law held where it is known (the pooled fit's, from every graded tap
    /// of the phone), instead of sought again from this session's taps alone.
    public func centre(_ tapsGiven: [CoilTap], exponent: Double? = nil, seeds: [CoilRectangle] = []) -> (
        x: CoilEstimate.Interval, y: CoilEstimate.Interval
    )? {
        guard let (_, _, intervals) = fitted(tapsGiven, intervals: 2, exponent: exponent, seeds: seeds) else { return nil }
        return (intervals[0], intervals[1])
    }

    /// `centre` of each group of taps, the groups fitted side by side on every core (each
    /// session of a phone checked against the pooled coil, seeded by it); in the order given.
    public func centres(_ groups: [[CoilTap]], exponent: Double? = nil, seeds: [CoilRectangle] = []) -> [(
        x: CoilEstimate.Interval, y: CoilEstimate.Interval
    )?] {
        ParallelWork.map(groups.count) { centre(groups[$0], exponent: exponent, seeds: seeds) }
    }

    /// `estimate`, with work that needs only the best coil and its rung law (`catalog
    /// publish` checks each session against the pooled coil) done beside the intervals, on
    /// the cores they leave idle, rather than after them: neither needs the other.
    public func estimate<T: Sendable>(
        _ tapsGiven: [CoilTap], seeds: [CoilRectangle] = [],
        alongside: @escaping @Sendable (_ coil: CoilRectangle, _ exponent: Double) -> T
    ) -> (estimate: CoilEstimate, alongside: T)? {
        let other = ParallelSlot<T>()
        guard let estimate = estimated(tapsGiven, seeds: seeds, beside: { other.fill(alongside($0, $1)) }) else { return nil }
        return (estimate, other.filled)
    }

    /// The best coil with its four intervals, and `beside` (given the best coil and rung
    /// law) run among the intervals' jobs.
    private func estimated(
        _ tapsGiven: [CoilTap], seeds: [CoilRectangle], beside: (@Sendable (CoilRectangle, Double) -> Void)?
    ) -> CoilEstimate? {
        let taps = Pooled(tapsGiven)
        guard let best = bestFit(taps, exponent: nil, seeds: seeds) else { return nil }
        let p = best.point
        let coil: CoilRectangle = (p[0] - p[2] / 2, p[1] - p[3] / 2, p[2], p[3])
        let exponent = best.exponent
        var job: (@Sendable () -> Void)?
        if let beside { job = { beside(coil, exponent) } }
        let intervals = intervals(4, of: best, taps, beside: job)
        return CoilEstimate(
            centreX: intervals[0], centreY: intervals[1], width: intervals[2], height: intervals[3],
            rungFieldExponent: best.exponent, logLikelihood: best.value, benches: taps.benchCount)
    }

    /// The best fit and the intervals of its first `count` figures (centre x, centre y,
    /// width, height).
    private func fitted(_ tapsGiven: [CoilTap], intervals count: Int, exponent: Double? = nil, seeds: [CoilRectangle]) -> (
        best: (point: [Double], value: Double, exponent: Double), taps: Pooled, intervals: [CoilEstimate.Interval]
    )? {
        let taps = Pooled(tapsGiven)
        guard let best = bestFit(taps, exponent: exponent, seeds: seeds) else { return nil }
        return (best, taps, intervals(count, of: best, taps))
    }

    /// The intervals of the first `count` figures, each end on a core of its own (an end
    /// of a figure the taps barely bound walks far longer than the other, so whole figures
    /// left a core idle), and `beside`, if given, as one more piece of work among them.
    private func intervals(
        _ count: Int, of best: (point: [Double], value: Double, exponent: Double), _ taps: Pooled,
        beside: (@Sendable () -> Void)? = nil
    ) -> [CoilEstimate.Interval] {
        let ends = ParallelWork.map(2 * count, extra: beside) { job in
            profileEnd(of: job / 2, towards: job % 2 == 0 ? -1 : 1, best.point, best.value, exponent: best.exponent, taps)
        }
        return (0..<count).map { Self.interval(best.point[$0], below: ends[2 * $0], above: ends[2 * $0 + 1]) }
    }

    /// The most likely coil and thresholds (and exponent, for graded taps, unless `fixed`
    /// gives it); `nil` without a read.
    private func bestFit(_ taps: Pooled, exponent fixed: Double?, seeds: [CoilRectangle]) -> (
        point: [Double], value: Double, exponent: Double
    )? {
        let tapsGiven = taps.taps
        let reads = tapsGiven.filter(\.hit)
        guard !reads.isEmpty else { return nil }
        let graded = taps.isGraded
        let cx = reads.map(\.x).reduce(0, +) / Double(reads.count)
        let cy = reads.map(\.y).reduce(0, +) / Double(reads.count)
        let spanX = max(10, (reads.map(\.x).max()! - reads.map(\.x).min()!))
        let spanY = max(10, (reads.map(\.y).max()! - reads.map(\.y).min()!))
        let startingExponent = fixed ?? 1
        var best: (point: [Double], value: Double, exponent: Double) = ([], -.infinity, startingExponent)
        // Starts from the reads' box, shrunk, and from squares of typical coil sides: the
        // likelihood of a few taps has more than one hill, and a tiny coil with a low
        // threshold can explain a cluster of reads nearly as well as the real one.
        var starts: [(Double, Double)] = [0.4, 0.7, 1.0].map { (spanX * $0, spanY * $0) }
        starts += [15.0, 25, 40].map { ($0, $0) }
        let centres = Array(repeating: (cx, cy), count: starts.count) + seeds.map { ($0.x + $0.width / 2, $0.y + $0.height / 2) }
        let sides = starts + seeds.map { ($0.width, $0.height) }
        let found = ParallelWork.map(sides.count) { i in
            var start = clampedIntoBody([centres[i].0, centres[i].1, min(sides[i].0, bodyWidthMm), min(sides[i].1, bodyHeightMm)])
            start += startingThresholds(start, taps)
            return NelderMead.maximise(
                { logLikelihood($0, exponent: startingExponent, taps) }, from: start, steps: taps.steps([3, 3, 4, 4], 0.4))
        }
        for result in found where result.value > best.value { best = (result.point, result.value, startingExponent) }
        if graded && fixed == nil {
            // The exponent by golden-section search over [0.5, 2] on a log scale, the coil and
            // thresholds refitted at each: a grid of five exponents left the size off by the
            // exponent's error (bench/physics).
            let from = best.point
            let fitted: @Sendable (Double) -> (point: [Double], value: Double) = { logExponent in
                NelderMead.maximise(
                    { logLikelihood($0, exponent: exp(logExponent), taps) }, from: from, steps: taps.steps([2, 2, 3, 3], 0.3))
            }
            let ratio = (5.0.squareRoot() - 1) / 2
            var (a, b) = (log(exponentRange.lowerBound), log(exponentRange.upperBound))
            var c = b - ratio * (b - a), d = a + ratio * (b - a)
            // The first two exponents do not depend on each other: fitted side by side.
            let firstExponents = [c, d]
            let firstPair = ParallelWork.map(2) { fitted(firstExponents[$0]) }
            var fc = firstPair[0], fd = firstPair[1]
            for _ in 0..<10 {
                if fc.value >= fd.value {
                    (b, d, fd) = (d, c, fc)
                    c = b - ratio * (b - a)
                    fc = fitted(c)
                } else {
                    (a, c, fc) = (c, d, fd)
                    d = a + ratio * (b - a)
                    fd = fitted(d)
                }
            }
            for (logExponent, found) in [(c, fc), (d, fd)] where found.value > best.value {
                best = (found.point, found.value, exp(logExponent))
            }
        }
        // Polish: a restart from the best simplex's point escapes a collapsed simplex.
        let polished = NelderMead.maximise(
            { logLikelihood($0, exponent: best.exponent, taps) }, from: best.point, steps: taps.steps([1, 1, 1.5, 1.5], 0.2))
        if polished.value > best.value { best = (polished.point, polished.value, best.exponent) }
        return best
    }

    /// Clamps the coil's four parameters into the body.
    func clampedIntoBody(_ p: [Double]) -> [Double] {
        var q = p
        q[2] = min(max(q[2], Self.smallestCoilMm), bodyWidthMm)
        q[3] = min(max(q[3], Self.smallestCoilMm), bodyHeightMm)
        q[0] = min(max(q[0], q[2] / 2), bodyWidthMm - q[2] / 2)
        q[1] = min(max(q[1], q[3] / 2), bodyHeightMm - q[3] / 2)
        return q
    }

    /// For each bench, a threshold at which its read farthest from the start's centre just
    /// reads (a bench without a read: its closest miss just fails).
    func startingThresholds(_ p: [Double], _ pooled: Pooled) -> [Double] {
        (0..<pooled.benchCount).map { b in
            let own = pooled.taps.indices.filter { pooled.bench[$0] == b }.map { pooled.taps[$0] }
            let distance = { (t: CoilTap) in hypot(t.x - p[0], t.y - p[1]) }
            if let far = own.filter(\.hit).max(by: { distance($0) < distance($1) }) { return logCoupling(p, far) - 0.1 }
            let near = own.min { distance($0) < distance($1) }!
            return logCoupling(p, near) + 0.1
        }
    }

    /// log |M| in nanohenries per turn pair, for the coil `p` and a tap. The coil's turns
    /// are one filament at their mean inset: against the nested turns themselves this moved
    /// no fitted edge by more than 0.1 mm on the tests' sessions, at a quarter of the cost.
    func logCoupling(_ p: [Double], _ tap: CoilTap) -> Double {
        logCoupling(
            centreX: p[0], centreY: p[1], width: p[2], height: p[3], readerX: tap.x, readerY: tap.y,
            heightMm: tap.heightMm, bench: tap.bench)
    }

    /// The same, for a coil and a reader position given figure by figure (no array to build:
    /// the coil design asks it for every coil of its cloud at every position).
    func logCoupling(
        centreX: Double, centreY: Double, width: Double, height: Double, readerX: Double, readerY: Double,
        heightMm: Double, bench: CoilTap.Bench
    ) -> Double {
        let (coil, reader, z) = filaments(centreX, centreY, width, height, readerX, readerY, heightMm, bench)
        return Self.logNanohenries(abs(RectangularLoop.neumann(coil, reader, z)))
    }

    /// The coil's turns as one filament at their mean inset, the reader's antenna at the tap,
    /// and the distance between their planes.
    private func filaments(
        _ centreX: Double, _ centreY: Double, _ width: Double, _ height: Double, _ readerX: Double, _ readerY: Double,
        _ heightMm: Double, _ bench: CoilTap.Bench
    ) -> (RectangularLoop.Filament, RectangularLoop.Filament, Double) {
        let inset = coilPitchMm * Double(coilTurns - 1) / 2
        let w = max(width - 2 * inset, 1), h = max(height - 2 * inset, 1)
        let reader = bench.reader
        return (
            RectangularLoop.Filament(
                left: centreX - w / 2, right: centreX + w / 2, top: centreY - h / 2, bottom: centreY + h / 2),
            RectangularLoop.Filament(
                left: readerX - reader.widthMm / 2, right: readerX + reader.widthMm / 2,
                top: readerY - reader.heightMm / 2, bottom: readerY + reader.heightMm / 2),
            bench.gapMm + heightMm
        )
    }

    /// Neumann's integral (mm) as log nanohenries, floored far below any threshold.
    static func logNanohenries(_ integral: Double) -> Double {
        log(max(integral * LoopConstants.neumannPerMm * 1e9, 1e-12))
    }

    /// How well the coil and threshold in `p` explain `taps` (higher is better); -1e18
    /// outside the body.
    func logLikelihood(_ p: [Double], exponent: Double, _ pooled: Pooled) -> Double {
        guard p[2] >= Self.smallestCoilMm, p[3] >= Self.smallestCoilMm, p[0] - p[2] / 2 >= -1e-9,
            p[0] + p[2] / 2 <= bodyWidthMm + 1e-9, p[1] - p[3] / 2 >= -1e-9, p[1] + p[3] / 2 <= bodyHeightMm + 1e-9,
            p.allSatisfy(\.isFinite)
        else { return -1e18 }
        var sum = 0.0
        for (tap, bench) in zip(pooled.taps, pooled.bench) {
            let coupling = logCouplingAndSpread(
                centreX: p[0], centreY: p[1], width: p[2], height: p[3], readerX: tap.x, readerY: tap.y,
                heightMm: tap.heightMm, bench: tap.bench)
            sum += tapLogLikelihood(
                margin: coupling.log - p[4 + bench], tap, exponent: exponent, spread: coupling.spread)
        }
        return sum
    }

    /// log|M| at a tap, and the spread of log|M| at which the phone there wakes: the
    /// threshold's own and the placement's, through the slope of log|M| (capped).
    func logCouplingAndSpread(
        centreX: Double, centreY: Double, width: Double, height: Double, readerX: Double, readerY: Double,
        heightMm: Double, bench: CoilTap.Bench
    ) -> (log: Double, spread: Double) {
        guard placementSpreadMm > 0 else {
            return (
                logCoupling(
                    centreX: centreX, centreY: centreY, width: width, height: height, readerX: readerX,
                    readerY: readerY, heightMm: heightMm, bench: bench), spread
            )
        }
        let (coil, reader, z) = filaments(centreX, centreY, width, height, readerX, readerY, heightMm, bench)
        let m = RectangularLoop.neumannWithSlopes(coil, reader, z)
        let magnitude = abs(m.value)
        let logM = Self.logNanohenries(magnitude)
        let slope = magnitude > 0 ? hypot(m.slopeX, m.slopeY) / magnitude : .infinity
        let placement = placementSpreadMm * slope
        return (logM, min((spread * spread + placement * placement).squareRoot(), Self.largestSpread))
    }

    /// How likely one tap's outcome is where log|M| clears the threshold by `u` (negative:
    /// falls short of it), `spread` its scatter there. The coil design (`CoilDesign`)
    /// weighs its coils by the same.
    func tapLogLikelihood(margin u: Double, _ tap: CoilTap, exponent: Double, spread: Double) -> Double {
        if !tap.hit {
            return log(1 - strayRate - (sureRate - strayRate) * Self.normalBelow(u / spread))
        } else if let n = tap.rungsRead {
            let low = rungLog(n, exponent), high = rungLog(n + 1, exponent)
            let between = Self.normalBelow((u - low) / spread) - Self.normalBelow((u - high) / spread)
            return log(strayRate / Double(rungThresholds.count) + (sureRate - strayRate) * max(between, 0))
        } else {
            return log(strayRate + (sureRate - strayRate) * Self.normalBelow(u / spread))
        }
    }

    /// -log of rung `n`'s relative field (the default's 0); infinite past the weakest.
    func rungLog(_ n: Int, _ exponent: Double) -> Double {
        guard n < rungThresholds.count else { return .infinity }
        return -exponent * log(max(1 - rungThresholds[n], 1e-9))
    }

    static func normalBelow(_ z: Double) -> Double {
        z == .infinity ? 1 : z == -.infinity ? 0 : 0.5 * erfc(-z / 2.squareRoot())
    }
}
