import Foundation
import Testing

@testable import NFCPhysics

/// The loop model against published closed forms and an independent integration.
@Suite struct ClosedFormTests {
    @Test func ellipticIntegralsMatchTabulatedValues() {
        // Abramowitz and Stegun, table 17.1: K and E at k² = 1/2, and the k = 0 limits.
        let (K, E) = EllipticIntegrals.complete(modulus: (0.5).squareRoot())
        #expect(abs(K - 1.854_074_677_301_372) < 1e-14)
        #expect(abs(E - 1.350_643_881_047_675) < 1e-14)
        let zero = EllipticIntegrals.complete(modulus: 0)
        #expect(abs(zero.first - .pi / 2) < 1e-15 && abs(zero.second - .pi / 2) < 1e-15)
        // Near 1, where K diverges as ln(4 / k'), the AGM still ends.
        let steep = EllipticIntegrals.complete(modulus: 0.999_999_999)
        #expect(steep.first > 10 && abs(steep.second - 1) < 1e-7)
    }

    /// Neumann's integral over many-sided polygons converges to Maxwell's circles: the
    /// numerical route is right, so it can judge the rectangles.
    @Test(arguments: [(20.0, 15.0, 3.0), (10.0, 30.0, 10.0), (25.0, 25.0, 2.0), (5.0, 40.0, 0.5)])
    func neumannIntegralAgreesWithMaxwellsCircles(a: Double, other: Double, b: Double) {
        let exact = CoaxialCircles.mutualInductance(radiusMm: a, radiusMm: other, distanceMm: b)
        let numeric = NeumannIntegral.mutualInductance(
            NeumannIntegral.circle(radius: a, z: 0, sides: 720), NeumannIntegral.circle(radius: other, z: b, sides: 720),
            pieceMm: 10)
        // An inscribed 720-gon falls short of its circle's area by 1.3e-5 of it.
        #expect(abs(numeric - exact) / exact < 3e-5, "Maxwell \(exact) H, Neumann \(numeric) H")
    }

    /// A loop far above another couples as two dipoles: M = μ0 A1 A2 / (2π z³).
    @Test func farLoopsCoupleAsDipoles() {
        let circle = CoaxialCircles.mutualInductance(radiusMm: 5, radiusMm: 8, distanceMm: 400)
        let dipole = LoopConstants.mu0 * (Double.pi * 25e-6) * (Double.pi * 64e-6) / (2 * Double.pi * pow(0.4, 3))
        #expect(abs(circle - dipole) / dipole < 1e-3)
        let p = RectangularLoop(centreX: 0, centreY: 0, widthMm: 10, heightMm: 6)
        let q = RectangularLoop(centreX: 0, centreY: 0, widthMm: 8, heightMm: 12, turns: 3)
        let rectangles = RectangularLoop.mutualInductance(p, q, separationMm: 500)
        let dipoles = 3 * LoopConstants.mu0 * 60e-6 * 96e-6 / (2 * Double.pi * pow(0.5, 3))
        #expect(abs(rectangles - dipoles) / dipoles < 1e-3)
    }

    /// The rectangles' closed form against the integration, over, across and beyond the
    /// coil, with turns at a pitch: the model the bench simulates and fits.
    @Test(arguments: [
        (0.0, 0.0, 3.0), (15.0, 5.0, 3.0), (25.0, 0.0, 3.0), (40.0, 10.0, 5.0), (0.0, 0.0, 20.0), (-31.0, 22.0, 2.0),
    ])
    func rectangleClosedFormAgreesWithNeumannIntegral(dx: Double, dy: Double, z: Double) {
        let coil = RectangularLoop(centreX: 0, centreY: 0, widthMm: 40, heightMm: 30, turns: 3, pitchMm: 0.8)
        let reader = RectangularLoop(centreX: dx, centreY: dy, widthMm: 22, heightMm: 18, turns: 2, pitchMm: 1)
        let closed = RectangularLoop.mutualInductance(reader, coil, separationMm: z)
        var numeric = 0.0
        for i in 0..<reader.turns {
            for j in 0..<coil.turns {
                numeric += NeumannIntegral.mutualInductance(
                    NeumannIntegral.outline(of: reader, turn: i, z: z), NeumannIntegral.outline(of: coil, turn: j, z: 0),
                    pieceMm: z / 4)
            }
        }
        let peak = RectangularLoop.mutualInductance(reader.moved(dx: -dx, dy: -dy), coil, separationMm: z)
        #expect(abs(closed - numeric) <= 1e-9 * abs(peak), "closed form \(closed) H, integral \(numeric) H")
        #expect(abs(RectangularLoop.mutualInductance(coil, reader, separationMm: z) - closed) <= 1e-12 * abs(peak))
    }
}
