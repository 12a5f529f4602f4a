/// The reader's antenna and the gap to the phone's coil, as a session records them: what
/// the physical model needs to turn a session's taps into the phone's coil
/// (docs/physics.md). A session stored before migration 018 has none: its reader's
/// antenna is unknown, and it is said so wherever the session is shown.
public struct ReaderGeometry: Sendable, Equatable {
    /// The antenna's rectangle, mm.
    public var antennaWidthMm: Double
    public var antennaHeightMm: Double
    /// Between the reader's antenna and the phone's coil with the phone resting on the
    /// reader (the reader's cover and the phone's back), mm.
    public var gapMm: Double
    /// Where the figures come from: "option" (given by the operator), or a reader profile's
    /// name with whether its figures are measured or inferred ("acr122u, inferred").
    public var source: String

    public init(antennaWidthMm: Double, antennaHeightMm: Double, gapMm: Double, source: String) {
        precondition(
            Self.antennaSides.contains(antennaWidthMm) && Self.antennaSides.contains(antennaHeightMm)
                && Self.gaps.contains(gapMm), "a reader geometry within ReaderGeometry's ranges")
        self.antennaWidthMm = antennaWidthMm
        self.antennaHeightMm = antennaHeightMm
        self.gapMm = gapMm
        self.source = source
    }

    /// An antenna side a reader may have, mm: from a key fob's coil to a desk pad's.
    public static let antennaSides: ClosedRange<Double> = 5...300
    /// A gap a bench may have, mm: a thin cover to a thick case on a stand-off.
    public static let gaps: ClosedRange<Double> = 0.2...50

    /// "46 x 64 mm antenna, gap 3 mm (acr122u, inferred)".
    public var description: String {
        "\(Self.millimetres(antennaWidthMm)) x \(Self.millimetres(antennaHeightMm)) mm antenna, gap "
            + "\(Self.millimetres(gapMm)) mm (\(source))"
    }

    static func millimetres(_ value: Double) -> String { Tenths.words(value) }
}
