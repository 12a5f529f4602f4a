import Foundation
import NFCBench
import NFCBenchRecords
import NFCLocatorCore
import NFCReaders
import Testing

/// Refine with graded evidence (`run --coupling`, docs/coupling.md) finds a hidden coil
/// after one session better than the same session's binary taps do, on simulated labs
/// whose hits are graded as the emulated PN532 grades them. Part of the serialized
/// refinement suite: its fits are CPU-bound, and one more such stream beside the others
/// would starve the emulated readers' timing tests on two cores.
extension RefinementTests {
    @Test func oneGradedSessionFindsTheHiddenCoilBetterThanItsBinaryTaps() throws {
        // The Galaxy S24+ whose coil sits 0.2 body heights above the catalog's zone.
        let shifted = try #require(Self.cases.first { $0.name == "shifted 0.2 body heights" })
        let truth = try NormalizedRect(x: shifted.truth.0, y: shifted.truth.1, width: shifted.truth.2, height: shifted.truth.3)
        var graded: [Double] = [], binary: [Double] = []
        for seed in 1...16 {
            var simulated = lab(shifted, plan: .adaptive, seed: UInt64(seed))
            simulated.learns = false
            simulated.coupling = .standard
            let session = simulated.runSession()
            #expect(session.taps.filter { $0.result == .hit }.allSatisfy { $0.coupling != nil })
            let entry = try #require(simulated.refine().entries.first)
            #expect(entry.gradedReads == session.taps.filter { $0.result == .hit }.count)
            let fitted = try #require(entry.estimate?.zone), alone = try #require(entry.binaryEstimate?.zone)
            graded.append(fitted.iou(with: truth))
            binary.append(alone.iou(with: truth))
        }
        let mean = { (v: [Double]) in v.reduce(0, +) / Double(v.count) }
        #expect(mean(graded) > mean(binary) + 0.02, "graded \(mean(graded)), binary \(mean(binary))")
        #expect(mean(graded) > 0.88, "\(graded)")
    }
}

@Suite("Graded evidence's likelihood")
struct GradedLikelihoodTests {
    /// A grade's likelihood peaks where its depth predicts it: deep inside for the
    /// weakest profile's grade, near the reach's edge for the default's.
    @Test func aGradeIsMostLikelyAtTheDepthItStandsFor() {
        let estimator = ZoneEstimator(model: DetectionModel(reach: 0.02), aspectRatio: 0.48)
        let zone = try! NormalizedRect(x: 0.2, y: 0.2, width: 0.6, height: 0.6)  // inradius 0.144 body heights
        func ll(_ y: Double, _ grade: Double) -> Double {
            var tally = PositionTally(x: 0.5, y: y, hits: 1, taps: 1)
            tally.grades = [grade]
            return estimator.logLikelihood(of: zone, [tally]) - estimator.logLikelihood(of: zone, PositionTally.binary([tally]))
        }
        #expect(ll(0.5, 1) > ll(0.22, 1), "the weakest profile reads on the centre line")
        #expect(ll(0.205, 0) > ll(0.5, 0), "the default alone reads at the edge")
    }
}
