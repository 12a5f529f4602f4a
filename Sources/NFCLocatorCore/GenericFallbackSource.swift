/// The last layer: a sweep region from the body shape alone.
///
/// It branches on form factor and fold state only. `screenSizeClass` is carried in
/// the signals for future refinement but does not move the region today. Regions are
/// inferred from where manufacturers' published illustrations put the coil for each
/// shape (upper back for bar phones, the hinge band for book foldables, the lower
/// half for unfolded flips); none is a measurement.
public struct GenericFallbackSource: Sendable {
    public init() {}

    public func guidance(for signals: DeviceIdentitySignals) -> FallbackGuidance {
        switch (signals.formFactor, signals.foldState) {
        case (nil, _):
            FallbackGuidance(confidence: .unknown, sweepRegion: nil, hintKey: "nfc_locator.fallback.unknown")
        case (.phone?, _):
            generic(x: 0.10, y: 0.05, width: 0.80, height: 0.45, hint: "nfc_locator.fallback.phone")
        case (.tablet?, _):
            generic(x: 0.20, y: 0.20, width: 0.60, height: 0.60, hint: "nfc_locator.fallback.tablet")
        case (.foldBook?, .folded?):
            generic(x: 0.10, y: 0.15, width: 0.80, height: 0.45, hint: "nfc_locator.fallback.fold_book_folded")
        case (.foldBook?, _):
            generic(x: 0.10, y: 0.30, width: 0.80, height: 0.45, hint: "nfc_locator.fallback.fold_book_unfolded")
        case (.foldFlip?, .folded?):
            generic(x: 0.10, y: 0.10, width: 0.80, height: 0.80, hint: "nfc_locator.fallback.fold_flip_folded")
        case (.foldFlip?, _):
            generic(x: 0.10, y: 0.55, width: 0.80, height: 0.40, hint: "nfc_locator.fallback.fold_flip_unfolded")
        }
    }

    /// The sweep that accompanies a stale marker: the zone with a margin around it.
    public func sweep(around zone: NormalizedRect) -> FallbackGuidance {
        FallbackGuidance(
            confidence: .generic, sweepRegion: zone.expanded(by: 0.1),
            hintKey: "nfc_locator.marker.stale_hint")
    }

    private func generic(x: Double, y: Double, width: Double, height: Double, hint: String) -> FallbackGuidance {
        // Constant regions inside the unit square; validated by the heuristic tests.
        let region = try! NormalizedRect(x: x, y: y, width: width, height: height)
        return FallbackGuidance(confidence: .generic, sweepRegion: region, hintKey: hint)
    }
}
