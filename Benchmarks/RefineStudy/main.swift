import Foundation
import NFCBench
import NFCBenchRecords
import NFCLocatorCore
import NFCReaders

// Accuracy of `nfcbench refine` on simulated labs (the physical world by default,
// `PhysicalLabs`; MODEL=linear: the toy model below): each lab runs sessions of one model
// against a phone whose true coil differs from the catalog, refining after every
// session (the closed loop). Prints the IoU of the refined zone with the truth after
// each session (mean and worst over labs) and the taps per session, per plan.
// Usage: RefineStudy SEED_CATALOG [labs] [sessions] [reach-mm]

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: RefineStudy SEED_CATALOG [labs] [sessions] [reach-mm]\n".utf8))
    exit(64)
}
let seed = Catalog(document: try CatalogDocumentDecoder.load(contentsOf: URL(fileURLWithPath: arguments[1])))
let labs = arguments.count > 2 ? Int(arguments[2]) ?? 20 : 20
let sessions = arguments.count > 3 ? Int(arguments[3]) ?? 6 : 6
let reachMm = arguments.count > 4 ? Double(arguments[4]) ?? 2.94 : 2.94
/// `JITTER_MM`: how far a placement lands from the position asked for (a normal's spread per
/// axis, in mm): 0, a rig's exact placement, unless given; a hand is off by 1-2 mm.
let jitterMm =
    ProcessInfo.processInfo.environment["JITTER_MM"].flatMap(Double.init).flatMap { $0.isFinite && $0 > 0 ? $0 : nil } ?? 0
// The physical world (two coupled loops) unless MODEL=linear names the toy model.
if ProcessInfo.processInfo.environment["MODEL"] != "linear" {
    PhysicalLabs.run(seed: seed, labs: labs, sessions: sessions, reachMm: reachMm)
    exit(0)
}
if jitterMm > 0 { print(String(format: "placements land off by a normal of %.1f mm per axis (JITTER_MM)", jitterMm)) }

/// The baseline: the box around every position that ever read, no model.
func boundingBoxOfReads(_ evidence: [SessionEvidence]) -> NormalizedRect? {
    let reads = evidence.flatMap(\.taps).filter { $0.result == .hit }
    guard let x0 = reads.map(\.probeX).min(), let x1 = reads.map(\.probeX).max(),
        let y0 = reads.map(\.probeY).min(), let y1 = reads.map(\.probeY).max()
    else { return nil }
    return try? NormalizedRect(x: x0, y: y0, width: max(x1 - x0, 0.01), height: max(y1 - y0, 0.01))
}

struct Case { let name: String; let model: String; let truth: (Double, Double, Double, Double) }
let cases = [
    // gematik's SM-S921B rectangle (x0 0.028, y0 0.068, x1 0.699, y1 0.342); the seed reuses the S23 zone.
    Case(name: "S24: truth gematik, catalog S23 zone", model: "SM-S921B", truth: (0.028, 0.068, 0.671, 0.274)),
    Case(name: "S24+: catalog zone shifted 0.2 body heights up", model: "SM-S926B", truth: (0.1, 0.16, 0.8, 0.38)),
    Case(name: "S24+: truth half the catalog zone's area", model: "SM-S926B", truth: (0.2, 0.45, 0.6, 0.25)),
]
/// One lab of a case. One physical reader across models: its reach is millimetres, so in
/// body heights (the simulated phone's unit) it is smaller on a taller phone.
func makeLab(_ c: Case, profile: DeviceAntennaProfile, plan: PlanKind, learns: Bool, lab: Int) -> SimulatedLab {
    let phone = SimulatedPhone(
        antenna: c.truth, aspectRatio: profile.aspectRatio, readerRadius: reachMm / profile.bodyHeightMm!)
    var simulated = SimulatedLab(
        model: c.model, phone: phone, plan: plan, seed: seed,
        refiner: CatalogRefiner(resolver: AntennaZoneResolver(remote: nil, seed: seed), reachMm: reachMm),
        randomSeed: UInt64(lab + 1))
    simulated.learns = learns
    simulated.placementJitter = jitterMm / profile.bodyHeightMm!
    return simulated
}

/// `COUPLING=1`: one session per lab, refined from its binary taps and from the same taps
/// graded down the analog ladder (`run --coupling`), for every plan; what the grading
/// costs per position in reader time; and, as the baseline, the binary adaptive plan's
/// own first session. `DEBUG_IOU=0.8` prints the taps of every graded session below 0.8;
/// `ONLY_GRADED=1` runs the graded adaptive plan alone; `HIST=1` prints every lab's IoU.
func couplingStudy(_ c: Case, profile: DeviceAntennaProfile, truth: NormalizedRect) {
    // A first session plans alike whether or not the plan learns: nothing to learn from yet.
    // The last row is the baseline: the same labs' first sessions with the binary adaptive
    // plan, no grading at all (what a run without --coupling does).
    // ONLY_GRADED=1: the graded adaptive row alone, to try a change to the design quickly.
    let rows: [(PlanKind, Bool)] =
        ProcessInfo.processInfo.environment["ONLY_GRADED"] != nil
        ? [(.adaptive, true)] : [(.grid, true), (.adaptive, true), (.adaptive, false)]
    for (plan, grading) in rows {
        let learns = false
        var graded: [Double] = [], binary: [Double] = [], taps: [Int] = [], seconds: [Double] = []
        // The plan's own computation (the graded design's, mostly): a session of the
        // simulated lab is the plan choosing and the phone drawn, no reader.
        var planning = Duration.zero
        for lab in 0..<labs {
            var simulated = makeLab(c, profile: profile, plan: plan, learns: learns, lab: lab)
            simulated.coupling = grading ? .standard : nil
            let clock = ContinuousClock(), began = clock.now
            let ran = simulated.runSession()
            planning += clock.now - began
            taps.append(ran.taps.count)
            let entry = simulated.refine().entries.first
            graded.append(entry?.estimate?.zone.iou(with: truth) ?? 0)
            binary.append((entry?.binaryEstimate ?? entry?.estimate)?.zone.iou(with: truth) ?? 0)
            if let debug = ProcessInfo.processInfo.environment["DEBUG_IOU"].flatMap(Double.init), graded.last! < debug,
                let entry, let estimate = entry.estimate
            {
                let estimator = ZoneEstimator(
                    model: DetectionModel(reach: reachMm / profile.bodyHeightMm!), aspectRatio: profile.aspectRatio)
                print(
                    String(
                        format: "    lab %d %@: IoU %.3f  LL estimate %.2f truth %.2f  estimate %@", lab, "\(plan)", graded.last!,
                        estimate.logLikelihood, estimator.logLikelihood(of: truth, entry.evidence.positions), "\(estimate.zone)"))
                print(
                    "      "
                        + ran.taps.map {
                            "(\($0.probeX),\($0.probeY))\($0.result == .hit ? "+" : "-")\($0.coupling.map { String(format: "%.2f", $0) } ?? "")"
                        }.joined(separator: " "))
            }
            // Reader time: a miss is one poll round (0.45 s) and, asked again at the middle
            // profile (a saturated phone), a field cycle (~0.06 s) and a second round; a hit
            // answers its first poll (~0.05 s), then each rung that reads costs an answer and
            // a field cycle (~0.06 s) and the rung that ends the walk a whole round.
            let rungs = CouplingLadder.standard.profiles.count - 1
            seconds.append(
                ran.taps.map { t -> Double in
                    guard grading else { return t.result == .hit ? 0.05 : 0.45 }  // one poll round at most
                    guard t.result == .hit, let grade = t.coupling else { return 0.45 + 0.06 + 0.45 }
                    let read = CouplingLadder.standard.rungsRead(coupling: grade)
                    return 0.05 + Double(read) * 0.06 + (read < rungs ? 0.45 : 0)
                }.reduce(0, +) / Double(max(ran.taps.count, 1)))
        }
        // HIST=1: how many labs ended at each graded IoU. The simulated labs' luck is
        // common to plans and its phone grades without noise, so labs clump on a few paths.
        if ProcessInfo.processInfo.environment["HIST"] != nil {
            var counts: [String: Int] = [:]
            for v in graded { counts[String(format: "%.3f", v), default: 0] += 1 }
            let values = counts.sorted { $0.key < $1.key }.map { "\($0.key)x\($0.value)" }
            print("    graded IoU values: " + values.joined(separator: " "))
        }
        func stats(_ v: [Double]) -> String {
            String(format: "mean %.3f, p5 %.3f, worst %.3f", v.reduce(0, +) / Double(v.count), v.sorted()[v.count / 20], v.min()!)
        }
        print(
            String(
                format:
                    "  %@, one session (median %d taps): graded IoU %@; binary IoU %@; reader time %.2f s/position; "
                    + "plan %.1f ms/position",
                (plan == .grid ? "grid" : grading ? "adaptive" : "adaptive, no --coupling (baseline)") as NSString,
                taps.sorted()[taps.count / 2],
                stats(graded) as NSString,
                stats(binary) as NSString, seconds.reduce(0, +) / Double(seconds.count),
                Double(planning.components.attoseconds) / 1e15 / Double(max(taps.reduce(0, +), 1))
                    + Double(planning.components.seconds) * 1000 / Double(max(taps.reduce(0, +), 1))))
    }
}

for c in cases {
    let profile = seed.profiles.first { $0.lookupKey == CatalogKey.normalize(c.model) }!
    let seedZone = profile.zone
    let truth = try NormalizedRect(x: c.truth.0, y: c.truth.1, width: c.truth.2, height: c.truth.3)
    print("\(c.name)  (seed prediction IoU with truth \(String(format: "%.2f", seedZone.iou(with: truth))))")
    if ProcessInfo.processInfo.environment["COUPLING"] != nil {
        couplingStudy(c, profile: profile, truth: truth)
        continue
    }
    let plans: [(PlanKind, Bool)] =
        ProcessInfo.processInfo.environment["ONLY_LEARNING"] != nil
        ? [(.adaptive, true)] : [(PlanKind.grid, false), (.adaptive, false), (.adaptive, true)]
    for (plan, learns) in plans {
        var ious = Array(repeating: [Double](), count: sessions)
        var naive = Array(repeating: [Double](), count: sessions)
        var taps: [Int] = []
        var tapsBySession = Array(repeating: [Int](), count: sessions)
        for lab in 0..<labs {
            var simulated = makeLab(c, profile: profile, plan: plan, learns: learns, lab: lab)
            for n in 0..<sessions {
                let ran = simulated.runSession()
                taps.append(ran.taps.count)
                tapsBySession[n].append(ran.taps.count)
                let report = simulated.refine()
                ious[n].append(report.entries.first?.estimate?.zone.iou(with: truth) ?? 0)
                if ProcessInfo.processInfo.environment["DEBUG_IOU"].flatMap(Double.init).map({ ious[n].last! < $0 }) == true {
                    print(
                        "    lab \(lab) session \(n + 1) \(plan): IoU \(ious[n].last!) estimate \(String(describing: report.entries.first?.estimate?.zone))"
                    )
                    if let entry = report.entries.first, let estimate = entry.estimate {
                        let estimator = ZoneEstimator(
                            model: DetectionModel(reach: reachMm / profile.bodyHeightMm!), aspectRatio: profile.aspectRatio)
                        print(
                            "      log-likelihood at the estimate \(estimate.logLikelihood), at the truth \(estimator.logLikelihood(of: truth, entry.evidence.positions))"
                        )
                    }
                    print(
                        "      "
                            + ran.taps.map { "(\($0.probeX),\($0.probeY))\($0.result == .hit ? "+" : "-")" }.joined(
                                separator: " "))
                }
                naive[n].append(boundingBoxOfReads(simulated.evidence)?.iou(with: truth) ?? 0)
            }
        }
        func mean(_ v: ArraySlice<Double>) -> Double { v.reduce(0, +) / Double(v.count) }
        func row(_ values: [[Double]]) -> String {
            values.enumerated().map { n, v in String(format: "%d: %.3f/%.3f", n + 1, mean(v[...]), v.min()!) }
                .joined(separator: "  ")
        }
        /// With more than 20 labs: the 5th percentile over all, and the range of the mean and
        /// the worst over consecutive blocks of 20 (what one 20-lab run would have shown).
        func blocks(_ values: [[Double]]) -> String? {
            guard labs >= 40 else { return nil }
            return values.enumerated().map { n, v in
                let parts = stride(from: 0, to: v.count - 19, by: 20).map { v[$0..<$0 + 20] }
                let means = parts.map(mean), worsts = parts.map { $0.min()! }
                return String(
                    format: "%d: p5 %.2f, mean %.2f-%.2f, worst %.2f-%.2f", n + 1, v.sorted()[v.count / 20], means.min()!,
                    means.max()!, worsts.min()!, worsts.max()!)
            }.joined(separator: "  ")
        }
        print(
            String(
                format: "  %@: %.1f taps/session (median %d, min %d, max %d)",
                (plan == .grid ? "grid" : learns ? "adaptive, learning" : "adaptive, not learning") as NSString,
                Double(taps.reduce(0, +)) / Double(taps.count), taps.sorted()[taps.count / 2], taps.min()!, taps.max()!))
        print(
            "    median taps in session n  "
                + tapsBySession.enumerated().map { "\($0 + 1): \($1.sorted()[$1.count / 2])" }.joined(separator: "  "))
        print("    refine        IoU mean/worst after n sessions  " + row(ious))
        if let blocks = blocks(ious) { print("      over \(labs) labs, in blocks of 20  " + blocks) }
        print("    baseline box  IoU mean/worst after n sessions  " + row(naive))
        let ratio = ious[min(2, sessions - 1)].reduce(0, +) / max(naive[min(2, sessions - 1)].reduce(0, +), 1e-9)
        print(String(format: "    after %d sessions refine/baseline = %.2fx", min(3, sessions), ratio))
    }
}
