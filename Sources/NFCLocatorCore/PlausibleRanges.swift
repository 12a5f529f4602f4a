/// The bounds of a phone's published body that every layer shares: the catalog validator
/// refuses a row outside them, and the stores (`StoredRanges`) refuse to hold or read a
/// session outside them. One set, so a catalog row that validates can never produce a
/// session that no command can read back.
public enum PlausibleRanges {
    /// A body side in millimetres: from a small watch-sized tag reader target to a large
    /// tablet, with room to spare (the largest tablets are under 400 mm).
    public static let bodyMm: ClosedRange<Double> = 20...1000
    /// Width over height of a catalog row's body (tall phones to wide tablets).
    public static let catalogAspectRatio: ClosedRange<Double> = 0.2...5
}
