/// Colours for renderings. The library owns no design system: the terminal gets its own
/// ANSI palette (the user's theme decides the hues), SVG gets plain colour values, and
/// every role can be replaced.
///
/// SVG colours are plain attribute values, never CSS `var()`: librsvg and other
/// non-browser renderers do not evaluate CSS functions inside attributes and drew grey
/// boxes. A host page restyles a drawing through its class names instead
/// (`.nfc-hit { fill: … }`), since a stylesheet rule outranks a presentation attribute.
public struct SilhouettePalette: Sendable {
    public var outline: String
    public var zoneExact: String
    public var zoneApproximate: String
    public var zoneStale: String
    public var sweep: String
    public var highlight: String
    public var hit: String
    public var miss: String
    /// The measured zone's outline.
    public var measured: String
    public var skipped: String
    /// Pooled read rates: drawn in this colour at an opacity equal to the rate.
    public var heat: String
    /// Words in a drawing: title line, legend, orientation, position numbers.
    public var text: String

    public init(
        outline: String, zoneExact: String, zoneApproximate: String, zoneStale: String,
        sweep: String, highlight: String, hit: String, miss: String,
        measured: String = "35", skipped: String = "2", heat: String = "34", text: String = "0"
    ) {
        self.outline = outline
        self.zoneExact = zoneExact
        self.zoneApproximate = zoneApproximate
        self.zoneStale = zoneStale
        self.sweep = sweep
        self.highlight = highlight
        self.hit = hit
        self.miss = miss
        self.measured = measured
        self.skipped = skipped
        self.heat = heat
        self.text = text
    }

    /// ANSI SGR parameters; the terminal's theme decides the actual hues.
    public static let terminal = SilhouettePalette(
        outline: "2", zoneExact: "32", zoneApproximate: "36", zoneStale: "33",
        sweep: "90", highlight: "1;7", hit: "1;32", miss: "31")

    /// Okabe and Ito's colour-blind-safe set (bluish green, sky blue, orange, blue,
    /// vermillion, reddish purple), readable on white and in greyscale print.
    public static let svg = SilhouettePalette(
        outline: "#333333", zoneExact: "#009E73", zoneApproximate: "#56B4E9", zoneStale: "#E69F00",
        sweep: "#BBBBBB", highlight: "#000000", hit: "#0072B2", miss: "#D55E00",
        measured: "#CC79A7", skipped: "#777777", heat: "#0072B2", text: "#222222")
}
