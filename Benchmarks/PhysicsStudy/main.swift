import Foundation
import NFCBench
import NFCLocatorCore
import NFCPhysics
import NFCReaders
import Synchronization

// How well one hand-placed graded session finds a phone's coil when the world couples as
// two loops do (`SimulatedCoupling.mutualInductance`), against the zone estimator the bench
// used until now, in the same labs and sessions (docs/physics.md, "Measured").
// Usage: PhysicsStudy [labs] [positions-per-side]
//
// Each lab: a Galaxy S24 body (70.6 x 147.0 mm); a coil of 20-60 mm per side somewhere on
// its upper back; a gap of 2-10 mm; a phone that reads 15-30 mm above its coil; a chip
// whose rungs map to field by (1 - t)^g with g in 0.7-1.6, unknown to the fit; a per-
// placement threshold scatter of 10 %; and a hand whose placements land off by a normal of
// 1.5 mm per axis. The session is a hand plan: a square grid 12 mm apart (STEP_MM) around
// the predicted zone's centre, which is the coil's moved by up to 10 mm; positions off the
// body are left out; every read is graded down the standard ladder. STUDY_EXPONENT fixes
// the chip's rung law (1: the ladder's own), to show what not knowing it costs. Readers: 20, 40 and 60 mm squares, and one of 20-60 mm.

let arguments = CommandLine.arguments
let labs = arguments.count > 1 ? Int(arguments[1]) ?? 200 : 200
let side = arguments.count > 2 ? Int(arguments[2]) ?? 4 : 4
let body = (width: 70.6, height: 147.0)
/// `STEP_MM`: the hand grid's spacing (12 mm unless given; "grown" spreads it over the
/// predicted zone and the reader).
let stepSetting = ProcessInfo.processInfo.environment["STEP_MM"] ?? "12"
let stepMm: Double? = stepSetting == "grown" ? nil : Double(stepSetting).flatMap { $0 > 0 && $0 < 50 ? $0 : nil } ?? 12
let ladder = CouplingLadder.standard
let rungThresholds = ladder.profiles.reversed().map(\.threshold)  // the default's 0 first
let coilFit = {
    var fit = CoilFit(bodyWidthMm: body.width, bodyHeightMm: body.height, rungThresholds: rungThresholds)
    // As `run --plan coil` fits: a threshold scatter of 0.15 and a hand's 1.5 mm, through the
    // coupling's slope. FIT_SPREAD, FIT_PLACEMENT_MM change them (FIT_SPREAD=0.25
    // FIT_PLACEMENT_MM=0: the fit before the hand was in it).
    fit.spread = 0.15
    fit.placementSpreadMm = 1.5
    let environment = ProcessInfo.processInfo.environment
    if let spread = environment["FIT_SPREAD"].flatMap(Double.init), spread > 0 { fit.spread = spread }
    if let placement = environment["FIT_PLACEMENT_MM"].flatMap(Double.init), placement >= 0 { fit.placementSpreadMm = placement }
    return fit
}()
/// `PLACEMENT_MM`: how far a placement lands from the position asked for, per axis (1.5: a
/// hand; a motion stage's repeatability is a few hundredths to a tenth of a millimetre).
let placementMm =
    ProcessInfo.processInfo.environment["PLACEMENT_MM"].flatMap(Double.init).flatMap {
        $0 >= 0 && $0 < 20 ? $0 : nil
    } ?? 1.5
let zoneEstimator = ZoneEstimator(model: DetectionModel(reach: 2.94 / body.height), aspectRatio: body.width / body.height)

struct Lab {
    var coil: (x: Double, y: Double, width: Double, height: Double)  // mm, top-left corner
    var gapMm: Double
    var readHeightMm: Double
    var exponent: Double
    var predictedCentre: (x: Double, y: Double)
    var predictedSize: (width: Double, height: Double)
    var randomReaderMm: Double

    init(_ rng: inout SeededGenerator) {
        let w = Double.random(in: 20...60, using: &rng), h = Double.random(in: 20...60, using: &rng)
        coil = (Double.random(in: 2...(body.width - w - 2), using: &rng), Double.random(in: 8...70, using: &rng), w, h)
        gapMm = Double.random(in: 2...10, using: &rng)
        readHeightMm = Double.random(in: 15...30, using: &rng)
        exponent = Double.random(in: 0.7...1.6, using: &rng)
        if let fixed = ProcessInfo.processInfo.environment["STUDY_EXPONENT"].flatMap(Double.init) { exponent = fixed }
        let angle = Double.random(in: 0..<(2 * .pi), using: &rng), shift = 10 * Double.random(in: 0...1, using: &rng).squareRoot()
        predictedCentre = (coil.x + w / 2 + shift * cos(angle), coil.y + h / 2 + shift * sin(angle))
        predictedSize = (w * Double.random(in: 0.7...1.3, using: &rng), h * Double.random(in: 0.7...1.3, using: &rng))
        randomReaderMm = Double.random(in: 20...60, using: &rng)
    }

    func phone(readerMm: Double) -> SimulatedPhone {
        var phone = SimulatedPhone(
            antenna: (coil.x / body.width, coil.y / body.height, coil.width / body.width, coil.height / body.height),
            aspectRatio: body.width / body.height, missRate: 0.03)
        phone.readHeightMm = readHeightMm
        phone.couplingModel = .mutualInductance(
            PhysicalBench(
                reader: ReaderAntenna(widthMm: readerMm, heightMm: readerMm), bodyHeightMm: body.height, gapMm: gapMm,
                thresholdSpread: 0.1, rungFieldExponent: exponent))
        return phone
    }
}

/// A normal deviate (Box-Muller).
func normal(_ rng: inout SeededGenerator) -> Double {
    let u = Double.random(in: Double.ulpOfOne..<1, using: &rng), v = Double.random(in: 0..<1, using: &rng)
    return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
}

/// PLAN=design: the positions the coil design (`CoilDesign`) chooses, one tap at a time,
/// from the centres of the runner's 16 x 32 probe cells; PLAN=grid (the default): a square
/// grid around the prediction.
let planSetting = ProcessInfo.processInfo.environment["PLAN"] ?? "grid"
let probeCells = (0..<16).flatMap { i in
    (0..<32).map { j in CoilDesign.Position(x: (Double(i) + 0.5) * body.width / 16, y: (Double(j) + 0.5) * body.height / 32) }
}

/// The grid plan's positions, in the order a hand taps them.
func gridPositions(_ lab: Lab, readerMm: Double) -> [(x: Double, y: Double)] {
    var positions: [(x: Double, y: Double)] = []
    for i in 0..<side {
        for j in 0..<side {
            // STEP_MM=grown: the grid spans the predicted zone and half the reader beyond it
            // each way (worse: its positions grow too sparse to grade the edges).
            let stepX = stepMm ?? (lab.predictedSize.width + readerMm) / Double(side - 1)
            let stepY = stepMm ?? (lab.predictedSize.height + readerMm) / Double(side - 1)
            let x = lab.predictedCentre.x + (Double(i) - Double(side - 1) / 2) * stepX
            let y = lab.predictedCentre.y + (Double(j) - Double(side - 1) / 2) * stepY
            guard (1...(body.width - 1)).contains(x), (1...(body.height - 1)).contains(y) else { continue }
            positions.append((x, y))
        }
    }
    return positions
}

/// One graded session by hand: the taps as the bench records them (the position asked
/// for), the phone answering where the hand really put the reader.
func session(_ lab: Lab, readerMm: Double, _ rng: inout SeededGenerator) -> (
    coil: [CoilTap], tallies: [PositionTally], design: CoilDesign
) {
    let phone = lab.phone(readerMm: readerMm)
    let bench = CoilTap.Bench(reader: ReaderAntenna(widthMm: readerMm, heightMm: readerMm), gapMm: lab.gapMm)
    var coilTaps: [CoilTap] = [], observations: [(x: Double, y: Double, hit: Bool)] = []
    var grades: [(x: Double, y: Double, grade: Double)] = []
    var design = CoilDesign(
        fit: coilFit, bench: bench, candidates: probeCells,
        prior: CoilDesign.Prior(centre: .init(x: lab.predictedCentre.x, y: lab.predictedCentre.y)), graded: true,
        budget: side * side)
    let environment = ProcessInfo.processInfo.environment
    if let cloud = environment["DESIGN_CLOUD"].flatMap(Int.init) { design.cloudSize = cloud }
    if let weighed = environment["DESIGN_WEIGHED"].flatMap(Int.init) { design.weighed = weighed }
    let grid = gridPositions(lab, readerMm: readerMm)
    for step in 0..<(side * side) {
        let position: (x: Double, y: Double)
        if planSetting == "design" {
            guard let chosen = design.next(after: coilTaps) else { break }
            position = (probeCells[chosen].x, probeCells[chosen].y)
        } else {
            guard step < grid.count else { break }
            position = grid[step]
        }
        do {
            let (x, y) = position
            let landedX = (x + placementMm * normal(&rng)) / body.width
            let landedY = (y + placementMm * normal(&rng)) / body.height
            let hit = Double.random(in: 0..<1, using: &rng) < phone.detectionProbability(x: landedX, y: landedY)
            var rungsRead: Int? = nil
            if hit {
                let weakest = ladder.profiles.firstIndex { phone.answers(fieldThreshold: $0.threshold, x: landedX, y: landedY) }
                rungsRead = weakest.map { ladder.profiles.count - 1 - $0 } ?? 0
                grades.append(
                    (x / body.width, y / body.height, ladder.coupling(weakestRead: ladder.profiles.count - 1 - rungsRead!)))
            }
            coilTaps.append(CoilTap(x: x, y: y, hit: hit, rungsRead: rungsRead, bench: bench))
            observations.append((x / body.width, y / body.height, hit))
        }
    }
    return (coilTaps, PositionTally.pool(observations, grades: grades), design)
}

typealias Rect = (x: Double, y: Double, width: Double, height: Double)
func iou(_ a: Rect, _ b: Rect) -> Double {
    let ix = max(0, min(a.x + a.width, b.x + b.width) - max(a.x, b.x))
    let iy = max(0, min(a.y + a.height, b.y + b.height) - max(a.y, b.y))
    return ix * iy / (a.width * a.height + b.width * b.height - ix * iy)
}
func centreOffset(_ a: Rect, _ b: Rect) -> Double {
    hypot(a.x + a.width / 2 - b.x - b.width / 2, a.y + a.height / 2 - b.y - b.height / 2)
}

struct Tally {
    var offsets: [Double] = [], ious: [Double] = [], covered = 0, none = 0
    mutating func add(_ estimate: Rect?, truth: Rect) {
        guard let estimate else { none += 1; offsets.append(.infinity); ious.append(0); return }
        offsets.append(centreOffset(estimate, truth))
        ious.append(iou(estimate, truth))
    }
    static func quantile(_ values: [Double], _ q: Double) -> Double {
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, max(0, Int((q * Double(sorted.count - 1)).rounded())))]
    }
    var line: String {
        let finite = offsets.filter(\.isFinite)
        return String(
            format: "centre %5.1f mean %5.1f p95 %6.1f worst | IoU %.2f mean %.2f p5 %.2f worst | none %d",
            finite.reduce(0, +) / Double(max(finite.count, 1)), Self.quantile(offsets, 0.95), offsets.max() ?? 0,
            ious.reduce(0, +) / Double(ious.count), Self.quantile(ious, 0.05), ious.min() ?? 0, none)
    }
}

let readers: [(String, @Sendable (Lab) -> Double)] = [
    ("20 mm", { _ in 20 }), ("40 mm", { _ in 40 }), ("60 mm", { _ in 60 }), ("20-60 mm", { $0.randomReaderMm }),
]
/// One lab's sessions, one per reader: each estimate, and whether its intervals hold the centre.
struct LabOutcome: Sendable {
    var truth: Rect
    var zones: [Rect?] = []
    var coils: [Rect?] = []
    /// The cloud's own estimate: its coil of highest mean IoU with the rest (`likeliestOverlap`).
    var overlaps: [Rect?] = []
    var covered: [Bool] = []
    var seconds = 0.0
}

func study(lab index: Int) -> LabOutcome {
    var rng = SeededGenerator(seed: UInt64(index + 1))
    let lab = Lab(&rng)
    var outcome = LabOutcome(truth: lab.coil)
    for (k, reader) in readers.enumerated() {
        let readerMm = reader.1(lab)
        var tapRng = SeededGenerator(seed: UInt64(index + 1) &* 1_000_003 &+ UInt64(k))
        let (taps, tallies, design) = session(lab, readerMm: readerMm, &tapRng)
        outcome.zones.append(
            zoneEstimator.estimate(tallies).map {
                Rect($0.zone.x * body.width, $0.zone.y * body.height, $0.zone.width * body.width, $0.zone.height * body.height)
            })
        let started = Date()
        // As the bench fits a session (`SessionCoil`): seeded where the cloud of the coils the
        // taps allow overlaps the coil most (SEEDED=0: the fit's own starts alone).
        let overlap = taps.count <= 48 ? design.likeliestOverlap(after: taps) : nil
        let seeded = ProcessInfo.processInfo.environment["SEEDED"] != "0"
        let estimate = coilFit.estimate(taps, seeds: seeded ? overlap.map { [$0] } ?? [] : [])
        outcome.seconds += Date().timeIntervalSince(started)
        outcome.overlaps.append(overlap)
        outcome.coils.append(estimate?.rectangle)
        outcome.covered.append(
            estimate.map {
                ($0.centreX.low...$0.centreX.high).contains(lab.coil.x + lab.coil.width / 2)
                    && ($0.centreY.low...$0.centreY.high).contains(lab.coil.y + lab.coil.height / 2)
            } ?? false)
    }
    return outcome
}

if ProcessInfo.processInfo.environment["VERDICTS"] == "1" {
    verdictStudy(labs: labs)
    exit(0)
}

// Labs in parallel (each lab's random numbers are its own), tallied in lab order.
let outcomes = Mutex<[Int: LabOutcome]>([:])
DispatchQueue.concurrentPerform(iterations: labs) { index in
    let outcome = study(lab: index)
    outcomes.withLock { $0[index] = outcome }
}
var zone = Array(repeating: Tally(), count: readers.count), coil = Array(repeating: Tally(), count: readers.count)
var overlap = Array(repeating: Tally(), count: readers.count)
var coverage = Array(repeating: 0, count: readers.count)
var agreement = (zone: [Double](), coil: [Double]())
var seconds = 0.0
for (_, outcome) in outcomes.withLock({ $0 }).sorted(by: { $0.key < $1.key }) {
    for k in readers.indices {
        zone[k].add(outcome.zones[k], truth: outcome.truth)
        coil[k].add(outcome.coils[k], truth: outcome.truth)
        overlap[k].add(outcome.overlaps[k], truth: outcome.truth)
        if outcome.covered[k] { coverage[k] += 1 }
    }
    seconds += outcome.seconds
    let (a, b) = ((zone: outcome.zones[0], coil: outcome.coils[0]), (zone: outcome.zones[2], coil: outcome.coils[2]))
    agreement.zone.append(a.zone.flatMap { z in b.zone.map { centreOffset(z, $0) } } ?? .infinity)
    agreement.coil.append(a.coil.flatMap { c in b.coil.map { centreOffset(c, $0) } } ?? .infinity)
}

print(
    "\(labs) labs, one graded hand session of \(side)x\(side) positions (\(stepSetting) mm apart) per reader; mm; coil 20-60 mm,")
print("gap 2-10 mm, placements off by \(placementMm) mm per axis, chip's rung law unknown to the fit")
for (k, reader) in readers.enumerated() {
    print("reader \(reader.0)")
    print("  zone estimator (the bench until now): " + zone[k].line)
    print("  coil fit (physical model):            " + coil[k].line)
    print("  the cloud's likeliest overlap:        " + overlap[k].line)
    print(
        String(
            format: "  coil fit: 95%% centre intervals hold the true centre in %.0f%% of labs",
            100 * Double(coverage[k]) / Double(labs)))
}
func within3(_ values: [Double]) -> Double { 100 * Double(values.filter { $0 <= 3 }.count) / Double(values.count) }
print(
    String(
        format:
            "same phone, 20 mm and 60 mm readers: centres within 3 mm of each other in %.0f%% of labs (zone estimator %.0f%%)",
        within3(agreement.coil), within3(agreement.zone)))
print(String(format: "coil fit: %.2f s per session on average", seconds / Double(labs * readers.count)))
