import Foundation
import NFCBench
import NFCBenchRecords
import NFCLocatorCore
import NFCPhysics
import NFCReaders
import Synchronization

// VERDICTS=1: the verdicts of `run --plan coil` sessions (the plan, its coil fit and its
// tests, through `SessionScore` as `run` judges) in the physical world: a right
// prediction (the true coil), a wrong one (its centre moved 10-15 mm, the size kept) and a
// phone that does not answer, one session each per lab, a reader of 20-60 mm, by hand.

/// One coil-plan session, the phone answering where the hand put the reader (or nowhere).
func coilPlanVerdict(_ lab: Lab, readerMm: Double, predicted: NormalizedRect, phone present: Bool, _ rng: inout SeededGenerator)
    -> (verdict: SessionVerdict, taps: Int, reason: String)
{
    let phone = lab.phone(readerMm: readerMm)
    let physics = PlanPhysics(
        reader: ReaderGeometry(antennaWidthMm: readerMm, antennaHeightMm: readerMm, gapMm: lab.gapMm, source: "study"),
        bodyHeightMm: body.height)
    let plan = CoilPlan(around: predicted, aspectRatio: body.width / body.height, physics: physics)
    var history: [(probe: Probe, hit: Bool)] = [], grades: [(probe: Probe, coupling: Double)] = []
    while let probe = plan.next(after: history, grades: grades, skipped: []) {
        let landedX = probe.x + 1.5 * normal(&rng) / body.width, landedY = probe.y + 1.5 * normal(&rng) / body.height
        let hit = present && Double.random(in: 0..<1, using: &rng) < phone.detectionProbability(x: landedX, y: landedY)
        if hit {
            let weakest =
                ladder.profiles.firstIndex { phone.answers(fieldThreshold: $0.threshold, x: landedX, y: landedY) }
                ?? ladder.profiles.count - 1
            grades.append((probe, ladder.coupling(weakestRead: weakest)))
        }
        history.append((probe, hit))
    }
    let score = SessionScore(
        predicted: predicted, history: history, grades: grades, strategy: plan, aspectRatio: body.width / body.height)
    return (score.verdict, history.count, score.reason)
}

func verdictStudy(labs: Int) {
    let cases = ["right", "10-15 mm off", "no phone"]
    let tallies = Mutex<[[SessionVerdict: Int]]>(Array(repeating: [:], count: cases.count))
    let taps = Mutex<[Int]>([])
    DispatchQueue.concurrentPerform(iterations: labs) { index in
        var rng = SeededGenerator(seed: UInt64(index + 1))
        let lab = Lab(&rng)
        let truth = lab.coil
        let angle = Double.random(in: 0..<(2 * .pi), using: &rng), shift = Double.random(in: 10...15, using: &rng)
        var wrongX = truth.x + shift * cos(angle), wrongY = truth.y + shift * sin(angle)
        wrongX = min(max(wrongX, 0), body.width - truth.width)
        wrongY = min(max(wrongY, 0), body.height - truth.height)
        // A centre clamped back towards the truth is no longer 10 mm off: moved the other way.
        if hypot(wrongX - truth.x, wrongY - truth.y) < 10 {
            wrongX = min(max(truth.x - shift * cos(angle), 0), body.width - truth.width)
            wrongY = min(max(truth.y - shift * sin(angle), 0), body.height - truth.height)
        }
        func zone(_ x: Double, _ y: Double) -> NormalizedRect {
            try! NormalizedRect(
                x: x / body.width, y: y / body.height, width: truth.width / body.width, height: truth.height / body.height)
        }
        let wrongFar = hypot(wrongX - truth.x, wrongY - truth.y) >= 10
        let predictions = [zone(truth.x, truth.y), zone(wrongX, wrongY), zone(truth.x, truth.y)]
        for (k, predicted) in predictions.enumerated() where k != 1 || wrongFar {
            var sessionRng = SeededGenerator(seed: UInt64(index + 1) &* 7_919 &+ UInt64(k))
            let outcome = coilPlanVerdict(lab, readerMm: lab.randomReaderMm, predicted: predicted, phone: k != 2, &sessionRng)
            tallies.withLock { $0[k][outcome.verdict, default: 0] += 1 }
            // VERBOSE=1: why a right prediction was not confirmed, or a wrong one was.
            if ProcessInfo.processInfo.environment["VERBOSE"] == "1",
                (k == 0 && outcome.verdict != .confirmed) || (k == 1 && outcome.verdict == .confirmed)
            {
                print(
                    "lab \(index + 1) \(cases[k]), reader \(Int(lab.randomReaderMm)) mm: \(outcome.verdict.rawValue): \(outcome.reason)"
                )
            }
            taps.withLock { $0.append(outcome.taps) }
        }
    }
    let counted = tallies.withLock { $0 }
    print("\(labs) labs, one hand session of `run --plan coil` per case; reader 20-60 mm, gap 2-10 mm, coil 20-60 mm")
    for (k, name) in cases.enumerated() {
        let total = counted[k].values.reduce(0, +)
        let shares = SessionVerdict.allCases.map {
            String(format: "%@ %.1f%%", $0.rawValue, 100 * Double(counted[k][$0, default: 0]) / Double(max(total, 1)))
        }
        print("  \(name) (\(total) sessions): " + shares.joined(separator: ", "))
    }
    let all = taps.withLock { $0 }.sorted()
    print("positions per session: median \(all[all.count / 2]), most \(all.last ?? 0)")
}
