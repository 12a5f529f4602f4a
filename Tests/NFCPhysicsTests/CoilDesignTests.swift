import Foundation
import Testing

@testable import NFCPhysics

/// The coil design against sessions in the physical world: sixteen positions it chooses,
/// placed by a hand that lands off by 1.5 mm, must find the coil, where sixteen on a grid
/// around the prediction do not (bench/physics measures it over many labs).
@Suite struct CoilDesignTests {
    static let body = CoilFitTests.body
    static let rungs = CoilFitTests.rungs
    /// A coil off the prediction by 8 mm, on the upper back.
    static let coil = RectangularLoop(centreX: 30, centreY: 45, widthMm: 36, heightMm: 28, turns: 4, pitchMm: 0.6)
    static let predicted = CoilDesign.Position(x: 36, y: 50)

    static var fit: CoilFit {
        var fit = CoilFit(bodyWidthMm: body.width, bodyHeightMm: body.height, rungThresholds: rungs)
        fit.spread = 0.15
        fit.placementSpreadMm = 1.5
        return fit
    }

    /// The centres of a 16 x 32 lattice of the back, as the coil plan offers them.
    static let lattice = (0..<16).flatMap { i in
        (0..<32).map { j in CoilDesign.Position(x: (Double(i) + 0.5) * body.width / 16, y: (Double(j) + 0.5) * body.height / 32) }
    }

    static func design(readerMm: Double, gapMm: Double = 3) -> CoilDesign {
        var design = CoilDesign(
            fit: fit, bench: .init(reader: ReaderAntenna(widthMm: readerMm, heightMm: readerMm), gapMm: gapMm),
            candidates: lattice, prior: .init(centre: predicted), graded: true)
        design.cloudSize = 500
        design.weighed = 120
        return design
    }

    /// The phone's answer where a hand put the reader: the default field reads where
    /// |M| clears the threshold (set by a 22 mm read height), and a rung of threshold t
    /// where |M| (1 - t)^1.3 does; each placement's threshold scatters by 10 %.
    struct World {
        let physics: BenchPhysics
        var generator: SplitMix64
        init(readerMm: Double, gapMm: Double, seed: UInt64) {
            physics = BenchPhysics(
                reader: ReaderAntenna(widthMm: readerMm, heightMm: readerMm), coil: CoilDesignTests.coil, gapMm: gapMm,
                readHeightMm: 22)
            generator = SplitMix64(seed: seed)
        }
        mutating func normal() -> Double {
            let u = Double.random(in: Double.ulpOfOne..<1, using: &generator), v = Double.random(in: 0..<1, using: &generator)
            return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
        }
        mutating func tap(at p: CoilDesign.Position, bench: CoilTap.Bench) -> CoilTap {
            let margin =
                physics.margin(readerAtX: p.x + 1.5 * normal(), y: p.y + 1.5 * normal()) * exp(0.1 * normal())
            let rungsRead =
                margin >= 1 ? CoilDesignTests.rungs.lastIndex { margin * pow(1 - $0, 1.3) >= 1 } : nil
            return CoilTap(x: p.x, y: p.y, hit: margin >= 1, rungsRead: rungsRead, bench: bench)
        }
    }

    static func offset(_ e: CoilEstimate) -> Double {
        hypot(e.centreX.value - coil.centreX, e.centreY.value - coil.centreY)
    }

    /// Readers smaller than the coil, about its size and larger: the sixteen chosen
    /// positions put the centre within 2.5 mm and the size within 6 mm, and the 95 %
    /// intervals hold the true centre.
    @Test(arguments: [20.0, 40.0, 60.0])
    func sixteenChosenPositionsFindTheCoil(readerMm: Double) throws {
        let design = Self.design(readerMm: readerMm)
        var world = World(readerMm: readerMm, gapMm: 3, seed: UInt64(readerMm))
        var taps: [CoilTap] = []
        while let index = design.next(after: taps) {
            taps.append(world.tap(at: Self.lattice[index], bench: design.bench))
        }
        #expect(taps.count == 16, "the design stops at its budget")
        #expect(Set(taps.map { CoilDesign.Position(x: $0.x, y: $0.y) }).count == taps.count, "no position twice")
        let estimate = try #require(Self.fit.estimate(taps))
        #expect(Self.offset(estimate) < 2.5, "centre \(Self.offset(estimate)) mm off")
        #expect(abs(estimate.width.value - Self.coil.widthMm) < 6, "width \(estimate.width.value)")
        #expect(abs(estimate.height.value - Self.coil.heightMm) < 6, "height \(estimate.height.value)")
        #expect((estimate.centreX.low...estimate.centreX.high).contains(Self.coil.centreX))
        #expect((estimate.centreY.low...estimate.centreY.high).contains(Self.coil.centreY))
    }

    /// The same taps give the same next position, whether the design read them one at a
    /// time or all at once (a resumed session continues where it stopped).
    @Test func theSameTapsGiveTheSamePosition() {
        let incremental = Self.design(readerMm: 40)
        var world = World(readerMm: 40, gapMm: 3, seed: 7)
        var taps: [CoilTap] = []
        for _ in 0..<5 {
            let index = incremental.next(after: taps)!
            taps.append(world.tap(at: Self.lattice[index], bench: incremental.bench))
        }
        let afresh = Self.design(readerMm: 40)
        #expect(afresh.next(after: taps) == incremental.next(after: taps))
        // A position the operator skipped is not offered again.
        let chosen = afresh.next(after: taps)!
        #expect(afresh.next(after: taps, unavailable: [chosen]) != chosen)
    }

    /// With the coil known to be somewhere around the prediction, the first position the
    /// design asks for lies near it, not off at the body's corner.
    @Test func startsNearThePrediction() {
        let first = Self.lattice[Self.design(readerMm: 40).next(after: [])!]
        #expect(hypot(first.x - Self.predicted.x, first.y - Self.predicted.y) < 30)
    }

    /// Value and slopes of the coupling agree with the value alone and with its finite
    /// differences: the fit turns a hand's error into log|M| through them.
    @Test func slopesAreTheCouplingsDerivatives() {
        let (l, r, t, b) = (10.0, 50.0, 30.0, 60.0)
        for (x, y) in [(20.0, 35.0), (45.0, 70.0), (62.0, 44.0), (30.0, 45.0)] {
            func m(_ x: Double, _ y: Double) -> Double {
                RectangularLoop.filamentNeumann(
                    left: l, right: r, top: t, bottom: b, left: x - 15, right: x + 15, top: y - 12, bottom: y + 12,
                    separation: 4)
            }
            let both = RectangularLoop.filamentNeumannWithSlopes(
                left: l, right: r, top: t, bottom: b, left: x - 15, right: x + 15, top: y - 12, bottom: y + 12,
                separation: 4)
            let h = 1e-4
            #expect(abs(both.value - m(x, y)) <= 1e-9 * abs(m(x, y)) + 1e-12)
            #expect(abs(both.slopeX - (m(x + h, y) - m(x - h, y)) / (2 * h)) < 1e-5)
            #expect(abs(both.slopeY - (m(x, y + h) - m(x, y - h)) / (2 * h)) < 1e-5)
        }
    }
}
