import Foundation
import Testing

@testable import NFCPhysics

/// The fit seeded by the cloud (`CoilDesign.likeliestOverlap`): sixteen hand taps leave the
/// likelihood several hills, and the fit's own starts, centred on the reads, can settle on
/// the wrong one. The session is lab 8 of `PLAN=design bench/physics` (20 mm reader, gap
/// 4.1 mm, a 47 x 50 mm coil, the prediction 33 mm off its centre), its taps as recorded:
/// the reads ring a coil larger than the reader, whose middle is silent (the null ring), and
/// unseeded the fit called it a 14 x 12 mm coil inside the ring.
@Suite struct SeededCoilFitTests {
    static let body = (width: 70.6, height: 147.0)
    /// The standard ladder's rungs (`CouplingLadder.standard`, the default's 0 first).
    static let rungs = [
        0.0, 0.06349206349206349, 0.12698412698412698, 0.19047619047619047, 0.25396825396825395, 0.38095238095238093,
        0.5079365079365079, 0.6349206349206349, 0.7619047619047619, 0.8476190476190476, 0.892063492063492,
    ]
    static let truth: CoilRectangle = (7.12, 56.66, 47.29, 50.03)
    static let bench = CoilTap.Bench(reader: ReaderAntenna(widthMm: 20, heightMm: 20), gapMm: 4.1004273745882225)
    static let recorded: [(Double, Double, Bool, Int?)] = [
        (33.09375, 84.984375, true, 5), (24.26875, 103.359375, true, 4), (19.85625, 75.796875, false, nil),
        (46.33125, 94.171875, true, 5), (15.44375, 94.171875, true, 6), (15.44375, 112.546875, false, nil),
        (55.15625, 89.578125, false, nil), (37.50625, 66.609375, false, nil), (6.61875, 94.171875, true, 3),
        (41.91875, 80.390625, true, 6), (15.44375, 75.796875, true, 6), (15.44375, 66.609375, true, 6),
        (41.91875, 57.421875, true, 3), (28.68125, 103.359375, true, 1), (19.85625, 57.421875, true, 0),
        (6.61875, 98.765625, false, nil),
    ]
    static var taps: [CoilTap] {
        recorded.map { CoilTap(x: $0.0, y: $0.1, hit: $0.2, rungsRead: $0.3, bench: bench) }
    }
    /// The bench's fit (`CoilFit.bench`): a threshold scatter of 0.15 and a hand's 1.5 mm.
    static let fit = {
        var fit = CoilFit(bodyWidthMm: body.width, bodyHeightMm: body.height, rungThresholds: rungs)
        fit.spread = 0.15
        fit.placementSpreadMm = 1.5
        return fit
    }()

    static func iou(_ r: CoilRectangle) -> Double {
        let t = truth
        let ix = max(0, min(r.x + r.width, t.x + t.width) - max(r.x, t.x))
        let iy = max(0, min(r.y + r.height, t.y + t.height) - max(r.y, t.y))
        return ix * iy / (r.width * r.height + t.width * t.height - ix * iy)
    }

    @Test func theCloudsSeedLeadsTheFitToTheHigherHillAndTheCoil() throws {
        let design = CoilDesign(
            fit: Self.fit, bench: Self.bench, candidates: [.init(x: 35, y: 73)],
            prior: CoilDesign.Prior(centre: .init(x: 29.12, y: 86.05)), graded: true, budget: 17)
        let seed = try #require(design.likeliestOverlap(after: Self.taps))
        #expect(Self.iou(seed) > 0.8, "the cloud's own estimate: \(seed)")
        let unseeded = try #require(Self.fit.estimate(Self.taps))
        let seeded = try #require(Self.fit.estimate(Self.taps, seeds: [seed]))
        // The seed is a start, not an answer: the fit keeps the most likely coil it finds.
        #expect(seeded.logLikelihood > unseeded.logLikelihood + 5, "\(unseeded.logLikelihood) -> \(seeded.logLikelihood)")
        #expect(Self.iou(unseeded.rectangle) < 0.3, "the unseeded fit's hill: \(unseeded.rectangle)")
        #expect(Self.iou(seeded.rectangle) > 0.8, "\(seeded.rectangle)")
        // The same taps give the same seed: a session's coil does not change from one reading to the next.
        let again = try #require(design.likeliestOverlap(after: Self.taps))
        #expect(again == seed)
    }

    @Test func aSeedOnAWorseHillLeavesTheFitWhereItWas() throws {
        let unseeded = try #require(Self.fit.estimate(Self.taps))
        let seed = try #require(Self.fit.estimate(Self.taps, seeds: [Self.truth]))
        // A seed far from every read, on a coil no tap supports: the fit's best stays.
        let stray = try #require(Self.fit.estimate(Self.taps, seeds: [(2, 2, 12, 12)]))
        #expect(stray.logLikelihood >= unseeded.logLikelihood - 1e-9)
        #expect(seed.logLikelihood >= stray.logLikelihood - 1e-6)
    }

    /// Work done beside the intervals (`catalog publish`'s session checks) is given the best
    /// coil and rung law the intervals are built around, and changes nothing in the estimate.
    @Test func workBesideTheIntervalsSeesTheBestCoilAndChangesNothing() throws {
        let alone = try #require(Self.fit.estimate(Self.taps, seeds: [Self.truth]))
        let (beside, seen) = try #require(
            Self.fit.estimate(Self.taps, seeds: [Self.truth]) { coil, exponent in
                [coil.x, coil.y, coil.width, coil.height, exponent]
            })
        #expect(beside == alone)
        let r = alone.rectangle
        #expect(seen == [r.x, r.y, r.width, r.height, alone.rungFieldExponent])
    }
}
