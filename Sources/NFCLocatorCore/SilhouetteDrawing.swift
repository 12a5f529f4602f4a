/// What a silhouette shows, independent of the medium (terminal or SVG).
public struct SilhouetteDrawing: Sendable {
    public enum ZoneStyle: Sendable { case exact, approximate, stale }
    public enum MarkKind: Sendable { case hit, miss }
    public struct Mark: Sendable {
        public let x: Double, y: Double, kind: MarkKind
        public init(x: Double, y: Double, kind: MarkKind) { self.x = x; self.y = y; self.kind = kind }
    }

    /// Body width / height.
    public var aspectRatio: Double
    public var zone: NormalizedRect?
    public var zoneStyle: ZoneStyle
    /// A region to sweep (heuristic, or around a stale zone); drawn lighter than a zone.
    public var sweepRegion: NormalizedRect?
    /// The cell the operator should place the phone over now.
    public var highlight: NormalizedRect?
    public var marks: [Mark]

    public init(
        aspectRatio: Double, zone: NormalizedRect? = nil, zoneStyle: ZoneStyle = .approximate,
        sweepRegion: NormalizedRect? = nil, highlight: NormalizedRect? = nil, marks: [Mark] = []
    ) {
        precondition(aspectRatio > 0 && aspectRatio.isFinite, "aspect ratio must be positive")
        self.aspectRatio = aspectRatio
        self.zone = zone
        self.zoneStyle = zoneStyle
        self.sweepRegion = sweepRegion
        self.highlight = highlight
        self.marks = marks
    }

    /// The drawing for a resolver answer.
    public init(resolution: AntennaResolution, defaultAspectRatio: Double = 0.48) {
        let aspect = resolution.profile?.aspectRatio ?? defaultAspectRatio
        switch resolution.guidance {
        case .marker(let m):
            self.init(aspectRatio: aspect, zone: m.zone, zoneStyle: m.confidence == .exact ? .exact : .approximate)
        case .staleMarker(let m, let sweep):
            self.init(aspectRatio: aspect, zone: m.zone, zoneStyle: .stale, sweepRegion: sweep.sweepRegion)
        case .fallback(let g):
            self.init(aspectRatio: aspect, sweepRegion: g.sweepRegion ?? .wholeBack)
        }
    }
}

/// Colours for renderings. The library owns no design system: defaults are the
/// medium's plain system colours (the terminal's own ANSI palette, CSS named colours
/// behind overridable CSS variables), and every role can be replaced.
public struct SilhouettePalette: Sendable {
    public var outline: String
    public var zoneExact: String
    public var zoneApproximate: String
    public var zoneStale: String
    public var sweep: String
    public var highlight: String
    public var hit: String
    public var miss: String

    public init(
        outline: String, zoneExact: String, zoneApproximate: String, zoneStale: String,
        sweep: String, highlight: String, hit: String, miss: String
    ) {
        self.outline = outline
        self.zoneExact = zoneExact
        self.zoneApproximate = zoneApproximate
        self.zoneStale = zoneStale
        self.sweep = sweep
        self.highlight = highlight
        self.hit = hit
        self.miss = miss
    }

    /// ANSI SGR parameters; the terminal's theme decides the actual hues.
    public static let terminal = SilhouettePalette(
        outline: "2", zoneExact: "32", zoneApproximate: "36", zoneStale: "33",
        sweep: "90", highlight: "1;7", hit: "1;32", miss: "31")

    /// CSS colours, each wrapped in a variable a host page may override.
    public static let svg = SilhouettePalette(
        outline: "var(--nfc-outline, gray)", zoneExact: "var(--nfc-zone-exact, seagreen)",
        zoneApproximate: "var(--nfc-zone-approximate, steelblue)", zoneStale: "var(--nfc-zone-stale, orange)",
        sweep: "var(--nfc-sweep, silver)", highlight: "var(--nfc-highlight, black)",
        hit: "var(--nfc-hit, seagreen)", miss: "var(--nfc-miss, firebrick)")
}
