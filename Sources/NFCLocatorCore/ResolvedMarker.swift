/// A zone drawn as a solid marker. Only catalog-backed data may be drawn this way.
public struct ResolvedMarker: Sendable, Hashable {
    public let zone: NormalizedRect
    public let confidence: Confidence

    /// Traps on `.generic` or `.unknown`: drawing a guess as a solid marker is a
    /// programmer error. A throwing or optional initializer would let a caller swallow
    /// it and ship a confident-looking wrong answer; a crash in development cannot be
    /// missed.
    public init(zone: NormalizedRect, confidence: Confidence) {
        precondition(
            confidence.isCatalogBacked,
            "ResolvedMarker needs .exact or .approximate confidence, got .\(confidence)")
        self.zone = zone
        self.confidence = confidence
    }
}

/// "Sweep the phone over this region": the answer when no trustworthy marker exists,
/// or alongside a stale one.
public struct FallbackGuidance: Sendable, Hashable {
    public let confidence: Confidence
    /// Where to sweep; `nil` means the whole back.
    public let sweepRegion: NormalizedRect?
    /// Key into `Localizable.xcstrings` for the operator hint.
    public let hintKey: String

    /// Traps on `.exact` or `.approximate`: catalog data belongs in a `ResolvedMarker`.
    public init(confidence: Confidence, sweepRegion: NormalizedRect?, hintKey: String) {
        precondition(
            !confidence.isCatalogBacked,
            "FallbackGuidance needs .generic or .unknown confidence, got .\(confidence)")
        self.confidence = confidence
        self.sweepRegion = sweepRegion
        self.hintKey = hintKey
    }
}
