import Foundation

/// The reader's antenna: a flat rectangle under the reader's top, centred on the point
/// the bench calls the reader's position.
public struct ReaderAntenna: Sendable, Hashable {
    public var widthMm: Double
    public var heightMm: Double
    public var turns: Int

    public init(widthMm: Double, heightMm: Double, turns: Int = 2) {
        precondition(
            widthMm > 0 && heightMm > 0 && widthMm.isFinite && heightMm.isFinite, "an antenna has a finite positive size")
        precondition(turns >= 1, "an antenna has at least one turn")
        self.widthMm = widthMm
        self.heightMm = heightMm
        self.turns = turns
    }

    /// The antenna as a loop centred at (x, y) on the phone's back.
    public func loop(atX x: Double, y: Double) -> RectangularLoop {
        RectangularLoop(centreX: x, centreY: y, widthMm: widthMm, heightMm: heightMm, turns: turns)
    }
}

/// The bench as physics sees it: the reader's antenna under the phone's coil, the gap
/// between them, and the coupling the phone needs to answer.
///
/// The reader drives its antenna with a current set by its field setting; the phone's coil
/// picks up a voltage ω M I, and its front end wakes when that clears its threshold. So
/// the phone answers a field of relative strength `s` (1: the reader's default) wherever
/// |M| s reaches `activationHenries`, the mutual inductance the default field needs. The
/// two sizes, the gap and the threshold decide the read region; nothing else does
/// (docs/physics.md).
public struct BenchPhysics: Sendable, Hashable {
    public var reader: ReaderAntenna
    /// The phone's coil on its back, in millimetres from the back's top-left corner.
    public var coil: RectangularLoop
    /// Between the two antennas with the phone resting on the reader: the reader's top
    /// cover and the phone's back cover, in millimetres. A rig's height adds to it.
    public var gapMm: Double
    /// The mutual inductance the reader's default field needs to wake the phone, henries.
    public var activationHenries: Double

    public init(reader: ReaderAntenna, coil: RectangularLoop, gapMm: Double, activationHenries: Double) {
        precondition(gapMm > 0 && gapMm.isFinite, "the antennas are a positive, finite distance apart")
        precondition(activationHenries > 0 && activationHenries.isFinite, "a phone needs some coupling to answer")
        self.reader = reader
        self.coil = coil
        self.gapMm = gapMm
        self.activationHenries = activationHenries
    }

    /// A bench whose phone, with the reader centred under its coil, still answers the
    /// default field `readHeightMm` above the back and no higher: the threshold set from a
    /// height a lab can measure rather than from a front end's datasheet.
    public init(reader: ReaderAntenna, coil: RectangularLoop, gapMm: Double, readHeightMm: Double) {
        precondition(readHeightMm > 0 && readHeightMm.isFinite, "a phone reads some height above the reader")
        let centred = reader.loop(atX: coil.centreX, y: coil.centreY)
        let threshold = abs(RectangularLoop.mutualInductance(centred, coil, separationMm: gapMm + readHeightMm))
        self.init(reader: reader, coil: coil, gapMm: gapMm, activationHenries: threshold)
    }

    /// The mutual inductance with the reader's centre under (x, y) on the back, `heightMm`
    /// above it (a rig's lift), henries, signed.
    public func mutualInductance(readerAtX x: Double, y: Double, heightMm: Double = 0) -> Double {
        RectangularLoop.mutualInductance(reader.loop(atX: x, y: y), coil, separationMm: gapMm + max(0, heightMm))
    }

    /// |M| over the activation: the weakest relative field (1 / margin) the phone still
    /// answers there. Above 1 the default field reads; 0 on the null ring.
    public func margin(readerAtX x: Double, y: Double, heightMm: Double = 0) -> Double {
        abs(mutualInductance(readerAtX: x, y: y, heightMm: heightMm)) / activationHenries
    }

    /// Whether the phone answers a field of relative strength `strength` (1: default).
    public func answers(strength: Double, readerAtX x: Double, y: Double, heightMm: Double = 0) -> Bool {
        margin(readerAtX: x, y: y, heightMm: heightMm) * strength >= 1
    }
}
