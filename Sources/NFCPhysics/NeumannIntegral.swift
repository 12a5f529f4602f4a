import Foundation

/// Neumann's formula, M = μ0/4π ∮∮ dl · dl' / r, integrated numerically over two closed
/// polygons in space.
///
/// An independent route to the same number: no closed form, only Gauss-Legendre
/// quadrature over pieces of each side short enough for the integrand. The tests hold
/// the rectangles' closed form (`RectangularLoop`) to it, and hold it to Maxwell's
/// exact circles (`CoaxialCircles`) through many-sided polygons, so neither check rests
/// on the code it checks.
public enum NeumannIntegral {
    public struct Point: Sendable, Hashable {
        public var x: Double, y: Double, z: Double
        public init(_ x: Double, _ y: Double, _ z: Double) {
            self.x = x
            self.y = y
            self.z = z
        }
    }

    /// In henries, for closed polygons (the last vertex joins the first) in millimetres.
    /// `pieceMm`: the longest piece a side is cut into; it must be well below the
    /// closest approach of the two paths for the quadrature to hold.
    public static func mutualInductance(_ p: [Point], _ q: [Point], pieceMm: Double) -> Double {
        precondition(p.count >= 3 && q.count >= 3 && pieceMm > 0, "two closed polygons and a positive piece length")
        let first = nodes(p, pieceMm), second = nodes(q, pieceMm)
        var sum = 0.0
        for a in first {
            for b in second {
                let dx = a.at.x - b.at.x, dy = a.at.y - b.at.y, dz = a.at.z - b.at.z
                let r = (dx * dx + dy * dy + dz * dz).squareRoot()
                sum += (a.step.x * b.step.x + a.step.y * b.step.y + a.step.z * b.step.z) / r
            }
        }
        return LoopConstants.neumannPerMm * sum
    }

    /// The quadrature nodes along a closed path: each with its place and its weighted
    /// tangent (the length element dl times the Gauss weight).
    static func nodes(_ polygon: [Point], _ pieceMm: Double) -> [(at: Point, step: Point)] {
        var out: [(at: Point, step: Point)] = []
        for i in polygon.indices {
            let a = polygon[i], b = polygon[(i + 1) % polygon.count]
            let dx = b.x - a.x, dy = b.y - a.y, dz = b.z - a.z
            let length = (dx * dx + dy * dy + dz * dz).squareRoot()
            let pieces = max(1, Int((length / pieceMm).rounded(.up)))
            for piece in 0..<pieces {
                for (node, weight) in gauss {
                    let t = (Double(piece) + (node + 1) / 2) / Double(pieces)
                    let w = weight / 2 / Double(pieces)
                    out.append((Point(a.x + t * dx, a.y + t * dy, a.z + t * dz), Point(w * dx, w * dy, w * dz)))
                }
            }
        }
        return out
    }

    /// Five-point Gauss-Legendre nodes and weights on [-1, 1].
    static let gauss: [(Double, Double)] = {
        let a = 2 * (10.0 / 7).squareRoot()
        let inner = (5 - a).squareRoot() / 3, outer = (5 + a).squareRoot() / 3
        let wInner = (322 + 13 * 70.0.squareRoot()) / 900, wOuter = (322 - 13 * 70.0.squareRoot()) / 900
        return [(-outer, wOuter), (-inner, wInner), (0, 128.0 / 225), (inner, wInner), (outer, wOuter)]
    }()

    /// A rectangle's outline at height `z`, in the direction `RectangularLoop` circulates.
    public static func outline(of loop: RectangularLoop, turn: Int = 0, z: Double) -> [Point] {
        let inset = Double(turn) * loop.pitchMm
        let l = loop.centreX - loop.widthMm / 2 + inset, r = loop.centreX + loop.widthMm / 2 - inset
        let t = loop.centreY - loop.heightMm / 2 + inset, b = loop.centreY + loop.heightMm / 2 - inset
        // top-right, top-left, bottom-left, bottom-right: top along -x, left along +y.
        return [Point(r, t, z), Point(l, t, z), Point(l, b, z), Point(r, b, z)]
    }

    /// A regular polygon of `sides` inscribed in a circle of `radius` about the z axis at `z`.
    public static func circle(radius: Double, z: Double, sides: Int) -> [Point] {
        (0..<sides).map { i in
            let angle = 2 * Double.pi * Double(i) / Double(sides)
            return Point(radius * cos(angle), radius * sin(angle), z)
        }
    }
}
