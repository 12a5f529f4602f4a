import Foundation
import NFCBench
import NFCBenchRecords
import NFCLocatorCore
import NFCReaders
import NFCTestSupport
import Testing

@Suite("Plans that learn from earlier sessions")
struct PlanLearningTests {
    let s24 = try! NormalizedRect(x: 0.1, y: 0.36, width: 0.8, height: 0.38)

    func focus(_ intervals: [ZoneEdge: (Double, Double, Double)], sessions: Int = 2) -> PlanFocus {
        PlanFocus(
            edges: intervals.mapValues { PlanFocus.Edge(value: $0.0, low: $0.1, high: $0.2)! }, sessions: sessions)!
    }

    @Test func aFocusSurvivesTheStoreExactly() throws {
        let f = focus([.left: (0.1, 0.08, 0.125), .top: (0.36, 0.30, 0.41), .right: (0.9, 0.88, 0.93), .bottom: (0.74, 0.7, 0.8)])
        #expect(PlanFocus(stored: f.stored) == f)
        // Values are kept on the stored lattice, so the parsed focus plans the same probes.
        let odd = focus([
            .left: (0.1, 0.0812345, 0.1), .top: (0.36, 0.3, 0.41), .right: (0.9, 0.9, 0.9), .bottom: (0.74, 0.7, 0.8),
        ])
        #expect(PlanFocus(stored: odd.stored) == odd)
        #expect(odd.edges[.left]!.low == 0.0812)
    }

    @Test(arguments: [
        "", "sessions=2", "sessions=2 left=0.1,0.2,0.3 top=0.3,0.2,0.4 right=0.9,0.8,0.95 bottom=0.7,0.6,0.8",
        "sessions=2 left=nan,0,0.2 top=0.3,0.2,0.4 right=0.9,0.8,0.95 bottom=0.7,0.6,0.8",
        "sessions=2 left=0.1,0,1e309 top=0.3,0.2,0.4 right=0.9,0.8,0.95 bottom=0.7,0.6,0.8",
        "sessions=0 left=0.1,0,0.2 top=0.3,0.2,0.4 right=0.9,0.8,0.95 bottom=0.7,0.6,0.8",
        "sessions=2 left=0.1,0,0.2 top=0.3,0.2,0.4 right=0.9,0.8,0.95",
        "sessions=2 left=0.1,0,0.2 left=0.1,0,0.2 top=0.3,0.2,0.4 right=0.9,0.8,0.95 bottom=0.7,0.6,0.8",
        "sessions=2 left=0.95,0.9,1 top=0.3,0.2,0.4 right=0.9,0.8,0.95 bottom=0.7,0.6,0.8",
    ])
    func malformedFocusIsRefused(_ text: String) {
        #expect(PlanFocus(stored: text) == nil, "\(text)")
    }

    /// Resume rebuilds the plan from the stored focus and the taps so far: every prefix
    /// of a session's history must lead to the probe that was actually taken next.
    @Test func aLearningPlanIsDeterministicFromItsHistory() {
        let f = focus([.left: (0.1, 0.06, 0.14), .top: (0.36, 0.2, 0.5), .right: (0.9, 0.88, 0.92), .bottom: (0.74, 0.72, 0.76)])
        let plan = AdaptivePlan(around: s24, aspectRatio: 0.48, focus: f)
        var phone = SimulatedPhone(antenna: (0.1, 0.3, 0.8, 0.44), aspectRatio: 0.48)
        phone.missRate = 0.1
        var generator = SeededGenerator(seed: 7)
        var history: [(probe: Probe, hit: Bool)] = []
        while let p = plan.next(after: history), history.count < 40 {
            history.append((p, Double.random(in: 0..<1, using: &generator) < phone.detectionProbability(x: p.x, y: p.y)))
        }
        for n in 0..<history.count {
            #expect(plan.next(after: Array(history.prefix(n))) == history[n].probe, "after \(n) taps")
        }
        #expect(Set(history.map(\.probe)).count >= history.count - 4, "repeats only to confirm a surprising miss")
    }

    /// With a focus whose intervals hold the coil, a session spends exactly its budget,
    /// and the taps past bounding go mostly to the widest interval (top here), around it.
    @Test func spareTapsGoToTheWidestInterval() {
        let f = focus([
            .left: (0.1, 0.09, 0.11), .top: (0.36, 0.26, 0.46), .right: (0.9, 0.89, 0.91), .bottom: (0.74, 0.73, 0.75),
        ])
        let plan = AdaptivePlan(around: s24, aspectRatio: 0.48, focus: f)
        let probes = plan.expectedProbes(for: s24)
        #expect(probes.count == plan.budget)
        #expect(probes[0] == Probe(x: s24.midX, y: s24.midY), "the predicted centre first, always")
        let bounding = 5  // the centre, then one tap just outside each pooled interval
        let sharpening = probes.dropFirst(bounding)
        let nearTop = sharpening.filter { abs($0.y - 0.36) <= 0.1 + 1e-9 }
        #expect(nearTop.count * 2 > sharpening.count, "\(Array(sharpening))")
        #expect(Set(nearTop.map(\.x)).count > 1, "jittered along the edge: \(nearTop)")
        #expect(Set(nearTop.map(\.y)).count > 1, "jittered across the edge: \(nearTop)")
    }

    /// The closed loop of `bench/refine` in miniature (fixed seeds, so deterministic):
    /// sessions that learn reach the truth at least as well as sessions that only follow
    /// the refined prediction, within 12 taps median after the first.
    @Test func learningSessionsStayWithinTheirBudgetAndReachTheTruth() async throws {
        let truth = try NormalizedRect(x: 0.1, y: 0.16, width: 0.8, height: 0.38)
        let profile = seedProfile("SM-S926B")
        let results = try await offThePool {
            [true, false].map { learns in
                var ious: [Double] = []
                var laterTaps: [Int] = []
                for seed in 1...8 {
                    var lab = SimulatedLab(
                        model: "SM-S926B",
                        phone: SimulatedPhone(antenna: (0.1, 0.16, 0.8, 0.38), aspectRatio: profile.aspectRatio),
                        plan: .adaptive, seed: seedCatalog,
                        refiner: CatalogRefiner(
                            resolver: AntennaZoneResolver(remote: nil, seed: seedCatalog),
                            reachMm: 0.02 * profile.bodyHeightMm!),
                        randomSeed: UInt64(seed))
                    lab.learns = learns
                    for n in 1...3 {
                        let taps = lab.runSession().taps.count
                        if n > 1 { laterTaps.append(taps) }
                        let report = lab.refine()
                        if n == 3 { ious.append(report.entries.first?.estimate?.zone.iou(with: truth) ?? 0) }
                    }
                }
                return (mean: ious.reduce(0, +) / Double(ious.count), medianTaps: laterTaps.sorted()[laterTaps.count / 2])
            }
        }
        let (learning, following) = (results[0], results[1])
        #expect(learning.medianTaps <= 12, "\(learning)")
        #expect(learning.mean >= 0.85, "\(learning)")
        #expect(learning.mean >= following.mean - 0.02, "learning \(learning) vs following \(following)")
    }
}
