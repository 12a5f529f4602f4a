import Foundation

/// A flat rectangular antenna of one or more turns, lying in a plane parallel to the
/// phone's back, its sides along the back's axes.
///
/// Positions are in millimetres on the phone's back, seen from the back with the origin
/// at its top-left corner (the catalog's convention, scaled to the body). A coil of
/// several turns is modelled as nested rectangular filaments, each `pitchMm` inside the
/// one before; a pitch of 0 stacks the turns on one rectangle. Real antennas are spirals,
/// but a spiral's turns differ from nested rectangles only by the short step between
/// turns, far below a millimetre.
public struct RectangularLoop: Sendable, Hashable {
    public var centreX: Double
    public var centreY: Double
    public var widthMm: Double
    public var heightMm: Double
    public var turns: Int
    public var pitchMm: Double

    public init(centreX: Double, centreY: Double, widthMm: Double, heightMm: Double, turns: Int = 1, pitchMm: Double = 0) {
        precondition(widthMm > 0 && heightMm > 0 && widthMm.isFinite && heightMm.isFinite, "a loop has a finite positive size")
        precondition(centreX.isFinite && centreY.isFinite, "a loop lies somewhere finite")
        precondition(turns >= 1, "a loop has at least one turn")
        precondition(pitchMm >= 0 && 2 * pitchMm * Double(turns - 1) < min(widthMm, heightMm), "the turns fit inside the loop")
        self.centreX = centreX
        self.centreY = centreY
        self.widthMm = widthMm
        self.heightMm = heightMm
        self.turns = turns
        self.pitchMm = pitchMm
    }

    /// The loop at the same place, `dx`, `dy` further along the back.
    public func moved(dx: Double, dy: Double) -> RectangularLoop {
        var loop = self
        loop.centreX += dx
        loop.centreY += dy
        return loop
    }

    /// One turn's filament: the rectangle `inset` millimetres inside the outermost.
    struct Filament {
        let left: Double, right: Double, top: Double, bottom: Double
    }

    var filaments: [Filament] {
        (0..<turns).map { turn in
            let inset = Double(turn) * pitchMm
            return Filament(
                left: centreX - widthMm / 2 + inset, right: centreX + widthMm / 2 - inset,
                top: centreY - heightMm / 2 + inset, bottom: centreY + heightMm / 2 - inset)
        }
    }

    /// The mutual inductance of two loops in parallel planes `separationMm` apart, in
    /// henries, with the currents circulating the same way in both: positive when the
    /// flux of one through the other is positive. Its sign matters: where it crosses zero
    /// the phone does not couple at all (the null ring, docs/physics.md).
    public static func mutualInductance(_ p: RectangularLoop, _ q: RectangularLoop, separationMm z: Double) -> Double {
        precondition(z > 0 && z.isFinite, "loops in parallel planes a positive, finite distance apart")
        var sum = 0.0
        for f in p.filaments {
            for g in q.filaments {
                sum += neumann(f, g, z)
            }
        }
        return LoopConstants.neumannPerMm * sum
    }

    /// Neumann's integral over two rectangular filaments, in millimetres: the eight pairs
    /// of parallel sides. Going round each loop the same way, the side at the top runs
    /// along -x and the one at the bottom along +x (left along +y, right along -y), so a
    /// pair of sides counts positive when both are at the same end. Written out without
    /// arrays: the coil fit calls it millions of times.
    static func neumann(_ f: Filament, _ g: Filament, _ z: Double) -> Double {
        filamentNeumann(
            left: f.left, right: f.right, top: f.top, bottom: f.bottom, left: g.left, right: g.right, top: g.top,
            bottom: g.bottom, separation: z)
    }

    static func filamentNeumann(
        left fl: Double, right fr: Double, top ft: Double, bottom fb: Double, left gl: Double, right gr: Double,
        top gt: Double, bottom gb: Double, separation z: Double
    ) -> Double {
        let z2 = z * z
        func along(_ a1: Double, _ a2: Double, _ b1: Double, _ b2: Double, _ across: Double) -> Double {
            ParallelFilaments.neumann(from: a1, to: a2, from: b1, to: b2, distance: (across * across + z2).squareRoot())
        }
        // Sides along x: same ends (top-top, bottom-bottom) positive, opposite negative.
        let x =
            along(fl, fr, gl, gr, ft - gt) + along(fl, fr, gl, gr, fb - gb) - along(fl, fr, gl, gr, ft - gb)
            - along(fl, fr, gl, gr, fb - gt)
        let y =
            along(ft, fb, gt, gb, fl - gl) + along(ft, fb, gt, gb, fr - gr) - along(ft, fb, gt, gb, fl - gr)
            - along(ft, fb, gt, gb, fr - gl)
        return x + y
    }

    /// `filamentNeumann` and its slopes as the second filament (the reader) moves along x
    /// and along y: the coil fit turns a hand's placement error into an error in log|M|.
    static func filamentNeumannWithSlopes(
        left fl: Double, right fr: Double, top ft: Double, bottom fb: Double, left gl: Double, right gr: Double,
        top gt: Double, bottom gb: Double, separation z: Double
    ) -> (value: Double, slopeX: Double, slopeY: Double) {
        let z2 = z * z
        var value = 0.0, slopeX = 0.0, slopeY = 0.0
        // Sides along x: the reader's x moves the second filament along; its y changes the
        // across distance `ft - gt` (and the rest) by -1 per millimetre.
        for (across, sign) in [(ft - gt, 1.0), (fb - gb, 1.0), (ft - gb, -1.0), (fb - gt, -1.0)] {
            let d = (across * across + z2).squareRoot()
            let term = ParallelFilaments.neumannWithSlopes(from: fl, to: fr, from: gl, to: gr, distance: d)
            value += sign * term.value
            slopeX += sign * term.alongSlope
            slopeY -= sign * term.distanceSlope * across / d
        }
        for (across, sign) in [(fl - gl, 1.0), (fr - gr, 1.0), (fl - gr, -1.0), (fr - gl, -1.0)] {
            let d = (across * across + z2).squareRoot()
            let term = ParallelFilaments.neumannWithSlopes(from: ft, to: fb, from: gt, to: gb, distance: d)
            value += sign * term.value
            slopeY += sign * term.alongSlope
            slopeX -= sign * term.distanceSlope * across / d
        }
        return (value, slopeX, slopeY)
    }

    /// `filamentNeumannWithSlopes` for two filaments, the second the reader's.
    static func neumannWithSlopes(_ f: Filament, _ g: Filament, _ z: Double) -> (value: Double, slopeX: Double, slopeY: Double) {
        filamentNeumannWithSlopes(
            left: f.left, right: f.right, top: f.top, bottom: f.bottom, left: g.left, right: g.right, top: g.top,
            bottom: g.bottom, separation: z)
    }
}
