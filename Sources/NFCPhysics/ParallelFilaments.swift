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
        func secondAntiderivative(_ u: Double) -> Double { u * asinh(u / d) - (u * u + d * d).squareRoot() }
        let f = secondAntiderivative
        return f(a2 - b1) - f(a1 - b1) - f(a2 - b2) + f(a1 - b2)
    }
}
