import Foundation
import NFCPhysics

/// How a simulated phone couples with the reader: the world a simulation runs in.
public enum SimulatedCoupling: Sendable, Hashable {
    /// The project's first model, kept by name for comparison only: coupling is the depth
    /// of the reader's centre inside the coil grown by the reader's radius, falling
    /// linearly to that edge. No null ring, no outer lobe, and a read region that does not
    /// depend on the reader (docs/physics.md says why that misleads).
    case linear
    /// Two coupled loops (`NFCPhysics.BenchPhysics`): the phone answers where the mutual
    /// inductance of the reader's antenna and its coil, times the field's strength,
    /// clears its threshold.
    case mutualInductance(PhysicalBench)
}

extension SimulatedCoupling {
    /// The world in words, as the virtual bench's status gives it.
    public var summary: String {
        switch self {
        case .linear: "linear"
        case .mutualInductance(let bench):
            "loops: reader \(PhysicalBench.millimetres(bench.reader.widthMm)) x "
                + "\(PhysicalBench.millimetres(bench.reader.heightMm)) mm, gap \(PhysicalBench.millimetres(bench.gapMm)) mm"
        }
    }
}

/// The physical bench around a simulated phone: what a real one would have measured.
public struct PhysicalBench: Sendable, Hashable {
    public var reader: ReaderAntenna
    /// The phone's body height, mm: the catalog's fractions times this are millimetres.
    public var bodyHeightMm: Double
    /// Between the reader's antenna and the phone's coil with the phone resting on it, mm.
    public var gapMm: Double
    public var coilTurns: Int
    public var coilPitchMm: Double
    /// How much the phone's threshold varies from one placement to the next: the standard
    /// deviation of its logarithm (orientation, battery, the hand's tilt). 0.1 makes the
    /// edge of the read region about a millimetre wide.
    public var thresholdSpread: Double
    /// The relative field of a ladder rung whose nominal threshold is t: (1 - t)^exponent.
    /// 1 is what the estimator assumes; a world with another exponent is a chip whose
    /// register maps to field differently, which the fit must survive.
    public var rungFieldExponent: Double

    public init(
        reader: ReaderAntenna, bodyHeightMm: Double, gapMm: Double = 3, coilTurns: Int = 4, coilPitchMm: Double = 0.6,
        thresholdSpread: Double = 0.1, rungFieldExponent: Double = 1
    ) {
        precondition(bodyHeightMm > 0 && gapMm > 0 && thresholdSpread >= 0 && rungFieldExponent > 0, "a physical bench")
        self.reader = reader
        self.bodyHeightMm = bodyHeightMm
        self.gapMm = gapMm
        self.coilTurns = coilTurns
        self.coilPitchMm = coilPitchMm
        self.thresholdSpread = thresholdSpread
        self.rungFieldExponent = rungFieldExponent
    }

    /// A figure in mm as an operator types it: a whole number without its decimal point.
    public static func millimetres(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    /// The relative field a rung of nominal threshold `t` gives on this bench's chip.
    public func fieldStrength(threshold t: Double) -> Double { pow(max(0, 1 - t), rungFieldExponent) }
}

extension SimulatedPhone {
    /// The phone's coil and the reader as physics sees them; `nil` in the linear world.
    public var physics: BenchPhysics? {
        guard case .mutualInductance(let bench) = couplingModel else { return nil }
        let widthMm = bench.bodyHeightMm * aspectRatio
        let coilWidth = antenna.width * widthMm, coilHeight = antenna.height * bench.bodyHeightMm
        let pitch = min(bench.coilPitchMm, min(coilWidth, coilHeight) / Double(2 * bench.coilTurns))
        let coil = RectangularLoop(
            centreX: (antenna.x + antenna.width / 2) * widthMm, centreY: (antenna.y + antenna.height / 2) * bench.bodyHeightMm,
            widthMm: coilWidth, heightMm: coilHeight, turns: bench.coilTurns, pitchMm: pitch)
        return BenchPhysics(reader: bench.reader, coil: coil, gapMm: bench.gapMm, readHeightMm: readHeightMm)
    }

    /// The reader's centre at (x, y) fractions of the back, in millimetres.
    func millimetres(x: Double, y: Double, bodyHeightMm: Double) -> (x: Double, y: Double) {
        (x * bodyHeightMm * aspectRatio, y * bodyHeightMm)
    }

    /// |M| over the phone's threshold at the default field (`BenchPhysics.margin`).
    func physicalMargin(_ bench: PhysicalBench, _ physics: BenchPhysics, x: Double, y: Double, heightMm: Double) -> Double {
        let at = millimetres(x: x, y: y, bodyHeightMm: bench.bodyHeightMm)
        return physics.margin(readerAtX: at.x, y: at.y, heightMm: heightMm)
    }
}
