/// Body shape of a device; the heuristic layer branches on it.
public enum FormFactor: String, Sendable, Codable, CaseIterable {
    case phone
    case tablet
    /// Book-style foldable (Galaxy Z Fold, Pixel Fold): opens sideways to a near-square.
    case foldBook
    /// Flip-style foldable (Galaxy Z Flip): folds top to bottom.
    case foldFlip
}

/// For foldables, which state a zone (or the device now) refers to.
public enum FoldState: String, Sendable, Codable, CaseIterable {
    case folded
    case unfolded
}

/// Coarse screen size. Part of the shared wire format; the heuristic does not use
/// it yet, which is why it is kept rather than dropped.
public enum ScreenSizeClass: String, Sendable, Codable, CaseIterable {
    case compact
    case regular
    case large
}
