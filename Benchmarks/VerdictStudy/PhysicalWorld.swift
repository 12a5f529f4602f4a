import Foundation
import NFCBench
import NFCBenchRecords
import NFCLocatorCore
import NFCPhysics
import NFCReaders
import Synchronization

/// The verdict study's world by default: the phone couples as two loops do (docs/physics.md),
/// on a bench of its own per session: a square reader antenna of 20-60 mm, a gap of 2-10 mm,
/// a phone that reads 15-30 mm above its coil, a chip whose rung law (exponent 0.7-1.6) no
/// fit knows, a threshold scatter of 10 % and 3 % of reads missed, a hand whose placements
/// land off by a normal of 1.5 mm per axis. The coil is a rectangle in millimetres on the
/// entry's published body. `MODEL=linear` studies the toy model instead.
enum PhysicalWorld {
    struct Bench: Sendable {
        let readerMm: Double
        let gapMm: Double
        let readHeightMm: Double
        let exponent: Double

        init(_ rng: inout SeededGenerator) {
            readerMm = Double.random(in: 20...60, using: &rng)
            gapMm = Double.random(in: 2...10, using: &rng)
            readHeightMm = Double.random(in: 15...30, using: &rng)
            exponent = Double.random(in: 0.7...1.6, using: &rng)
        }

        /// What the session records: the operator gives the reader's antenna and gap.
        var geometry: ReaderGeometry {
            ReaderGeometry(antennaWidthMm: readerMm, antennaHeightMm: readerMm, gapMm: gapMm, source: "study")
        }

        /// The entry's phone with its coil at `coil` (fractions of the back) on this bench.
        func phone(_ profile: DeviceAntennaProfile, coil: (Double, Double, Double, Double)) -> SimulatedPhone {
            var phone = SimulatedPhone(antenna: coil, aspectRatio: profile.aspectRatio, missRate: 0.03)
            phone.answersAndroidHCE = PhonePlatform(modelIdentifier: profile.lookupKey) != .iOS
            phone.readHeightMm = readHeightMm
            phone.couplingModel = .mutualInductance(
                PhysicalBench(
                    reader: ReaderAntenna(widthMm: readerMm, heightMm: readerMm), bodyHeightMm: profile.bodyHeightMm!,
                    gapMm: gapMm, thresholdSpread: 0.1, rungFieldExponent: exponent))
            return phone
        }
    }

    /// The truth for a case, in fractions of the back: the prediction itself; its centre
    /// moved 10-15 mm (the "wrong": within the body, at least 10 mm off); half its
    /// area around its centre; or no phone.
    static func truth(_ kind: Truth, of zone: NormalizedRect, _ profile: DeviceAntennaProfile, _ rng: inout SeededGenerator)
        -> (Double, Double, Double, Double)?
    {
        let heightMm = profile.bodyHeightMm!, widthMm = heightMm * profile.aspectRatio
        switch kind {
        case .prediction: return (zone.x, zone.y, zone.width, zone.height)
        case .half:
            let w = zone.width / 2.squareRoot(), h = zone.height / 2.squareRoot()
            return (zone.midX - w / 2, zone.midY - h / 2, w, h)
        case .absent: return nil
        case .shifted:
            // Up to 64 tries for a direction that leaves the coil on the body 10 mm or more off.
            for _ in 0..<64 {
                let angle = Double.random(in: 0..<(2 * .pi), using: &rng), shift = Double.random(in: 10...15, using: &rng)
                let x = zone.x + shift * cos(angle) / widthMm, y = zone.y + shift * sin(angle) / heightMm
                guard x >= 0, y >= 0, x + zone.width <= 1, y + zone.height <= 1 else { continue }
                return (x, y, zone.width, zone.height)
            }
            return nil
        }
    }

    /// A normal deviate (Box-Muller).
    static func normal(_ rng: inout SeededGenerator) -> Double {
        let u = Double.random(in: Double.ulpOfOne..<1, using: &rng), v = Double.random(in: 0..<1, using: &rng)
        return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
    }

    /// One session of `plan` by hand: its verdict, taps and reason.
    static func session(
        _ plan: StudiedPlan, profile: DeviceAntennaProfile, coil: (Double, Double, Double, Double)?, bench: Bench,
        _ rng: inout SeededGenerator
    ) -> (verdict: SessionVerdict, taps: Int, reason: String) {
        let zone = profile.zone, heightMm = profile.bodyHeightMm!
        let physics = PlanPhysics(reader: bench.geometry, bodyHeightMm: heightMm)
        let strategy = ProbePlans.make(plan.kind, around: zone, aspectRatio: profile.aspectRatio, physics: physics)
        let phone = coil.map { bench.phone(profile, coil: $0) }
        var history: [(probe: Probe, hit: Bool)] = [], grades: [(probe: Probe, coupling: Double)] = []
        while let probe = strategy.next(after: history, grades: plan.graded ? grades : nil), history.count < 100 {
            let landedX = probe.x + 1.5 * normal(&rng) / (heightMm * profile.aspectRatio)
            let landedY = probe.y + 1.5 * normal(&rng) / heightMm
            let p = phone?.detectionProbability(x: landedX, y: landedY) ?? 0
            let hit = Double.random(in: 0..<1, using: &rng) < p
            history.append((probe, hit))
            if plan.graded, hit, let phone {
                grades.append(
                    (probe, SimulatedLab.grade(on: .standard) { phone.answers(fieldThreshold: $0, x: landedX, y: landedY) }))
            }
        }
        let score = SessionScore(
            predicted: zone, history: history, grades: grades, strategy: strategy, aspectRatio: profile.aspectRatio)
        // COIL_VERDICT=1: every plan's session judged by the tests on the coil fitted from its
        // taps (`CoilVerdict`), as the coil plan's are, instead of the tap rules.
        if ProcessInfo.processInfo.environment["COIL_VERDICT"] == "1", plan.kind != .coil, history.contains(where: \.hit),
            let judged = CoilPlan(around: zone, aspectRatio: profile.aspectRatio, physics: physics).coilJudgement(
                predicted: zone, history: history, grades: grades)
        {
            return (judged.0, history.count, judged.1)
        }
        return (score.verdict, history.count, score.reason)
    }

    /// `run`'s default where it knows the reader and can grade (the coil plan, graded); the
    /// coil plan binary (`--no-coupling`, or a reader that cannot weaken its field); the
    /// adaptive plan binary (tag mode's default) and graded; the grid.
    static let plans = [
        StudiedPlan(kind: .coil, graded: true), StudiedPlan(kind: .coil, graded: false),
        StudiedPlan(kind: .adaptive, graded: false), StudiedPlan(kind: .adaptive, graded: true),
        StudiedPlan(kind: .grid, graded: false),
    ]

    /// The confusion matrix of every plan over every entry, `seeds` sessions per entry, plan
    /// and truth (a quarter of them for the graded plans, whose designs cost a fit a position).
    /// PLANS=coil+grades,adaptive: those rows alone (the names the table prints).
    static var studied: [StudiedPlan] {
        guard let names = ProcessInfo.processInfo.environment["PLANS"]?.split(separator: ",").map(String.init) else {
            return plans
        }
        return plans.filter { names.contains($0.name) }
    }

    static func planTable(_ seed: Catalog, seeds: Int) -> (
        matrix: [String: [SessionVerdict: Int]], taps: [String: [Int]], reasons: [String: [String: Int]]
    ) {
        let profiles = seed.profiles.filter { $0.bodyHeightMm != nil }
        let plans = studied
        let jobs = profiles.indices.flatMap { p in plans.indices.flatMap { k in Truth.allCases.map { (p, k, $0) } } }
        let results = Mutex<[(String, SessionVerdict, Int, String, Bool)]>([])
        DispatchQueue.concurrentPerform(iterations: jobs.count) { j in
            let (p, k, kind) = jobs[j]
            let profile = profiles[p], plan = plans[k]
            var local: [(String, SessionVerdict, Int, String, Bool)] = []
            for s in 0..<(plan.graded ? max(1, seeds / 4) : seeds) {
                // The world (bench, truth, luck) is the entry's and the seed's: every plan meets the same labs.
                var rng = SeededGenerator(
                    seed: UInt64(p + 1) &* 1_000_003 &+ UInt64(s) &* 101 &+ UInt64(Truth.allCases.firstIndex(of: kind)!))
                let bench = Bench(&rng)
                let coil = truth(kind, of: profile.zone, profile, &rng)
                // No room on the body to move the coil 10 mm: the case is left out.
                if kind != .absent, coil == nil { continue }
                let outcome = session(plan, profile: profile, coil: coil, bench: bench, &rng)
                local.append(
                    ("\(plan.name) | \(label(kind))", outcome.verdict, outcome.taps, outcome.reason, kind == .prediction))
            }
            results.withLock { $0 += local }
        }
        var matrix: [String: [SessionVerdict: Int]] = [:], taps: [String: [Int]] = [:], reasons: [String: [String: Int]] = [:]
        for (key, verdict, count, reason, right) in results.withLock({ $0 }) {
            matrix[key, default: [:]][verdict, default: 0] += 1
            taps[key, default: []].append(count)
            if verdict == .inconclusive || (right && verdict != .confirmed) {
                reasons[key, default: [:]][reason, default: 0] += 1
            }
        }
        return (matrix, taps, reasons)
    }
}
