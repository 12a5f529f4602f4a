import Foundation
import NFCBench
import NFCBenchRecords
import NFCBenchStoreSQLite
import NFCLocatorCore
import NFCReaders

// Verdict study (not a speed benchmark): for every seed catalog entry, both plans and N
// seeds, a simulated phone whose coil is
//   - the prediction itself,
//   - the prediction shifted by 0.25 body heights (up, or down when there is no room),
//   - half the prediction's size around its centre,
//   - absent (the phone is not emulating a card),
// is tapped at every position its plan asks for; taps read with the simulated phone's
// detection probability (3% misses over the coil, reader reach and fall-off at edges).
// Prints the confusion matrix of verdicts against the truth and checks the targets.
// Usage: VerdictStudy SEED_CATALOG [seeds]

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: VerdictStudy SEED_CATALOG [seeds]\n".utf8))
    exit(64)
}
let seed = Catalog(document: try CatalogDocumentDecoder.load(contentsOf: URL(fileURLWithPath: arguments[1])))
let seeds = arguments.count > 2 ? Int(arguments[2]) ?? 20 : 20

enum Truth: String, CaseIterable {
    case prediction = "truth = prediction", shifted = "shifted 0.25 body heights", half = "half the size", absent =
        "not emulating"
}

func truth(_ kind: Truth, of zone: NormalizedRect) -> (Double, Double, Double, Double)? {
    switch kind {
    case .prediction: return (zone.x, zone.y, zone.width, zone.height)
    case .shifted:
        let dy = zone.y >= 0.25 ? -0.25 : 0.25
        let y = min(max(zone.y + dy, 0), 1 - zone.height)
        return (zone.x, y, zone.width, zone.height)
    case .half:
        let w = zone.width / 2.squareRoot(), h = zone.height / 2.squareRoot()
        return (zone.midX - w / 2, zone.midY - h / 2, w, h)
    case .absent: return nil
    }
}

/// The physical world (two coupled loops, `PhysicalWorld`) unless MODEL=linear names the toy model.
let physicalWorld = ProcessInfo.processInfo.environment["MODEL"] != "linear"
@Sendable func label(_ kind: Truth) -> String { physicalWorld && kind == .shifted ? "shifted 10-15 mm" : kind.rawValue }

var generator = SeededGenerator(seed: 2026)
var matrix: [String: [SessionVerdict: Int]] = [:]
var taps: [String: [Int]] = [:]
var reasons: [String: [String: Int]] = [:]
/// The plans studied: a graded adaptive session (`run --coupling`) chooses its own
/// positions from the grades (`GradedDesign`), so it is a plan of its own here.
struct StudiedPlan {
    let kind: PlanKind
    let graded: Bool
    var name: String { kind.rawValue + (graded ? "+grades" : "") }
}
let studied =
    physicalWorld
    ? PhysicalWorld.studied
    : [
        StudiedPlan(kind: .grid, graded: false), StudiedPlan(kind: .adaptive, graded: false),
        StudiedPlan(kind: .adaptive, graded: true),
    ]
if physicalWorld {
    let began = Date()
    (matrix, taps, reasons) = PhysicalWorld.planTable(seed, seeds: seeds)
    print(String(format: "(plan table: %.0f s)", Date().timeIntervalSince(began)))
}
for profile in seed.profiles where !physicalWorld {
    let zone = profile.zone
    for plan in studied {
        for kind in Truth.allCases {
            let coil = truth(kind, of: zone)
            // A graded session's design costs ~40 ms a position: a quarter of the seeds.
            for s in 0..<(plan.graded ? max(1, seeds / 4) : seeds) {
                let strategy = ProbePlans.make(plan.kind, around: zone, aspectRatio: profile.aspectRatio, pass: s % 3)
                let phone = coil.map { SimulatedPhone(antenna: $0, aspectRatio: profile.aspectRatio) }
                var history: [(probe: Probe, hit: Bool)] = []
                var grades: [(probe: Probe, coupling: Double)] = []
                while let probe = strategy.next(after: history, grades: plan.graded ? grades : nil), history.count < 100 {
                    let p = phone?.detectionProbability(x: probe.x, y: probe.y) ?? 0
                    let hit = Double.random(in: 0..<1, using: &generator) < p
                    history.append((probe, hit))
                    if plan.graded, hit, let phone {
                        grades.append((probe, SimulatedLab.grade(phone.coupling(x: probe.x, y: probe.y), on: .standard)))
                    }
                }
                let score = SessionScore(
                    predicted: zone, history: history, grades: grades, strategy: strategy, aspectRatio: profile.aspectRatio)
                let key = "\(plan.name) | \(label(kind))"
                matrix[key, default: [:]][score.verdict, default: 0] += 1
                taps[key, default: []].append(history.count)
                if score.verdict == .inconclusive || (kind == .prediction && score.verdict != .confirmed) {
                    reasons[key, default: [:]][score.reason, default: 0] += 1
                }
            }
        }
    }
}

let verdicts: [SessionVerdict] = [.confirmed, .shifted, .noField, .inconclusive]
print(
    physicalWorld
        ? "physical world (MODEL=linear: the toy model): two loops, a reader of 20-60 mm, gap 2-10 mm, placements off by"
            + " 1.5 mm; the coil is the entry's zone (or moved, or halved)"
        : "linear toy model (3% misses over the coil, reach and edge fall-off)")
print("\(seed.profiles.count) catalog entries x \(seeds) seeds per plan and truth (graded plans a quarter of them)")
print(
    "plan            | truth                      | taps (median) | "
        + verdicts.map { $0.rawValue.padding(toLength: 12, withPad: " ", startingAt: 0) }.joined(separator: " | "))
var failures: [String] = []
for plan in studied {
    for kind in Truth.allCases {
        let key = "\(plan.name) | \(label(kind))"
        let row = matrix[key] ?? [:]
        let total = row.values.reduce(0, +)
        let median = (taps[key] ?? [0]).sorted()[(taps[key]?.count ?? 1) / 2]
        let cells = verdicts.map { v -> String in
            let share = 100 * Double(row[v] ?? 0) / Double(max(total, 1))
            return String(format: "%5.1f%% (%4d)", share, row[v] ?? 0)
        }
        print(
            plan.name.padding(toLength: 15, withPad: " ", startingAt: 0) + " | "
                + label(kind).padding(toLength: 26, withPad: " ", startingAt: 0) + " | "
                + String(median).padding(toLength: 13, withPad: " ", startingAt: 0) + " | " + cells.joined(separator: " | "))
        func share(_ v: SessionVerdict) -> Double { Double(row[v] ?? 0) / Double(max(total, 1)) }
        switch kind {
        case .prediction:
            if share(.confirmed) < 0.98 { failures.append("\(plan.name) | \(label(kind)): CONFIRMED \(share(.confirmed)) < 98%") }
            if (row[.noField] ?? 0) > 0 { failures.append("\(plan.name) | \(label(kind)): NO_FIELD \(row[.noField] ?? 0) times") }
        case .shifted:
            if share(.confirmed) > 0.02 { failures.append("\(plan.name) | \(label(kind)): CONFIRMED \(share(.confirmed)) > 2%") }
        case .absent:
            if share(.noField) < 0.99 { failures.append("\(plan.name) | \(label(kind)): NO_FIELD \(share(.noField)) < 99%") }
        case .half: break
        }
    }
}
print("\nWhy not CONFIRMED where the truth is the prediction, and why INCONCLUSIVE:")
for (key, counts) in reasons.sorted(by: { $0.key < $1.key }) {
    for (reason, n) in counts.sorted(by: { $0.value > $1.value }).prefix(3) { print("  \(key): \(n) x \(reason)") }
}
// Runner cases: whole sessions through GuidedRun in virtual time (RunnerCases).
// `RUNNER=0` leaves them out, for a study of the plans' verdicts alone.
let runnerSeeds = ProcessInfo.processInfo.environment["RUNNER"] == "0" ? 0 : max(1, seeds / 4)
let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("nfcbench-verdicts-\(getpid())")
try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: scratch) }
let store = try await SQLiteBenchStore.open(path: scratch.appendingPathComponent("study.sqlite").path)
// The slow hand's tallies per plan: each plan's verdicts are held to the targets on their own.
let runnerPlans = physicalWorld ? [PlanKind.coil, .adaptive] : [PlanKind.grid, .adaptive]
var slowRight: [PlanKind: RunnerCases.Tally] = [:], slowShifted: [PlanKind: RunnerCases.Tally] = [:]
var stray = RunnerCases.Tally()
// Every session draws its own taps: one seed shared by all entries would make their
// sessions fail or pass together.
var sessionSeed = 0
// RUNNER_ENTRIES=n: the runner cases on the first n entries alone.
let runnerEntries = ProcessInfo.processInfo.environment["RUNNER_ENTRIES"].flatMap(Int.init) ?? seed.profiles.count
for profile in seed.profiles.prefix(runnerEntries) {
    let zone = profile.zone
    // In the physical world: the coil plan, graded (what `run` takes where it knows the
    // reader), and the adaptive plan (a reader that cannot grade, or tag mode).
    for plan in runnerPlans {
        for _ in 0..<runnerSeeds {
            sessionSeed += 1
            let s = sessionSeed
            var rng = SeededGenerator(seed: UInt64(s) &* 7_919)
            let world = physicalWorld ? PhysicalWorld.Bench(&rng) : nil
            let shifted = physicalWorld ? PhysicalWorld.truth(.shifted, of: zone, profile, &rng) : truth(.shifted, of: zone)
            slowRight[plan] = try await RunnerCases.slowHand(
                profile: profile, coil: truth(.prediction, of: zone)!, plan: plan, seed: s, store: store,
                tally: slowRight[plan] ?? RunnerCases.Tally(), world: world)
            if let shifted {
                slowShifted[plan] = try await RunnerCases.slowHand(
                    profile: profile, coil: shifted, plan: plan, seed: s, store: store,
                    tally: slowShifted[plan] ?? RunnerCases.Tally(), world: world)
            }
            stray = try await RunnerCases.strayCard(
                profile: profile, plan: plan, seed: s, store: store, tally: stray, world: world)
        }
    }
}
func share(_ t: RunnerCases.Tally, _ v: SessionVerdict) -> Double { Double(t.verdicts[v] ?? 0) / Double(max(t.sessions, 1)) }
if runnerSeeds > 0 {
    print("\nRunner cases (GuidedRun, \(runnerSeeds) seed(s) per entry and plan):")
    for plan in runnerPlans {
        let right = slowRight[plan] ?? RunnerCases.Tally(), moved = slowShifted[plan] ?? RunnerCases.Tally()
        for (name, t, isRight) in [
            ("\(plan.rawValue), slow hand, truth = prediction", right, true),
            ("\(plan.rawValue), slow hand, \(label(.shifted))", moved, false),
        ] {
            print(
                "  \(name): \(t.sessions) sessions, CONFIRMED \(String(format: "%.1f", 100 * share(t, .confirmed)))%, "
                    + "NO_FIELD \(t.verdicts[.noField] ?? 0), MISS \(t.misses), MISS before placement \(t.missesBeforePlacement)")
            if t.missesBeforePlacement > 0 { failures.append("\(name): \(t.missesBeforePlacement) MISS before placement") }
            if isRight {
                for (reason, n) in t.reasons.sorted(by: { $0.value > $1.value }).prefix(3) { print("    \(n) x \(reason)") }
            }
        }
        if share(right, .confirmed) < 0.98 { failures.append("\(plan.rawValue), slow hand, truth = prediction: CONFIRMED < 98%") }
        if (right.verdicts[.noField] ?? 0) > 0 { failures.append("\(plan.rawValue), slow hand, truth = prediction: NO_FIELD") }
        if share(moved, .confirmed) > 0.02 { failures.append("\(plan.rawValue), slow hand, shifted: CONFIRMED > 2%") }
    }
    print(
        "  stray card in the case: \(stray.sessions) sessions, \(stray.foreign) FOREIGN answers, "
            + "\(stray.stoppedForForeign) stopped asking to remove the card, "
            + "\(stray.verdicts.values.reduce(0, +)) completed, HIT from the card \(stray.hitsFromForeign)")
    if stray.hitsFromForeign > 0 { failures.append("stray card: \(stray.hitsFromForeign) HIT from a foreign card") }
} else {
    print("\nRunner cases left out (RUNNER=0).")
}

print(
    failures.isEmpty
        ? "\ntargets met: truth = prediction CONFIRMED >= 98% and never NO_FIELD; shifted CONFIRMED <= 2%; not emulating NO_FIELD >= 99%;"
            + " slow hand: 0 MISS before placement, same verdict targets; stray card: 0 HIT from it"
        : "\nTARGETS MISSED:\n  " + failures.joined(separator: "\n  "))
