/// A session's taps counted once, the one way `sessions`, `show` and `run --json` count
/// them. A partial read (the phone started and stopped) is a read but never a hit, and a
/// skip is no tap at all: the reader observed nothing there.
public struct TapSummary: Sendable, Equatable {
    /// Attempts the reader observed of the phone: HIT, PARTIAL or MISS.
    public let taps: Int
    /// Attempts that read all the way.
    public let hits: Int
    /// Attempts a phone began and did not finish.
    public let partialReads: Int
    /// Positions the operator skipped.
    public let skips: Int
    /// Answers from something other than the phone (`TapRecord.Result.foreign`): no
    /// evidence about the phone either way, counted apart.
    public let foreign: Int

    /// Attempts where the phone answered at all: hits and partial reads.
    public var reads: Int { hits + partialReads }
    public var misses: Int { taps - reads }

    public init(_ records: [TapRecord]) {
        var taps = 0, hits = 0, partial = 0, skips = 0, foreign = 0
        for record in records {
            switch record.result {
            case .hit: hits += 1
            case .partial: partial += 1
            case .miss: break
            case .skipped:
                skips += 1
                continue
            case .foreign:
                foreign += 1
                continue
            }
            taps += 1
        }
        self.taps = taps
        self.hits = hits
        self.partialReads = partial
        self.skips = skips
        self.foreign = foreign
    }

    /// `hits/taps`, with the partial reads when there are any: `7/15 +2 partial`.
    public var hitsOfTaps: String { "\(hits)/\(taps)" + (partialReads > 0 ? " +\(partialReads) partial" : "") }
}
