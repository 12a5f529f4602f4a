import Foundation
import NFCBench
import NFCBenchRecords
import NFCLocatorCore
import NFCReaders
import Testing

/// The criteria a report prints must be the rules the verdict applied: over many random
/// sessions, CONFIRMED exactly when every criterion is met, and each observed number is
/// the evidence the score counted.
@Suite("Verdict criteria in words")
struct VerdictCriteriaTests {
    let zone = try! NormalizedRect(x: 0.1, y: 0.36, width: 0.8, height: 0.38)

    @Test func confirmedExactlyWhenEveryCriterionIsMet() {
        var generator = SeededGenerator(seed: 2026)
        let plan = GridPlan(around: zone)
        var seen: [SessionVerdict: Int] = [:]
        var shiftedByGrades = 0
        var grading = SeededGenerator(seed: 29)
        for _ in 0..<2_000 {
            let count = Int(generator.next() % 20)
            let history = (0..<count).map { _ in
                (
                    probe: Probe(x: .random(in: 0...1, using: &generator), y: .random(in: 0...1, using: &generator)),
                    hit: generator.next() % 3 != 0
                )
            }
            let predicted = generator.next() % 10 == 0 ? nil : zone
            // Half the sessions graded (`run --coupling`): each read a rung of the standard ladder.
            // Their own generator, so the sessions themselves are those the test always drew.
            let graded = grading.next() % 2 == 0
            let rungs = UInt64(CouplingLadder.standard.profiles.count - 1)
            let grades = history.filter { graded && $0.hit }.map {
                ($0.probe, Double(grading.next() % (rungs + 1)) / Double(rungs))
            }
            let score = SessionScore(
                predicted: predicted, history: history, grades: grades, strategy: plan, aspectRatio: 0.48)
            let criteria = VerdictCriteria(score: score, bodyHeightMm: 147)
            let allMet = criteria.confirmed.allSatisfy { $0.met == true }
            #expect(allMet == (score.verdict == .confirmed), "\(score.verdict): \(criteria.confirmed)")
            #expect(criteria.confirmed[0].observed == String(score.taps))
            if let e = score.evidence {
                #expect(criteria.confirmed[4].observed == "\(e.farHits) of \(e.farTaps) read")
            } else {
                #expect(criteria.confirmed[1].met == false && criteria.confirmed[2].met == nil)
            }
            seen[score.verdict, default: 0] += 1
            if score.evidence?.strongerOutside == true { shiftedByGrades += 1 }
        }
        #expect(shiftedByGrades > 0, "the graded rule was reached")
        // The random sessions reach every verdict, so the check above is not vacuous.
        #expect(Set(seen.keys) == Set([.confirmed, .shifted, .noField, .inconclusive]), "\(seen)")
    }

    @Test func marginsAreInMillimetresWhenTheBodyIsKnown() {
        let score = SessionScore(predicted: zone, history: [], strategy: GridPlan(around: zone), aspectRatio: 0.48)
        #expect(VerdictCriteria(score: score, bodyHeightMm: 147).bands.contains("3% of the body height (4.4 mm)"))
        #expect(VerdictCriteria(score: score, bodyHeightMm: 147).bands.contains("8% of the body height (11.8 mm)"))
        #expect(!VerdictCriteria(score: score, bodyHeightMm: nil).bands.contains("mm"))
    }
}
