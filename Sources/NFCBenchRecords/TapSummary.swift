/// A session's taps counted once, the one way every surface counts them (`run`,
/// `sessions`, `show`, the reports, both CSVs, JUnit): in total and per height layer. A
/// partial read (the phone started and stopped) is a read but never a hit, and a skip is no
/// tap at all: the reader observed nothing there.
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
    /// The same counts per height above the back (`run --heights`), lowest first: one
    /// layer, at 0 mm, for a session tapped on the back only; none for a session without taps.
    public let layers: [Layer]

    /// One height's counts.
    public struct Layer: Sendable, Equatable {
        public let heightMm: Double
        public let taps: Int
        public let hits: Int
        public let partialReads: Int
        public let skips: Int
        public let foreign: Int

        /// On the back, where the verdict is taken (docs/refine.md).
        public var isBack: Bool { heightMm == 0 }
        /// "on the back 147/406" or "10 mm above 36/147 +2 partial".
        public var words: String {
            let place = isBack ? "on the back" : Tenths.words(heightMm) + " mm above"
            return place + " \(hits)/\(taps)" + (partialReads > 0 ? " +\(partialReads) partial" : "")
        }
    }

    /// Attempts where the phone answered at all: hits and partial reads.
    public var reads: Int { hits + partialReads }
    public var misses: Int { taps - reads }

    public init(_ records: [TapRecord]) {
        var counts: [Double: [Int]] = [:]
        for record in records {
            let slot: Int =
                switch record.result {
                case .hit: 1
                case .partial: 2
                case .miss: 0
                case .skipped: 3
                case .foreign: 4
                }
            var row = counts[record.probe.heightMm] ?? [0, 0, 0, 0, 0]
            if slot < 3 { row[0] += 1 }
            if slot > 0 { row[slot] += 1 }
            counts[record.probe.heightMm] = row
        }
        layers = counts.keys.sorted().map { height in
            let c = counts[height]!
            return Layer(heightMm: height, taps: c[0], hits: c[1], partialReads: c[2], skips: c[3], foreign: c[4])
        }
        taps = layers.reduce(0) { $0 + $1.taps }
        hits = layers.reduce(0) { $0 + $1.hits }
        partialReads = layers.reduce(0) { $0 + $1.partialReads }
        skips = layers.reduce(0) { $0 + $1.skips }
        foreign = layers.reduce(0) { $0 + $1.foreign }
    }

    /// `hits/taps`, with the partial reads when there are any: `7/15 +2 partial`.
    public var hitsOfTaps: String { "\(hits)/\(taps)" + (partialReads > 0 ? " +\(partialReads) partial" : "") }

    /// Each layer in words, for a session tapped at more than one height: "on the back
    /// 147/406, 10 mm above 36/147"; `nil` for a session tapped on the back only.
    public var layerWords: String? {
        layers.count > 1 ? layers.map(\.words).joined(separator: ", ") : nil
    }
}
