/// A short label for a confidence, e.g. `[APPROXIMATE · STALE]`, coloured per level.
public struct ConfidenceBadge: Sendable {
    public var palette: SilhouettePalette
    public var useColor: Bool

    public init(palette: SilhouettePalette = .terminal, useColor: Bool = false) {
        self.palette = palette
        self.useColor = useColor
    }

    public func render(_ confidence: Confidence, stale: Bool) -> String {
        let text = "[" + confidence.rawValue.uppercased() + (stale ? " · STALE" : "") + "]"
        guard useColor else { return text }
        let sgr: String =
            switch confidence {
            case .exact: palette.zoneExact
            case .approximate: stale ? palette.zoneStale : palette.zoneApproximate
            case .generic, .unknown: palette.sweep
            }
        return "\u{1B}[\(sgr)m\(text)\u{1B}[0m"
    }
}
