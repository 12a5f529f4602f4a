import Foundation
import NFCBench
import NFCBenchRecords
import NFCLocatorCore
import NFCPhysics
import NFCReaders
import Synchronization

/// The closed loop `run` -> `refine -o PATCH` -> `run --catalog PATCH` in the physical world
/// (two coupled loops, docs/physics.md), the default of `bench/refine`: each lab holds a
/// Galaxy S24 whose true coil is 20-60 mm per side, centred within 10 mm of the seed
/// catalog's inferred zone (the S23's), under a reader of its own; sessions of `run`'s
/// default there (the coil plan, graded, at most 16 positions by hand) refine after each.
///
/// Each lab also has a gap of 2-10 mm, a phone that reads 15-30 mm above its coil, a chip whose
/// rung law (exponent 0.7-1.6) the fit does not know, a threshold scatter of 10 % and a
/// hand whose placements land off by a normal of 1.5 mm per axis (`SimulatedLab`'s
/// jitter). Scored in millimetres against the true coil: the coil `refine` writes
/// (`EntryRefinement.coil`), and beside it, as the baseline measured on the same taps, the
/// read region's fit (`estimate`), which is what `refine` wrote before the physics.
enum PhysicalLabs {
    /// One study row: the benches a lab's sessions take turns on.
    struct Row: Sendable {
        let name: String
        /// The readers' antenna sides, mm, one per bench; `nil`: the lab's own reader, 20-60 mm.
        let readersMm: [Double]?
    }

    static let rows = [
        Row(name: "one bench, its reader 20-60 mm", readersMm: nil),
        Row(name: "two benches, 20 mm and 60 mm readers in turn (pooled)", readersMm: [20, 60]),
    ]

    struct Truth: Sendable {
        let coil: (x: Double, y: Double, width: Double, height: Double)
        let gapMm: Double
        let readHeightMm: Double
        let exponent: Double
        let readerMm: Double
    }

    /// One lab's world, drawn from its own seed.
    static func truth(lab: Int, profile: DeviceAntennaProfile) -> Truth {
        var rng = SeededGenerator(seed: UInt64(lab + 1) &* 7_777)
        let bodyW = profile.bodyHeightMm! * profile.aspectRatio, bodyH = profile.bodyHeightMm!
        let zone = profile.zone
        let w = Double.random(in: 20...60, using: &rng), h = Double.random(in: 20...60, using: &rng)
        let angle = Double.random(in: 0..<(2 * .pi), using: &rng), shift = 10 * Double.random(in: 0...1, using: &rng).squareRoot()
        let cx = zone.midX * bodyW + shift * cos(angle), cy = zone.midY * bodyH + shift * sin(angle)
        let x = min(max(cx - w / 2, 1), bodyW - w - 1), y = min(max(cy - h / 2, 1), bodyH - h - 1)
        return Truth(
            coil: (x, y, w, h), gapMm: Double.random(in: 2...10, using: &rng),
            readHeightMm: Double.random(in: 15...30, using: &rng), exponent: Double.random(in: 0.7...1.6, using: &rng),
            readerMm: Double.random(in: 20...60, using: &rng))
    }

    /// Per session n (0-based): the refined coil's and the read region's IoU and centre error.
    struct Outcome: Sendable {
        var coilIoU: [Double] = [], coilOffset: [Double] = [], regionIoU: [Double] = [], regionOffset: [Double] = []
        var taps: [Int] = []
        var seconds = 0.0
    }

    static func lab(
        _ index: Int, row: Row, profile: DeviceAntennaProfile, seed: Catalog, sessions: Int, reachMm: Double
    ) -> Outcome {
        let t = truth(lab: index, profile: profile)
        let bodyW = profile.bodyHeightMm! * profile.aspectRatio, bodyH = profile.bodyHeightMm!
        var phone = SimulatedPhone(
            antenna: (t.coil.x / bodyW, t.coil.y / bodyH, t.coil.width / bodyW, t.coil.height / bodyH),
            aspectRatio: profile.aspectRatio, missRate: 0.03)
        phone.readHeightMm = t.readHeightMm
        phone.couplingModel = .mutualInductance(
            PhysicalBench(
                reader: ReaderAntenna(widthMm: t.readerMm, heightMm: t.readerMm), bodyHeightMm: bodyH, gapMm: t.gapMm,
                thresholdSpread: 0.1, rungFieldExponent: t.exponent))
        var simulated = SimulatedLab(
            model: profile.modelIdentifier, phone: phone, plan: .coil, seed: seed,
            refiner: CatalogRefiner(resolver: AntennaZoneResolver(remote: nil, seed: seed), reachMm: reachMm),
            randomSeed: UInt64(index + 1))
        simulated.learns = false
        simulated.coupling = .standard
        simulated.placementJitter = 1.5 / bodyH
        simulated.readers = (row.readersMm ?? [t.readerMm]).map {
            ReaderGeometry(antennaWidthMm: $0, antennaHeightMm: $0, gapMm: t.gapMm, source: "study")
        }
        var outcome = Outcome()
        let started = Date()
        for _ in 0..<sessions {
            outcome.taps.append(simulated.runSession().taps.count)
            let entry = simulated.refine().entries.first
            let coil = entry?.coil?.rectangle
            outcome.coilIoU.append(coil.map { iou($0, t.coil) } ?? 0)
            outcome.coilOffset.append(coil.map { offset($0, t.coil) } ?? .infinity)
            let region: Rect? = entry?.estimate.map { estimate -> Rect in
                let z = estimate.zone
                return (z.x * bodyW, z.y * bodyH, z.width * bodyW, z.height * bodyH)
            }
            outcome.regionIoU.append(region.map { iou($0, t.coil) } ?? 0)
            outcome.regionOffset.append(region.map { offset($0, t.coil) } ?? .infinity)
        }
        outcome.seconds = Date().timeIntervalSince(started)
        return outcome
    }

    typealias Rect = (x: Double, y: Double, width: Double, height: Double)
    static func iou(_ a: Rect, _ b: Rect) -> Double {
        let ix = max(0, min(a.x + a.width, b.x + b.width) - max(a.x, b.x))
        let iy = max(0, min(a.y + a.height, b.y + b.height) - max(a.y, b.y))
        return ix * iy / (a.width * a.height + b.width * b.height - ix * iy)
    }
    static func offset(_ a: Rect, _ b: Rect) -> Double {
        hypot(a.x + a.width / 2 - b.x - b.width / 2, a.y + a.height / 2 - b.y - b.height / 2)
    }
    static func quantile(_ values: [Double], _ q: Double) -> Double {
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, max(0, Int((q * Double(sorted.count - 1)).rounded())))]
    }
    static func summary(iou: [Double], offset: [Double]) -> String {
        let finite = offset.filter(\.isFinite)
        return String(
            format: "centre %.1f / %.1f / %.1f mm, IoU %.2f / %.2f / %.2f", finite.reduce(0, +) / Double(max(finite.count, 1)),
            quantile(offset, 0.95), offset.max() ?? 0, iou.reduce(0, +) / Double(max(iou.count, 1)), quantile(iou, 0.05),
            iou.min() ?? 0)
    }

    static func run(seed: Catalog, labs: Int, sessions: Int, reachMm: Double) {
        let profile = seed.profiles.first { $0.lookupKey == CatalogKey.normalize("SM-S921B") }!
        print(
            "physical world (MODEL=linear: the toy model): \(labs) labs, a Galaxy S24 whose coil is 20-60 mm, centred within"
                + " 10 mm of the seed's inferred zone;")
        print(
            "gap 2-10 mm, a chip whose rung law the fit does not know, placements off by 1.5 mm per axis; each session"
                + " `run`'s default (the coil plan, graded), refined after each")
        print("figures: centre mean / p95 / worst, IoU with the true coil mean / p5 / worst")
        for row in rows {
            let outcomes = Mutex<[Int: Outcome]>([:])
            DispatchQueue.concurrentPerform(iterations: labs) { index in
                let outcome = lab(index, row: row, profile: profile, seed: seed, sessions: sessions, reachMm: reachMm)
                outcomes.withLock { $0[index] = outcome }
            }
            let all = outcomes.withLock { $0 }.sorted { $0.key < $1.key }.map(\.value)
            let taps = all.flatMap(\.taps).sorted()
            print(
                "\(row.name): positions per session median \(taps[taps.count / 2]), most \(taps.last ?? 0);"
                    + String(format: " %.1f s per lab", all.map(\.seconds).reduce(0, +) / Double(labs)))
            for n in 0..<sessions {
                print("  after \(n + 1) session(s)")
                print(
                    "    refine's coil:              "
                        + summary(iou: all.map { $0.coilIoU[n] }, offset: all.map { $0.coilOffset[n] }))
                print(
                    "    read region (the baseline): "
                        + summary(iou: all.map { $0.regionIoU[n] }, offset: all.map { $0.regionOffset[n] }))
            }
        }
    }
}
