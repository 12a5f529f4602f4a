import Foundation
import NFCBench
import NFCBenchRecords
import NFCLocatorCore
import Testing

@Suite("Plans and scoring")
struct PlanAndScoreTests {
    let s24 = try! NormalizedRect(x: 0.1, y: 0.36, width: 0.8, height: 0.38)

    @Test func gridStartsAtThePredictionAndCoversTheBack() {
        let plan = GridPlan(around: s24)
        #expect(plan.order.count == 15 && Set(plan.order).count == 15)
        #expect(plan.order[0] == Probe(x: 0.5, y: 0.5))  // the cell holding the predicted centre (0.5, 0.55)
        let top = GridPlan(around: try! NormalizedRect(x: 0.25, y: 0.04, width: 0.5, height: 0.24))
        #expect(top.order[0] == Probe(x: 0.5, y: 0.1))
    }

    @Test func adaptiveConfirmsARightPredictionInFewerTapsThanTheGrid() {
        let adaptive = AdaptivePlan(around: s24)
        let probes = adaptive.expectedProbes(for: s24)
        #expect(probes.count == 9 && probes.count < GridPlan(around: s24).order.count)
        #expect(probes[0] == Probe(x: 0.5, y: 0.55))
        let history = probes.map { (probe: $0, hit: s24.contains(x: $0.x, y: $0.y)) }
        let measured = try! #require(adaptive.measuredZone(from: history))
        #expect(measured.iou(with: s24) > 0.85)
    }

    @Test func adaptiveFindsAZoneFarFromThePrediction() {
        let truth = try! NormalizedRect(x: 0.03, y: 0.07, width: 0.67, height: 0.27)  // where Samsung draws the S24 coil
        let adaptive = AdaptivePlan(around: s24)
        var history: [(probe: Probe, hit: Bool)] = []
        while let p = adaptive.next(after: history), history.count < 40 {
            history.append((p, truth.contains(x: p.x, y: p.y)))
        }
        #expect(history.count < 40)
        #expect(adaptive.measuredZone(from: history)!.iou(with: truth) > 0.6)
    }

    @Test(arguments: [
        ("equal", SessionScore.Verdict.confirmed),
        ("shifted", .shifted),
        ("absent", .noField),
        ("tooFew", .inconclusive),
    ])
    func verdicts(case name: String, verdict: SessionScore.Verdict) {
        let plan = GridPlan(around: s24)
        let truth: NormalizedRect? =
            switch name {
            case "equal": s24
            case "shifted": try! NormalizedRect(x: 0.03, y: 0.03, width: 0.67, height: 0.3)
            default: nil
            }
        let probes = name == "tooFew" ? Array(plan.order.prefix(2)) : plan.order
        let history = probes.map { (probe: $0, hit: truth?.contains(x: $0.x, y: $0.y) ?? false) }
        let score = SessionScore(predicted: s24, history: history, strategy: plan, aspectRatio: 0.48)
        #expect(score.verdict == verdict)
        if name == "equal" { #expect(score.centreHit == true && (score.iou ?? 0) >= 0.5) }
        if name == "absent" { #expect(score.measured == nil && score.hits == 0) }
    }

    @Test func positionsInWords() {
        #expect(Probe(x: 0.2, y: 0.1).words == "upper third, left of centre")
        #expect(Probe(x: 0.5, y: 0.5).words == "middle third, centred")
        #expect(Probe(x: 0.9, y: 0.9).words == "lower third, right of centre")
    }
}
