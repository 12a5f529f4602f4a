import Foundation

/// The complete elliptic integrals of the first and second kind, K(k) and E(k), by the
/// arithmetic-geometric mean.
///
/// Maxwell's formula for two coaxial circles (`CoaxialCircles`) needs both; it is the
/// closed form the loop model is tested against, so it must be exact to the last digits
/// itself. The AGM converges quadratically: five or six steps reach double precision for
/// any modulus below 1 (Abramowitz and Stegun, 17.6).
public enum EllipticIntegrals {
    /// K(k) and E(k) for a modulus `k` in [0, 1).
    public static func complete(modulus k: Double) -> (first: Double, second: Double) {
        precondition(k >= 0 && k < 1, "an elliptic modulus lies in [0, 1)")
        var a = 1.0
        var b = (1 - k * k).squareRoot()
        var c = k
        var power = 0.5  // 2^(n-1) for c_n, with c_0 weighted by 1/2
        var sum = power * c * c
        // Until c is below a part in 10^15 of a; a and b may then differ by their last bit
        // for ever, so the steps are also bounded (quadratic convergence needs about six).
        for _ in 0..<40 where abs(c) > 1e-15 * a {
            let nextA = (a + b) / 2
            let nextB = (a * b).squareRoot()
            c = (a - b) / 2
            a = nextA
            b = nextB
            power *= 2
            sum += power * c * c
        }
        let first = Double.pi / (2 * a)
        return (first, first * (1 - sum))
    }
}
