import Foundation
import NFCBenchRecords
import NFCLocatorCore
import Synchronization

/// Where a graded session (`run --coupling`) taps next: the position whose outcome the
/// coils still possible disagree on most.
///
/// A graded read says how deep inside the coil the reader was, so the bisection a binary
/// plan needs (a hit and a miss a few millimetres apart at every edge) is no longer the
/// only way to place an edge: a read a known depth inside it places it too. Which reads
/// tell the most depends on where the coil may still be, so the design keeps every coil
/// the taps so far allow, on a lattice of the back, weighted by how well it explains them
/// (the refinement's own `DetectionModel`), and taps where their predicted outcomes (a
/// miss, or the grade the ladder would give) are most evenly split: the outcome with the
/// most entropy, which is the tap's expected information about the coil.
///
/// Deterministic: the same taps give the same next position, so `--resume` continues a
/// graded session where it stopped.
struct GradedDesign: Sendable {
    let aspectRatio: Double
    /// The zone the verdict compares with: the design keeps positions for its evidence
    /// (`VerdictReserve`). `nil` without a prediction.
    let predicted: NormalizedRect?
    let model: DetectionModel
    /// The positions a graded session taps in all.
    let budget: Int
    /// The coils considered: edges on a lattice of `edgeColumns` x `edgeRows` steps.
    static let edgeColumns = 30
    static let edgeRows = 40
    /// Where a tap may go: the centres of a `probeColumns` x `probeRows` grid.
    static let probeColumns = 16
    static let probeRows = 32
    /// No coil is narrower or shorter than this (body heights): 15 mm on a 150 mm phone.
    static let minimumSide = 0.1
    /// Coils this far (log-likelihood) behind the best are dropped as the taps are read.
    static let dropBehind = 20.0
    /// Coils this far behind the best take no part in choosing the next tap.
    static let weighBehind = 9.0
    /// The most coils weighed when choosing the next tap (the likeliest).
    static let weighed = 3000
    /// A tap expected to tell less than this (nats) is not worth making.
    static let enough = 0.02

    /// The coils the taps so far still allow, kept between choices: a session asks after
    /// every tap, and each answer only adds one tap to the last.
    let memory = CoilMemory()

    /// The next position, or `nil` when the budget is spent, or no position would tell
    /// more and the verdict has its evidence.
    func next(
        after history: [(probe: Probe, hit: Bool)], grades: [(probe: Probe, coupling: Double)], skipped: Set<Probe> = [],
        first: Probe
    ) -> Probe? {
        guard history.count < budget else { return nil }
        guard !history.isEmpty else { return first }
        let table = GradeTable(model)
        // A skipped position counts against the budget and is not offered again, but it
        // read nothing: it is no silence, for the coils or for the verdict.
        let evidence = history.filter { !skipped.contains($0.probe) }
        let posterior = memory.posterior(for: Self.observations(evidence, grades)) { start, observed in
            read(observed, from: start, table)
        }
        guard let best = posterior.likelihood.max() else { return nil }
        var order = posterior.likelihood.indices.filter { posterior.likelihood[$0] >= best - Self.weighBehind }
        if order.count > Self.weighed {
            // Every k-th, not the likeliest: many coils tie, and keeping the first of a
            // tie would lean the choice towards one corner of the lattice.
            let stride = (order.count + Self.weighed - 1) / Self.weighed
            order = Swift.stride(from: 0, to: order.count, by: stride).map { order[$0] }
        }
        let weights = order.map { exp(posterior.likelihood[$0] - best) }
        let coils = order.map { posterior.coils[$0] }
        let inradii = coils.map(inradius)
        let tapped = Set(history.map(\.probe))
        let reserve = predicted.map { VerdictReserve(predicted: $0, aspectRatio: self.aspectRatio, history: evidence) }
        var candidates: [VerdictReserve.Candidate] = []
        var chosen: Probe?
        var most = Self.enough
        var readMass = [Double](repeating: 0, count: GradeTable.steps + 1)
        let total = weights.reduce(0, +)
        let sureNoise = Self.entropy(of: [model.sureRate, 1 - model.sureRate])
        let strayNoise = Self.entropy(of: [model.strayRate, 1 - model.strayRate])
        // The loop below runs millions of times per choice: the model's numbers are taken
        // out of it once (a debug build copies the model at every use).
        let (reach, softness, stray, sure) = (model.reach, model.softness, model.strayRate, model.sureRate)
        let entropies = table.entropies, aspectRatio = self.aspectRatio
        for row in 0..<Self.probeRows {
            for column in 0..<Self.probeColumns {
                let probe = Probe(
                    x: AdaptivePlan.rounded((Double(column) + 0.5) / Double(Self.probeColumns)),
                    y: AdaptivePlan.rounded((Double(row) + 0.5) / Double(Self.probeRows)))
                // A position tapped already is known: its grade comes back the same.
                guard !tapped.contains(probe) else { continue }
                for k in readMass.indices { readMass[k] = 0 }
                var missMass = 0.0, noise = 0.0
                for n in coils.indices {
                    let d = coils[n].signedDistance(x: probe.x, y: probe.y, aspectRatio: aspectRatio)
                    let w = weights[n]
                    let ramp = min(max((d + reach + softness) / (2 * softness), 0), 1)
                    let read = stray + (sure - stray) * ramp
                    let at = GradeTable.row(coupling: (d + reach) / (inradii[n] + reach))
                    readMass[at] += w * read
                    missMass += w * (1 - read)
                    let readNoise =
                        ramp <= 0 ? strayNoise : ramp >= 1 ? sureNoise : -read * log(read) - (1 - read) * log(1 - read)
                    noise += w * (readNoise + read * entropies[at])
                }
                // What the tap would tell about the coil: the entropy of its outcome over
                // every coil, less the noise each coil alone leaves in it.
                var outcome = [missMass / total]
                for k in 0..<table.grades {
                    var mass = 0.0
                    for at in readMass.indices where readMass[at] > 0 { mass += readMass[at] * table.chances[at][k] }
                    outcome.append(mass / total)
                }
                let information = Self.entropy(of: outcome) - noise / total
                if information > most + 1e-9 { (most, chosen) = (information, probe) }
                candidates.append(.init(probe: probe, readChance: 1 - missMass / total, information: information))
            }
        }
        // The verdict's evidence first once the positions left are only enough for it.
        if let reserve, !reserve.needs.isEmpty, chosen == nil || reserve.isDue(positionsLeft: budget - history.count) {
            return reserve.choose(from: candidates) ?? chosen
        }
        return chosen
    }

    /// Each tap as the likelihood reads it: where, whether it read, and its grade.
    static func observations(
        _ history: [(probe: Probe, hit: Bool)], _ grades: [(probe: Probe, coupling: Double)]
    ) -> [CoilMemory.Observation] {
        var unused = grades
        return history.map { probe, hit in
            var grade: Double?
            if hit, let i = unused.firstIndex(where: { $0.probe == probe }) { grade = unused.remove(at: i).coupling }
            return CoilMemory.Observation(probe: probe, hit: hit, grade: grade)
        }
    }

    /// `start` with `observed` added, tap by tap; after each, the coils that fell
    /// `dropBehind` behind the best are dropped. From nothing: every coil on the lattice
    /// at least `minimumSide` wide on this phone.
    /// A grade's likelihood comes from `table` (the model's own, at 1/256 of coupling).
    func read(
        _ observed: ArraySlice<CoilMemory.Observation>, from start: CoilMemory.Posterior?, _ table: GradeTable
    ) -> CoilMemory.Posterior {
        let narrowest = Self.minimumSide / aspectRatio - 1e-9
        var coils = start?.coils ?? Self.lattice
        var likelihood = start?.likelihood ?? priors(coils)
        let model = self.model, aspectRatio = self.aspectRatio
        for (n, tap) in observed.enumerated() {
            // Too narrow for this phone: left out as the first tap is read.
            let fresh = start == nil && n == 0
            var best = -Double.infinity
            let logChances = tap.grade.map { grade in table.logChances.map { $0[model.ladder.rungsRead(coupling: grade)] } }
            for i in coils.indices {
                let rect = coils[i]
                if fresh, rect.right - rect.left < narrowest {
                    likelihood[i] = -.infinity
                    continue
                }
                let d = rect.signedDistance(x: tap.probe.x, y: tap.probe.y, aspectRatio: aspectRatio)
                var ll = model.logLikelihood(hits: tap.hit ? 1 : 0, taps: 1, signedDistance: d)
                if let logChances {
                    let inradius = min((rect.right - rect.left) * aspectRatio, rect.bottom - rect.top) / 2
                    ll += logChances[GradeTable.row(coupling: (d + model.reach) / (inradius + model.reach))]
                }
                likelihood[i] += ll
                if likelihood[i] > best { best = likelihood[i] }
            }
            var keptCoils: [EdgeRect] = [], keptLikelihood: [Double] = []
            for i in coils.indices where likelihood[i] >= best - Self.dropBehind {
                keptCoils.append(coils[i])
                keptLikelihood.append(likelihood[i])
            }
            (coils, likelihood) = (keptCoils, keptLikelihood)
        }
        return CoilMemory.Posterior(coils: coils, likelihood: likelihood)
    }

    /// How far the prediction is trusted before any tap, in body heights: most of a
    /// coil's prior falls as a normal of this spread in the distance between its centre and
    /// the predicted centre. It decides where the design looks while nothing has read (with
    /// a flat prior it looked first where most coils could lie, the middle of the back, and
    /// a coil 0.25 body heights off the prediction went unfound in 12 positions one time in
    /// seven in `bench/verdicts`); once taps read, they outweigh it.
    static let predictionSpread = 0.3
    /// The share of the prior on "the prediction is wrong": spread evenly over every coil.
    /// With the normal alone, a coil whose catalog zone does not touch it (the S24's) was
    /// sought near the prediction long after the taps there stayed silent; with this share,
    /// silences near the prediction hand the search to the rest of the back, by Bayes' rule
    /// and nothing else.
    static let predictionWrong = 0.2

    /// The log prior of each coil: the normal around the prediction, normalised over
    /// `coils`, mixed with the even share `predictionWrong`. Flat without a prediction.
    func priors(_ coils: [EdgeRect]) -> [Double] {
        guard predicted != nil, !coils.isEmpty else { return [Double](repeating: 0, count: coils.count) }
        let near = coils.map(prior)
        let peak = near.max() ?? 0
        let mass = near.reduce(0) { $0 + exp($1 - peak) }
        let trusted = (1 - Self.predictionWrong) / mass, anywhere = Self.predictionWrong / Double(coils.count)
        return near.map { log(trusted * exp($0 - peak) + anywhere) }
    }

    func prior(_ coil: EdgeRect) -> Double {
        guard let predicted else { return 0 }
        let dx = ((coil.left + coil.right) / 2 - predicted.midX) * aspectRatio
        let dy = (coil.top + coil.bottom) / 2 - predicted.midY
        return -(dx * dx + dy * dy) / (2 * Self.predictionSpread * Self.predictionSpread)
    }

    static func entropy(of chances: [Double]) -> Double {
        chances.reduce(0) { h, p in p > 0 ? h - p * log(p) : h }
    }

    func inradius(_ rect: EdgeRect) -> Double {
        min((rect.right - rect.left) * aspectRatio, rect.bottom - rect.top) / 2
    }

    /// Every coil on the lattice at least `minimumSide` tall, built once: the design runs
    /// before every tap of a graded session. Reading the first tap drops those too narrow
    /// for the phone.
    static let lattice: [EdgeRect] = {
        var coils: [EdgeRect] = []
        for left in 0..<edgeColumns {
            for right in (left + 1)...edgeColumns {
                for top in 0..<edgeRows {
                    for bottom in (top + 1)...edgeRows where Double(bottom - top) / Double(edgeRows) >= minimumSide - 1e-9 {
                        coils.append(
                            EdgeRect(
                                left: Double(left) / Double(edgeColumns), top: Double(top) / Double(edgeRows),
                                right: Double(right) / Double(edgeColumns), bottom: Double(bottom) / Double(edgeRows)))
                    }
                }
            }
        }
        return coils
    }()
}

/// The chance of each grade for a read at each coupling, under the refinement's model,
/// tabulated once per choice: the design weighs thousands of coils at hundreds of positions.
struct GradeTable {
    static let steps = 256
    let grades: Int
    /// `chances[row][k]`: grade `k` (0: the default field only) at coupling `row / steps`.
    let chances: [[Double]]
    let entropies: [Double]
    /// The logarithms of `chances`, floored as the model floors them.
    let logChances: [[Double]]

    init(_ model: DetectionModel) {
        grades = model.ladder.profiles.count
        chances = (0...Self.steps).map { row in
            let c = Double(row) / Double(Self.steps)
            return (0..<model.ladder.profiles.count).map { k in
                DetectionModel.normalBelow((model.gradeHighs[k] - c) / model.gradeSpread)
                    - DetectionModel.normalBelow((model.gradeLows[k] - c) / model.gradeSpread)
            }
        }
        entropies = chances.map(GradedDesign.entropy(of:))
        logChances = chances.map { $0.map { log(max($0, 1e-9)) } }
    }

    static func row(coupling: Double) -> Int { Int((min(max(coupling, 0), 1) * Double(Self.steps)).rounded()) }
}

/// The coils a graded session's taps allow, after how many of its taps. A plan is
/// rebuilt for every session and asked after every tap; this keeps the last answer so the
/// next one reads one tap more, not all of them again. The same taps give the same
/// coils either way: they are always read in order.
final class CoilMemory: Sendable {
    struct Observation: Equatable, Sendable {
        let probe: Probe
        let hit: Bool
        let grade: Double?
    }

    struct Posterior: Sendable {
        let coils: [EdgeRect]
        let likelihood: [Double]
    }

    private let last = Mutex<(observed: [Observation], posterior: Posterior?)>(([], nil))

    /// The coils after `observed`: the kept ones read on from where they stopped when
    /// `observed` continues the taps they were read from, else read afresh.
    func posterior(
        for observed: [Observation], reading: (Posterior?, ArraySlice<Observation>) -> Posterior
    ) -> Posterior {
        let kept = last.withLock { $0 }
        let continues = kept.posterior != nil && observed.starts(with: kept.observed)
        let posterior =
            continues
            ? reading(kept.posterior, observed[kept.observed.count...]) : reading(nil, observed[...])
        last.withLock { $0 = (observed, posterior) }
        return posterior
    }
}
