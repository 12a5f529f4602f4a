import NFCBench
import NFCBenchRecords
import NFCLocatorCore
import NFCReaders
import NFCTestSupport
import Testing

/// A graded session (`run --coupling`, adaptive plan) chooses its positions by the grades
/// (`GradedDesign`) and still taps what its verdict needs (`VerdictReserve`): a right
/// prediction is CONFIRMED, a phone that does not answer is NO_FIELD, and a position the
/// operator skipped is no silence. In the serialized refinement suite: the design is
/// CPU-bound.
extension RefinementTests {
    static let s24 = try! NormalizedRect(x: 0.028, y: 0.068, width: 0.671, height: 0.274)

    /// One graded session over `coil` (none: the phone does not answer), with taps drawn
    /// from the simulated phone's detection probability; `skips` says which positions the
    /// operator skips.
    func gradedSession(
        around zone: NormalizedRect, coil: NormalizedRect?, seed: UInt64, skips: (Probe) -> Bool = { _ in false }
    ) -> (score: SessionScore, positions: Int, skipped: Set<Probe>) {
        let aspectRatio = seedProfile("SM-S921B").aspectRatio
        let plan = AdaptivePlan(around: zone, aspectRatio: aspectRatio)
        let phone = coil.map { SimulatedPhone(antenna: ($0.x, $0.y, $0.width, $0.height), aspectRatio: aspectRatio) }
        var generator = SeededGenerator(seed: seed)
        var history: [(probe: Probe, hit: Bool)] = [], grades: [(probe: Probe, coupling: Double)] = []
        var skipped = Set<Probe>()
        while let probe = plan.next(after: history, grades: grades, skipped: skipped), history.count < 30 {
            if skips(probe) {
                skipped.insert(probe)
                history.append((probe, false))
                continue
            }
            let hit = Double.random(in: 0..<1, using: &generator) < (phone?.detectionProbability(x: probe.x, y: probe.y) ?? 0)
            history.append((probe, hit))
            if hit, let phone {
                grades.append((probe, SimulatedLab.grade(phone.coupling(x: probe.x, y: probe.y), on: .standard)))
            }
        }
        let evidence = history.filter { !skipped.contains($0.probe) }
        let score = SessionScore(
            predicted: zone, history: evidence, skipped: skipped.count, grades: grades, strategy: plan,
            aspectRatio: aspectRatio)
        return (score, history.count, skipped)
    }

    @Test func aGradedSessionConfirmsARightPredictionWithinItsBudget() async throws {
        let sessions = try await offThePool {
            ([1, 2, 3] as [UInt64]).map { gradedSession(around: Self.s24, coil: Self.s24, seed: $0) }
        }
        for session in sessions {
            #expect(session.positions <= AdaptivePlan.gradedBudget)
            #expect(session.score.verdict == .confirmed, "\(session.score.reason)")
            #expect((session.score.evidence?.outsideMisses ?? 0) >= 2)
        }
    }

    @Test func aGradedSessionOverAPhoneThatDoesNotAnswerIsNoField() async throws {
        let session = try await offThePool { gradedSession(around: Self.s24, coil: nil, seed: 7) }
        #expect(session.score.verdict == .noField, "\(session.score.reason)")
        #expect(session.positions <= AdaptivePlan.gradedBudget)
    }

    /// The first position around the zone is skipped: it read nothing, so the design seeks
    /// another silence instead of counting the skip as one.
    @Test func aSkippedPositionIsNoSilenceForTheGradedDesign() async throws {
        let zone = Self.s24, aspectRatio = seedProfile("SM-S921B").aspectRatio
        let session = try await offThePool {
            var skippedOne = false
            return gradedSession(around: zone, coil: zone, seed: 2) { probe in
                let outside = ZoneEvidence.signedDistance(probe, to: zone, aspectRatio: aspectRatio) < 0
                defer { if outside { skippedOne = true } }
                return outside && !skippedOne
            }
        }
        #expect(session.skipped.count == 1)
        #expect(session.score.verdict == .confirmed, "\(session.score.reason)")
        #expect((session.score.evidence?.outsideMisses ?? 0) >= 2)
    }
}
