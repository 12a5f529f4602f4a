import Foundation

/// The coils a session's taps so far allow: a cloud of them, each weighted by how well it
/// explains the taps under the coil fit's likelihood, so that the design can ask where
/// they disagree.
///
/// A cloud drawn once from the prior thins out as taps arrive (a few coils end up carrying
/// all the weight). When it does, it is redrawn by weight and each coil is moved by a few
/// Metropolis steps under the prior and the taps (resample-move: W. R. Gilks and C. Berzuini,
/// *J. R. Statist. Soc. B* 63, 2001), which keeps it spread over what the taps still allow.
struct CoilCloud: Sendable {
    struct Coil: Sendable {
        var centreX: Double
        var centreY: Double
        var width: Double
        var height: Double
        /// How far above its coil the phone still reads the default field: the threshold.
        var readHeightMm: Double
        /// log of the exponent of the chip's rung-to-field law (`CoilFit.rungLog`).
        var logExponent: Double
        /// log|M| at which the default field just reads, from `readHeightMm`.
        var logThreshold = 0.0
        var logPrior = 0.0
        /// Of the taps the cloud has read.
        var logLikelihood = 0.0

        init(_ v: [Double]) {
            (centreX, centreY, width, height, readHeightMm, logExponent) = (v[0], v[1], v[2], v[3], v[4], v[5])
        }

        var parameters: [Double] { [centreX, centreY, width, height, readHeightMm, logExponent] }

        func logCoupling(at position: CoilDesign.Position, heightMm: Double = 0, fit: CoilFit, bench: CoilTap.Bench) -> Double {
            fit.logCoupling(
                centreX: centreX, centreY: centreY, width: width, height: height, readerX: position.x, readerY: position.y,
                heightMm: heightMm, bench: bench)
        }

        /// log|M| with the reader at `at`, and the scatter of log|M| at which the phone wakes there.
        func logCouplingAndSpread(at position: CoilDesign.Position, heightMm: Double = 0, fit: CoilFit, bench: CoilTap.Bench)
            -> (log: Double, spread: Double)
        {
            fit.logCouplingAndSpread(
                centreX: centreX, centreY: centreY, width: width, height: height, readerX: position.x, readerY: position.y,
                heightMm: heightMm, bench: bench)
        }

        /// Each rung's log strength below the default's, the weakest last.
        func rungBoundaries(_ fit: CoilFit) -> [Double] {
            fit.rungThresholds.indices.map { fit.rungLog($0, exp(logExponent)) }
        }
    }

    private(set) var taps: [CoilTap] = []
    private(set) var coils: [Coil] = []
    private var logWeights: [Double] = []
    private var generator = SplitMix64(seed: 0x6E66_6362_656E_6368)

    /// The cloud before any tap: drawn from the design's prior.
    init(design: CoilDesign) {
        for _ in 0..<design.cloudSize {
            var coil = Coil(drawnFromPrior(design))
            settle(&coil, design)
            coils.append(coil)
        }
        logWeights = Array(repeating: 0, count: coils.count)
    }

    /// Weighs every coil by one more tap, and redraws the cloud when it has thinned.
    mutating func read(_ tap: CoilTap, design: CoilDesign) {
        taps.append(tap)
        for i in coils.indices {
            let said = tapLogLikelihood(coils[i], tap, design)
            coils[i].logLikelihood += said
            logWeights[i] += said
        }
        let weights = normalisedWeights()
        let effective = 1 / weights.reduce(0) { $0 + $1 * $1 }
        if effective < Double(coils.count) / 2 { resampleAndMove(weights, design) }
    }

    /// `count` coils drawn by weight, evenly spaced through the cumulative weights (the
    /// same cloud always gives the same draw).
    func draw(_ count: Int) -> [Coil] {
        let weights = normalisedWeights()
        var drawn: [Coil] = []
        drawn.reserveCapacity(count)
        var cumulative = 0.0, i = 0
        for k in 0..<count {
            let target = (Double(k) + 0.5) / Double(count)
            while i < coils.count - 1 && cumulative + weights[i] < target {
                cumulative += weights[i]
                i += 1
            }
            drawn.append(coils[i])
        }
        return drawn
    }

    private func normalisedWeights() -> [Double] {
        let top = logWeights.max() ?? 0
        let raw = logWeights.map { exp($0 - top) }
        let total = raw.reduce(0, +)
        return raw.map { $0 / total }
    }

    private func tapLogLikelihood(_ coil: Coil, _ tap: CoilTap, _ design: CoilDesign) -> Double {
        let coupling = coil.logCouplingAndSpread(
            at: .init(x: tap.x, y: tap.y), heightMm: tap.heightMm, fit: design.fit, bench: tap.bench)
        return design.fit.tapLogLikelihood(
            margin: coupling.log - coil.logThreshold, tap, exponent: exp(coil.logExponent), spread: coupling.spread)
    }

    /// Sets a coil's threshold, prior and likelihood from its figures.
    private func settle(_ coil: inout Coil, _ design: CoilDesign) {
        coil.logPrior = Self.logPrior(coil, design)
        guard coil.logPrior > -.infinity else { return }
        coil.logThreshold = coil.logCoupling(
            at: .init(x: coil.centreX, y: coil.centreY), heightMm: coil.readHeightMm, fit: design.fit, bench: design.bench)
        coil.logLikelihood = taps.reduce(0) { $0 + tapLogLikelihood(coil, $1, design) }
    }

    /// Redraws the cloud by weight (systematic resampling), then moves each coil by three
    /// Metropolis steps whose size follows the cloud's own spread.
    private mutating func resampleAndMove(_ weights: [Double], _ design: CoilDesign) {
        let spread = Self.proposalSteps(coils, weights)
        let offset = Double.random(in: 0..<1, using: &generator)
        var cumulative = weights[0], i = 0
        var redrawn: [Coil] = []
        redrawn.reserveCapacity(coils.count)
        for k in 0..<coils.count {
            let target = (Double(k) + offset) / Double(coils.count)
            while i < coils.count - 1 && cumulative < target {
                i += 1
                cumulative += weights[i]
            }
            redrawn.append(coils[i])
        }
        coils = redrawn
        logWeights = Array(repeating: 0, count: coils.count)
        for i in coils.indices {
            for _ in 0..<3 {
                var proposed = coils[i].parameters
                for d in proposed.indices { proposed[d] += spread[d] * normal() }
                var candidate = Coil(proposed)
                settle(&candidate, design)
                guard candidate.logPrior > -.infinity else { continue }
                let ratio =
                    candidate.logLikelihood + candidate.logPrior - coils[i].logLikelihood - coils[i].logPrior
                if log(Double.random(in: Double.ulpOfOne..<1, using: &generator)) < ratio { coils[i] = candidate }
            }
        }
    }

    /// Half the cloud's weighted standard deviation in each figure, with a floor so a cloud
    /// that has collapsed in one figure can still move in it.
    private static func proposalSteps(_ coils: [Coil], _ weights: [Double]) -> [Double] {
        let floors = [0.3, 0.3, 0.5, 0.5, 0.3, 0.03]
        return floors.indices.map { d in
            let mean = zip(coils, weights).reduce(0) { $0 + $1.1 * $1.0.parameters[d] }
            let variance = zip(coils, weights).reduce(0) { $0 + $1.1 * pow($1.0.parameters[d] - mean, 2) }
            return max(0.5 * variance.squareRoot(), floors[d])
        }
    }

    /// The prior's log density, up to a constant: the centre near the prediction (a normal
    /// mixed with an even spread over the back), sides, read height and rung law even over
    /// their ranges, and the coil inside the body.
    static func logPrior(_ coil: Coil, _ design: CoilDesign) -> Double {
        let prior = design.prior, fit = design.fit
        let parameters = coil.parameters
        guard parameters.allSatisfy(\.isFinite), prior.sideMm.contains(coil.width), prior.sideMm.contains(coil.height),
            coil.width >= CoilFit.smallestCoilMm, coil.height >= CoilFit.smallestCoilMm,
            coil.centreX - coil.width / 2 >= 0, coil.centreX + coil.width / 2 <= fit.bodyWidthMm,
            coil.centreY - coil.height / 2 >= 0, coil.centreY + coil.height / 2 <= fit.bodyHeightMm,
            prior.readHeightMm.contains(coil.readHeightMm),
            (log(fit.exponentRange.lowerBound)...log(fit.exponentRange.upperBound)).contains(coil.logExponent)
        else { return -.infinity }
        guard let centre = prior.centre else { return 0 }
        let s = prior.centreSpreadMm
        let r2 = (pow(coil.centreX - centre.x, 2) + pow(coil.centreY - centre.y, 2)) / (s * s)
        let near = prior.trust * exp(-r2 / 2) / (2 * .pi * s * s)
        let anywhere = (1 - prior.trust) / (fit.bodyWidthMm * fit.bodyHeightMm)
        return log(near + anywhere)
    }

    /// A coil drawn from the prior (by rejection: a coil must lie inside the body).
    private mutating func drawnFromPrior(_ design: CoilDesign) -> [Double] {
        let prior = design.prior, fit = design.fit
        let exponents = log(fit.exponentRange.lowerBound)...log(fit.exponentRange.upperBound)
        while true {
            let width = Double.random(in: prior.sideMm, using: &generator)
            let height = Double.random(in: prior.sideMm, using: &generator)
            var x = Double.random(in: 0...fit.bodyWidthMm, using: &generator)
            var y = Double.random(in: 0...fit.bodyHeightMm, using: &generator)
            if let centre = prior.centre, Double.random(in: 0..<1, using: &generator) < prior.trust {
                x = centre.x + prior.centreSpreadMm * normal()
                y = centre.y + prior.centreSpreadMm * normal()
            }
            let v = [
                x, y, width, height, Double.random(in: prior.readHeightMm, using: &generator),
                Double.random(in: exponents, using: &generator),
            ]
            if Self.logPrior(Coil(v), design) > -.infinity { return v }
        }
    }

    /// A standard normal deviate (Box-Muller).
    private mutating func normal() -> Double {
        let u = Double.random(in: Double.ulpOfOne..<1, using: &generator)
        let v = Double.random(in: 0..<1, using: &generator)
        return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
    }
}
