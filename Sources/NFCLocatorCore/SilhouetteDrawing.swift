/// What a silhouette shows, independent of the medium (terminal or SVG).
public struct SilhouetteDrawing: Sendable {
    public enum ZoneStyle: Sendable {
        case exact, approximate, stale

        /// How every drawing shows a resolver's answer, so a template, a resolve and a
        /// report of the same phone use one legend: verified, approximate, or approximate
        /// and not verified recently.
        public init(_ resolution: AntennaResolution) {
            switch resolution.guidance {
            case .marker(let m): self = m.confidence == .exact ? .exact : .approximate
            case .staleMarker: self = .stale
            case .fallback: self = .approximate
            }
        }
    }
    /// What happened at a position. Each kind has its own shape (filled disc, cross,
    /// hollow square), so a colour-blind reader or a grey printout tells them apart.
    /// `planned`: where a plan will put the reader's centre (templates, plans).
    /// `partial`: a tag read that began and stopped (tag mode); `foreign`: only something
    /// other than the phone answered there.
    public enum MarkKind: Sendable { case hit, miss, skipped, planned, partial, foreign }
    public struct Mark: Sendable {
        public let x: Double, y: Double, kind: MarkKind
        /// The position's number in the plan, printed beside the mark (SVG only).
        public let label: String?
        public init(x: Double, y: Double, kind: MarkKind, label: String? = nil) {
            self.x = x; self.y = y; self.kind = kind; self.label = label
        }
    }
    /// One cell of a pooled tap map: how often taps there read (0...1); or of a
    /// read-height map: how high it read, as a fraction of the highest tried, with the
    /// height written in the cell (`label`).
    public struct HeatCell: Sendable {
        public let cell: NormalizedRect, readRate: Double, taps: Int
        public let label: String?
        public init(cell: NormalizedRect, readRate: Double, taps: Int, label: String? = nil) {
            precondition((0...1).contains(readRate), "a read rate is a fraction")
            self.cell = cell; self.readRate = readRate; self.taps = taps; self.label = label
        }
    }

    /// What the shading means, in the legend and in the drawing's description.
    public var heatLegend = "pooled taps: darker reads more often"
    public var heatDescription = "Shaded cells show how often pooled taps read there."

    /// Body width / height.
    public var aspectRatio: Double
    public var zone: NormalizedRect?
    public var zoneStyle: ZoneStyle
    /// A region to sweep (heuristic, or around a stale zone); drawn lighter than a zone.
    public var sweepRegion: NormalizedRect?
    /// The cell the operator should place the phone over now.
    public var highlight: NormalizedRect?
    public var marks: [Mark]
    /// The zone the taps measured, drawn as a dashed outline over the prediction.
    public var measured: NormalizedRect?
    /// Read rates of pooled taps (a model's summary), drawn under everything else.
    public var heat: [HeatCell]
    /// Sides of the measured zone that no tap bounded: drawn open (an arrow toward the
    /// border), never as a measured line.
    public var openSides: Set<Side> = []
    /// Lines printed under the legend: the model, the session or plan, and the date, so a
    /// drawing printed or saved alone still says what it shows.
    public var caption: [String] = []

    public enum Side: String, Sendable, Hashable, CaseIterable { case left, top, right, bottom }

    public init(
        aspectRatio: Double, zone: NormalizedRect? = nil, zoneStyle: ZoneStyle = .approximate,
        sweepRegion: NormalizedRect? = nil, highlight: NormalizedRect? = nil, marks: [Mark] = [],
        measured: NormalizedRect? = nil, heat: [HeatCell] = []
    ) {
        precondition(aspectRatio > 0 && aspectRatio.isFinite, "aspect ratio must be positive")
        self.aspectRatio = aspectRatio
        self.zone = zone
        self.zoneStyle = zoneStyle
        self.sweepRegion = sweepRegion
        self.highlight = highlight
        self.marks = marks
        self.measured = measured
        self.heat = heat
    }

    /// The drawing for a resolver answer.
    public init(resolution: AntennaResolution, defaultAspectRatio: Double = 0.48) {
        let aspect = resolution.profile?.aspectRatio ?? defaultAspectRatio
        switch resolution.guidance {
        case .marker(let m):
            self.init(aspectRatio: aspect, zone: m.zone, zoneStyle: ZoneStyle(resolution))
        case .staleMarker(let m, let sweep):
            self.init(aspectRatio: aspect, zone: m.zone, zoneStyle: .stale, sweepRegion: sweep.sweepRegion)
        case .fallback(let g):
            self.init(aspectRatio: aspect, sweepRegion: g.sweepRegion ?? .wholeBack)
        }
    }
}
