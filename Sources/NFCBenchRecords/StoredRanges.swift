import NFCLocatorCore

/// What a stored session or tap value may hold, for every store that decodes one (the
/// bench's SQLite, the lab's PostgreSQL): one set of bounds, so a row one store accepts
/// the other accepts too. Out of range is damage or another program's work, and is refused.
public enum StoredRanges {
    /// Plausible instants: the Unix epoch to the year 9999, so date arithmetic and
    /// formatting can never overflow.
    public static let instants: ClosedRange<Double> = 0...253_402_300_799
    /// Positions and zones, as fractions of the back; IoU.
    public static let fraction: ClosedRange<Double> = 0...1
    public static let aspectRatio: ClosedRange<Double> = 0.05...20
    /// The catalog's own bound, so a validated row always makes a readable session.
    public static let bodyHeightMm: ClosedRange<Double> = PlausibleRanges.bodyMm
    public static let planPass: ClosedRange<Int64> = 0...1_000_000
    public static let repeats: ClosedRange<Int64> =
        Int64(SessionRecord.repeatCounts.lowerBound)...Int64(SessionRecord.repeatCounts.upperBound)
    public static let step: ClosedRange<Int64> = 0...100_000
    public static let attempt: ClosedRange<Int64> = 0...1000
    /// Events of one session: far more than any run records (a few per position).
    public static let eventSequence: ClosedRange<Int64> = 0...10_000_000
    /// A day, in milliseconds.
    public static let latencyMs: ClosedRange<Double> = 0...86_400_000
}
