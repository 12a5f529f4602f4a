import Foundation
import Testing

@testable import NFCPhysics

/// The coil fit against sessions taken in the physical world, where the read region is
/// not the coil: the fit must find the coil itself, whatever the reader.
@Suite struct CoilFitTests {
    static let body = (width: 70.6, height: 147.0)  // Galaxy S24, Samsung's published body
    static let coil = RectangularLoop(centreX: 33, centreY: 40, widthMm: 40, heightMm: 30, turns: 4, pitchMm: 0.6)
    static let rungs = [0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95]
    static let fit = CoilFit(bodyWidthMm: body.width, bodyHeightMm: body.height, rungThresholds: rungs)

    /// A graded session on a 7 x 7 grid, `step` mm apart, around a point off the coil's
    /// centre, on a bench whose chip maps a rung of threshold t to the field (1 - t)^exponent.
    static func session(readerMm: Double, exponent: Double = 1, step: Double = 8, gapMm: Double = 3) -> [CoilTap] {
        let reader = ReaderAntenna(widthMm: readerMm, heightMm: readerMm)
        let world = BenchPhysics(reader: reader, coil: coil, gapMm: gapMm, readHeightMm: 20)
        var taps: [CoilTap] = []
        for i in 0..<7 {
            for j in 0..<7 {
                let x = 36 + Double(i - 3) * step, y = 38 + Double(j - 3) * step
                guard x > 0, x < body.width, y > 0 else { continue }
                let margin = world.margin(readerAtX: x, y: y)
                let rungsRead = margin >= 1 ? rungs.lastIndex { margin * pow(1 - $0, exponent) >= 1 } : nil
                taps.append(
                    CoilTap(x: x, y: y, hit: margin >= 1, rungsRead: rungsRead, bench: .init(reader: reader, gapMm: gapMm)))
            }
        }
        return taps
    }

    static func iou(_ e: CoilEstimate) -> Double {
        let r = e.rectangle
        let ix = max(0, min(r.x + r.width, coil.centreX + coil.widthMm / 2) - max(r.x, coil.centreX - coil.widthMm / 2))
        let iy = max(0, min(r.y + r.height, coil.centreY + coil.heightMm / 2) - max(r.y, coil.centreY - coil.heightMm / 2))
        return ix * iy / (r.width * r.height + coil.widthMm * coil.heightMm - ix * iy)
    }

    /// Readers of 20, 40 and 60 mm read regions of different sizes; each fit is the coil.
    @Test(arguments: [20.0, 40.0, 60.0])
    func findsTheCoilNotTheReadRegion(readerMm: Double) throws {
        let taps = Self.session(readerMm: readerMm)
        let estimate = try #require(Self.fit.estimate(taps))
        let offset = hypot(estimate.centreX.value - Self.coil.centreX, estimate.centreY.value - Self.coil.centreY)
        #expect(offset < 1.5, "centre \(offset) mm off")
        #expect(Self.iou(estimate) > 0.75, "IoU \(Self.iou(estimate))")
        // The centre's intervals hold the truth and say something: a few millimetres.
        #expect(estimate.centreX.low <= Self.coil.centreX && Self.coil.centreX <= estimate.centreX.high)
        #expect(estimate.centreY.low <= Self.coil.centreY && Self.coil.centreY <= estimate.centreY.high)
        #expect(estimate.centreX.high - estimate.centreX.low < 5 && !estimate.centreX.open)
        if readerMm == 60 {
            // The 60 mm reader reads well beyond the coil: its read region is no estimate.
            let reads = taps.filter(\.hit).map(\.x)
            #expect(reads.max()! - reads.min()! >= 1.15 * Self.coil.widthMm)
        }
    }

    /// The chip maps its rungs to field strengths by a law no datasheet gives; a chip whose
    /// law differs from the ladder's nominal one must not move the coil.
    @Test func aLadderThatMapsToFieldDifferentlyStillFindsTheCoil() throws {
        let estimate = try #require(Self.fit.estimate(Self.session(readerMm: 40, exponent: 1.6)))
        #expect(hypot(estimate.centreX.value - Self.coil.centreX, estimate.centreY.value - Self.coil.centreY) < 1.5)
        #expect(Self.iou(estimate) > 0.7)
        #expect(estimate.rungFieldExponent > 1, "the fitted law follows the chip's: \(estimate.rungFieldExponent)")
    }

    /// Sessions of two benches, a 20 mm reader at 3 mm and a 60 mm one at 6 mm, pool into
    /// one estimate, each with its own threshold, narrower than either alone.
    @Test func twoReadersSessionsPool() throws {
        let small = Self.session(readerMm: 20), large = Self.session(readerMm: 60, gapMm: 6)
        let pooled = try #require(Self.fit.estimate(small + large))
        let alone = try #require(Self.fit.estimate(large))
        #expect(pooled.benches == 2 && alone.benches == 1)
        #expect(hypot(pooled.centreX.value - Self.coil.centreX, pooled.centreY.value - Self.coil.centreY) < 1.0)
        #expect(abs(pooled.width.value - Self.coil.widthMm) < 3 && abs(pooled.height.value - Self.coil.heightMm) < 3)
        #expect(pooled.width.high - pooled.width.low < alone.width.high - alone.width.low)
    }

    /// No read, no coil; a lone read is an estimate whose intervals say how little it knows.
    @Test func aSessionWithoutReadsHasNoEstimateAndOneReadIsVague() throws {
        let bench = CoilTap.Bench(reader: ReaderAntenna(widthMm: 40, heightMm: 40), gapMm: 3)
        let misses = [(10.0, 10.0), (60.0, 10.0), (35.0, 120.0)].map { CoilTap(x: $0.0, y: $0.1, hit: false, bench: bench) }
        #expect(Self.fit.estimate(misses) == nil)
        let one = try #require(Self.fit.estimate(misses + [CoilTap(x: 35, y: 40, hit: true, bench: bench)]))
        #expect(one.width.high - one.width.low > 15, "one read cannot size a coil")
    }

    /// Sixteen binary taps the coil plan took on the emulated GRBL over a 42.4 x 44.1 mm coil
    /// centred at (35.3, 95.6) mm, a PN532 module's 35 x 30 mm antenna 1.5 mm below: their
    /// likelihood has two hills, the higher a coil about 20 mm tall, the other near the
    /// truth and within the 95 % cut of it. The interval runs across the valley between them,
    /// so it holds the truth; the walk alone stopped in the valley at 27 mm.
    @Test func aSecondHillOfBinaryTapsStaysInsideTheInterval() throws {
        let bench = CoilTap.Bench(reader: ReaderAntenna(widthMm: 35, heightMm: 30), gapMm: 1.5)
        let taps = [
            (51, 94, true), (55, 117, false), (11, 71, false), (51, 62, false), (20, 99, true), (20, 113, false),
            (55, 103, true), (33, 67, false), (24, 76, true), (38, 113, true), (42, 57, false), (64, 94, false),
            (11, 94, true), (38, 122, false), (15, 80, false), (15, 103, true),
        ].map { CoilTap(x: Double($0.0), y: Double($0.1), hit: $0.2, bench: bench) }
        let estimate = try #require(CoilFit(bodyWidthMm: 70.6, bodyHeightMm: 147, rungThresholds: [0]).estimate(taps))
        #expect(estimate.height.value < 30, "the higher hill is the short coil: \(estimate.height)")
        #expect(estimate.height.low < 44.1 && estimate.height.high > 44.1, "\(estimate.height)")
        #expect(estimate.centreY.low < 95.6 && estimate.centreY.high > 95.6, "\(estimate.centreY)")
        #expect(estimate.width.low < 42.4 && estimate.width.high > 42.4, "\(estimate.width)")
    }
}
