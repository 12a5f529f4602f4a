import Foundation

/// Maxwell's exact mutual inductance of two coaxial circular filaments (A Treatise on
/// Electricity and Magnetism, 1873, §701):
///
///     M = μ0 √(a A) [ (2/k - k) K(k) - (2/k) E(k) ],   k² = 4 a A / ((a + A)² + b²)
///
/// for radii `a`, `A` and axial distance `b`. The bench never has circular loops; this is
/// the closed form the numerical Neumann integral (`NeumannIntegral`) is checked against,
/// which in turn checks the rectangular loops the bench does have.
public enum CoaxialCircles {
    /// In henries, for radii and distance in millimetres.
    public static func mutualInductance(radiusMm a: Double, radiusMm bigA: Double, distanceMm b: Double) -> Double {
        precondition(a > 0 && bigA > 0 && b.isFinite, "two circles need positive radii and a finite distance")
        precondition(b != 0 || a != bigA, "two coincident filaments have no finite mutual inductance")
        let k = (4 * a * bigA / ((a + bigA) * (a + bigA) + b * b)).squareRoot()
        let (K, E) = EllipticIntegrals.complete(modulus: k)
        let metres = 1e-3 * (a * bigA).squareRoot()
        return LoopConstants.mu0 * metres * ((2 / k - k) * K - (2 / k) * E)
    }
}

/// Constants the loop formulas share.
public enum LoopConstants {
    /// The magnetic constant, H/m (its pre-2019 exact value; the 2019 SI value differs by
    /// a part in 10^10, far below anything the bench resolves).
    public static let mu0 = 4e-7 * Double.pi
    /// μ0 / 4π in H/mm: Neumann's double line integral over millimetre paths, in henries.
    public static let neumannPerMm = 1e-7 * 1e-3
}
