import Foundation

/// The mutual inductance of two parallel straight filaments, in closed form.
///
/// Neumann's integral over two parallel segments, along the same axis from `a1` to `a2`
/// and from `b1` to `b2`, a perpendicular distance `d` apart, is (Grover, Inductance
/// Calculations, 1946, ch. 2; Paul, Inductance: Loop and Partial, 2010, §5.3)
///
///     ∫∫ ds ds' / r = F(a2 - b1) - F(a1 - b1) - F(a2 - b2) + F(a1 - b2),
///     F(u) = u asinh(u / d) - √(u² + d²),
///
/// F being a second antiderivative of 1 / √(u² + d²). A rectangular loop is four such
/// segments, so two rectangles in parallel planes, sides aligned, are sixteen pairs of
/// which only the eight parallel ones count.
enum ParallelFilaments {
    /// Neumann's integral in millimetres (multiply by μ0/4π for henries).
    static func neumann(from a1: Double, to a2: Double, from b1: Double, to b2: Double, distance d: Double) -> Double {
        precondition(d > 0, "parallel filaments at distance 0 touch: their integral diverges")
        // F is even, and asinh(|u|/d) = log((|u| + r) / d) with r = √(u² + d²): one square
        // root and one logarithm per term instead of two roots, a logarithm and a division
        // (the coil design asks for millions of these per session).
        let logD = log(d), d2 = d * d
        func f(_ u: Double) -> Double {
            let a = abs(u), r = (a * a + d2).squareRoot()
            return a * (log(a + r) - logD) - r
        }
        return f(a2 - b1) - f(a1 - b1) - f(a2 - b2) + f(a1 - b2)
    }

    /// The integral and how it changes as the second filament slides along its axis by `s`
    /// (`alongSlope`) and as the distance grows (`distanceSlope`): F'(u) = asinh(u / d) and
    /// ∂F/∂d = -√(u² + d²) / d, so both come from the terms the value needs.
    static func neumannWithSlopes(from a1: Double, to a2: Double, from b1: Double, to b2: Double, distance d: Double)
        -> (value: Double, alongSlope: Double, distanceSlope: Double)
    {
        precondition(d > 0, "parallel filaments at distance 0 touch: their integral diverges")
        let logD = log(d), d2 = d * d
        var value = 0.0, along = 0.0, radial = 0.0
        for (u, sign) in [(a2 - b1, 1.0), (a1 - b1, -1.0), (a2 - b2, -1.0), (a1 - b2, 1.0)] {
            let a = abs(u), r = (a * a + d2).squareRoot()
            let inverseSine = log(a + r) - logD  // asinh(|u| / d)
            value += sign * (a * inverseSine - r)
            along -= sign * (u < 0 ? -inverseSine : inverseSine)  // u = a - b - s: dF/ds = -F'(u)
            radial -= sign * r / d
        }
        return (value, along, radial)
    }
}
