import Foundation
import NFCBench
import NFCBenchRecords
import NFCBenchSeams
import NFCLocatorCore
import Testing

@Suite("Plans and scoring")
struct PlanAndScoreTests {
    let s24 = try! NormalizedRect(x: 0.1, y: 0.36, width: 0.8, height: 0.38)

    @Test func gridStartsInsideThePredictionAndCoversTheBack() {
        let plan = GridPlan(around: s24)
        #expect(Set(plan.order).count == plan.order.count, "no position twice")
        // The predicted centre, then a quarter of the zone's longer side either way, then the cells.
        #expect(Array(plan.order.prefix(3)) == [Probe(x: 0.5, y: 0.55), Probe(x: 0.3, y: 0.55), Probe(x: 0.7, y: 0.55)])
        let cells = plan.order.dropFirst(3)
        #expect(cells.count >= 12 && cells.count <= 15)
        for row in 0..<5 {  // every row of the back is still covered
            #expect(plan.order.contains { $0.y >= Double(row) / 5 && $0.y < Double(row + 1) / 5 })
        }
    }

    /// A coil smaller than a grid cell, on a grid pass whose points all miss it: the
    /// plan still probes inside it (the failure behind "NO_FIELD for a right prediction").
    @Test(arguments: [0, 1, 2, 3, 4])
    func aSmallCoilIsProbedInsideOnEveryPass(pass: Int) {
        let coil = try! NormalizedRect(x: 0.4, y: 0.12, width: 0.16, height: 0.06)
        for plan in [
            GridPlan(around: coil, aspectRatio: 0.47, pass: pass) as any ProbeStrategy,
            AdaptivePlan(around: coil, aspectRatio: 0.47),
        ] {
            let probes = plan.expectedProbes(for: coil)
            #expect(probes.filter { coil.contains(x: $0.x, y: $0.y) }.count >= 2, "\(plan.kind) pass \(pass)")
            #expect(probes[0] == Probe(x: coil.midX, y: coil.midY))
        }
    }

    @Test func adaptiveConfirmsARightPredictionInFewerTapsThanTheGrid() {
        let adaptive = AdaptivePlan(around: s24)
        let probes = adaptive.expectedProbes(for: s24)
        #expect(probes.count <= 13 && probes.count < GridPlan(around: s24).order.count)
        #expect(probes[0] == Probe(x: 0.5, y: 0.55))
        let history = probes.map { (probe: $0, hit: s24.contains(x: $0.x, y: $0.y)) }
        let measured = try! #require(adaptive.measuredZone(from: history))
        #expect(measured.iou(with: s24) > 0.8)
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

    /// The S24 case of `bench/refine`, with the tap scripted: the prediction is far off, so
    /// the bisection runs on edges the prediction did not foresee.
    func walk(_ plan: AdaptivePlan, truth: NormalizedRect, missing: (Probe, Int) -> Bool) -> [(probe: Probe, hit: Bool)] {
        var history: [(probe: Probe, hit: Bool)] = []
        while let p = plan.next(after: history), history.count < 60 {
            let earlier = history.filter { $0.probe == p }.count
            history.append((p, truth.contains(x: p.x, y: p.y) && !missing(p, earlier)))
        }
        return history
    }

    /// One miss over the coil that closes an edge's bracket is tapped again before it
    /// becomes the edge, and the read that answers it is settled by a third tap (the
    /// majority decides); a silence where the prediction put the edge is not tapped again.
    @Test func anUnforeseenSilenceClosingAnEdgeIsTappedAgain() throws {
        let truth = try! NormalizedRect(x: 0.03, y: 0.07, width: 0.67, height: 0.27)
        let plan = AdaptivePlan(around: s24)
        let clean = walk(plan, truth: truth) { _, _ in false }
        // The top edge's bracket along the column through the first read (far above the
        // predicted zone): its last read, which the flaky phone misses once.
        let column = try #require(clean.first { $0.hit }?.probe.x)
        let topmost = try #require(clean.filter { $0.probe.x == column && $0.hit }.map(\.probe.y).min())
        let flaky = walk(plan, truth: truth) { p, earlier in p == Probe(x: column, y: topmost) && earlier == 0 }
        #expect(flaky.filter { $0.probe == Probe(x: column, y: topmost) }.map(\.hit) == [false, true, true])
        let measured = try #require(plan.measuredZone(from: flaky)), expected = try #require(plan.measuredZone(from: clean))
        #expect(abs(measured.y - expected.y) < 1e-9, "the miss moved the edge: \(measured) against \(expected)")
        // A right prediction's edges close where the prediction put them: one silence each.
        let right = walk(plan, truth: s24) { _, _ in false }
        #expect(Set(right.map(\.probe)).count == right.count, "no position tapped twice: \(right.map(\.probe))")
    }

    /// A read at the body's border may be the reader's reach past a coil that ends short
    /// of it: the border is tapped again, a silence there makes a tie that a third tap
    /// settles, and two silences of three keep the edge inside.
    @Test func aReadAtTheBorderIsTappedAgain() throws {
        let truth = try! NormalizedRect(x: 0.2, y: 0.05, width: 0.5, height: 0.3)  // top 0.05 from the border at 0.03
        let plan = AdaptivePlan(around: truth)
        let reach = try! NormalizedRect(x: 0.2, y: 0.0, width: 0.5, height: 0.35)  // the first border tap reads
        var history: [(probe: Probe, hit: Bool)] = []
        while let p = plan.next(after: history), history.count < 60 {
            let again = history.contains { $0.probe == p }
            history.append((p, (again ? truth : reach).contains(x: p.x, y: p.y)))
        }
        let top = history.filter { $0.probe.y == plan.inset }
        #expect(top.map(\.hit) == [true, false, false], "\(history.map(\.probe))")
        #expect(try #require(plan.measuredZone(from: history)).y > 0, "the edge stays inside the border")
        // Ending where the coil does: tapped twice, read twice, the coil reaches the edge.
        let edge = try! NormalizedRect(x: 0.2, y: 0.0, width: 0.5, height: 0.35)
        let full = walk(plan, truth: edge) { _, _ in false }
        #expect(full.filter { $0.probe.y == plan.inset }.map(\.hit) == [true, true])
        #expect(try #require(plan.measuredZone(from: full)).y == 0)
    }

    func score(
        _ plan: any ProbeStrategy, truth: NormalizedRect?, predicted: NormalizedRect, misses: Set<Int> = [],
        limit: Int = 100
    ) -> SessionScore {
        var history: [(probe: Probe, hit: Bool)] = []
        while let p = plan.next(after: history), history.count < limit {
            let inside = truth?.contains(x: p.x, y: p.y) ?? false
            history.append((p, inside && !misses.contains(history.count)))
        }
        return SessionScore(predicted: predicted, history: history, strategy: plan, aspectRatio: 0.48)
    }

    @Test(arguments: [
        ("equal", SessionScore.Verdict.confirmed),
        ("shifted", .shifted),
        ("absent", .noField),
        ("tooFew", .inconclusive),
    ])
    func verdicts(case name: String, verdict: SessionScore.Verdict) {
        let truth: NormalizedRect? =
            switch name {
            case "equal", "tooFew": s24
            case "shifted": try! NormalizedRect(x: 0.03, y: 0.03, width: 0.67, height: 0.3)
            default: nil
            }
        for plan in [GridPlan(around: s24) as any ProbeStrategy, AdaptivePlan(around: s24)] {
            let result = score(plan, truth: truth, predicted: s24, limit: name == "tooFew" ? 2 : 100)
            #expect(result.verdict == verdict, "\(plan.kind): \(result.reason)")
            if name == "equal" { #expect(result.centreHit == true) }
            if name == "absent" { #expect(result.measured == nil && result.hits == 0) }
        }
    }

    /// A phone misses a tap now and then even over its coil: one miss at the predicted
    /// centre is no evidence against the prediction.
    @Test func aMissAtTheCentreDoesNotOverturnARightPrediction() {
        for plan in [GridPlan(around: s24) as any ProbeStrategy, AdaptivePlan(around: s24)] {
            let result = score(plan, truth: s24, predicted: s24, misses: [0])
            #expect(result.verdict == .confirmed, "\(plan.kind): \(result.reason)")
        }
    }

    /// Taps that never reach where the question is decided give INCONCLUSIVE with the
    /// reason, never NO_FIELD or SHIFTED.
    @Test func noEvidenceWhereItMattersIsInconclusive() {
        let plan = GridPlan(around: s24)
        // Only far-away misses: nothing was tapped inside the predicted zone.
        let far = [Probe(x: 0.1, y: 0.05), Probe(x: 0.9, y: 0.05), Probe(x: 0.5, y: 0.95)].map { (probe: $0, hit: false) }
        let silent = SessionScore(predicted: s24, history: far, strategy: plan, aspectRatio: 0.48)
        #expect(silent.verdict == .inconclusive && silent.reason.contains("too few positions inside and around"))
        // A hit in the middle but nothing tapped well outside: a larger coil is not ruled out.
        let middle = [(0.5, 0.55), (0.3, 0.55), (0.7, 0.55)].map { (probe: Probe(x: $0.0, y: $0.1), hit: true) }
        let unbounded = SessionScore(predicted: s24, history: middle, strategy: plan, aspectRatio: 0.48)
        #expect(unbounded.verdict == .inconclusive && unbounded.reason.contains("silent positions around"))
        // No prediction to compare with.
        let none = SessionScore(predicted: nil, history: middle, strategy: plan, aspectRatio: 0.48)
        #expect(none.verdict == .inconclusive && none.reason == "no predicted zone to compare with")
    }

    @Test func skippedPositionsAreNotInTheDenominator() {
        let plan = GridPlan(around: s24)
        let history = plan.expectedProbes(for: s24).map { (probe: $0, hit: s24.contains(x: $0.x, y: $0.y)) }
        let result = SessionScore(
            predicted: s24, history: Array(history.dropLast()), skipped: 1, strategy: plan, aspectRatio: 0.48)
        #expect(result.taps == history.count - 1 && result.skipped == 1)
    }

    @Test(
        arguments: [
            ((0.0, -0.16), 150.0, "24 mm higher than predicted (viewed from the back, top edge up)"),
            ((0.05, 0.1), 150.0, "15 mm lower and 8 mm further right than predicted (viewed from the back, top edge up)"),
            ((-0.04, 0.0), nil, "0.04 body heights further left than predicted (viewed from the back, top edge up)"),
        ] as [((Double, Double), Double?, String)])
    func shiftsInWords(shift: (Double, Double), heightMm: Double?, words: String) {
        #expect(VerdictWords.direction((shift.0, shift.1), bodyHeightMm: heightMm) == words)
    }
}
