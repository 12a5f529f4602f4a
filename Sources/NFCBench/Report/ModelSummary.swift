import Foundation
import NFCBenchRecords
import NFCLocatorCore

/// What a model's sessions add up to: how many, on which units, with which verdicts,
/// and where on the back pooled taps read (a coarse map of read rates).
///
/// Built in one pass over the sessions, so its memory is the map's cells per model,
/// whatever the number of sessions.
public struct ModelSummary: Sendable {
    /// Cells across and down the back in the pooled map.
    public static let columns = 8, rows = 16

    public let lookupKey: String
    /// The newest session of the model: its prediction, body and name describe the model
    /// as it stands, and the catalog entry is looked up from it.
    public private(set) var latest: SessionRecord
    public var name: String { ReportedSession.displayName(latest) }
    public private(set) var bodyHeightMm: Double?
    public private(set) var sessions = 0
    public private(set) var simulatedSessions = 0
    public private(set) var units: Set<String> = []
    public private(set) var verdicts: [String: Int] = [:]
    public private(set) var taps = 0
    public private(set) var hits = 0
    private var cellTaps: [Int]
    private var cellHits: [Int]

    init(_ first: SessionRecord) {
        lookupKey = first.lookupKey
        latest = first
        cellTaps = Array(repeating: 0, count: Self.columns * Self.rows)
        cellHits = cellTaps
    }

    mutating func add(_ s: SessionRecord) {
        sessions += 1
        latest = s
        if s.simulated { simulatedSessions += 1 }
        if let unit = s.unit, !unit.isEmpty { units.insert(unit) }
        verdicts[s.verdict?.rawValue ?? "not finished", default: 0] += 1
        bodyHeightMm = s.bodyHeightMm ?? bodyHeightMm
    }

    mutating func add(_ tap: TapRecord) {
        guard tap.result != .skipped else { return }
        let c = min(Self.columns - 1, max(0, Int(tap.probe.x * Double(Self.columns))))
        let r = min(Self.rows - 1, max(0, Int(tap.probe.y * Double(Self.rows))))
        taps += 1
        cellTaps[r * Self.columns + c] += 1
        if tap.result.read {
            hits += 1
            cellHits[r * Self.columns + c] += 1
        }
    }

    /// The pooled map, one cell per region that was tapped at least once.
    public var heat: [SilhouetteDrawing.HeatCell] {
        var cells: [SilhouetteDrawing.HeatCell] = []
        let w = 1 / Double(Self.columns), h = 1 / Double(Self.rows)
        for r in 0..<Self.rows {
            for c in 0..<Self.columns where cellTaps[r * Self.columns + c] > 0 {
                let n = cellTaps[r * Self.columns + c]
                let rect = try! NormalizedRect(x: Double(c) * w, y: Double(r) * h, width: w, height: h)
                cells.append(.init(cell: rect, readRate: Double(cellHits[r * Self.columns + c]) / Double(n), taps: n))
            }
        }
        return cells
    }

    public var drawing: SilhouetteDrawing {
        SilhouetteDrawing(
            aspectRatio: latest.aspectRatio, zone: latest.predicted, zoneStyle: latest.stale ? .stale : .approximate,
            heat: heat)
    }

    /// The pooled map captioned with the model, what it pools and the newest session's date.
    public func drawing(clock: ReportClock) -> SilhouetteDrawing {
        var d = drawing
        d.caption = [
            name, "\(sessions) session(s), \(taps) taps", "newest started \(clock.local(latest.startedAt))",
        ]
        return d
    }

    public func count(_ verdict: SessionVerdict) -> Int { verdicts[verdict.rawValue] ?? 0 }

    /// One summary per model, in the order models first appear in `sessions`, reading
    /// each session's taps once; memory is one session's taps and the summaries.
    public static func build(_ sessions: SessionSource, from store: any BenchReading) async throws -> [ModelSummary] {
        var order: [String] = []
        var summaries: [String: ModelSummary] = [:]
        try await sessions.forEach(in: store) { s in
            guard let taps = try await store.intactTaps(of: s) else { return }
            if summaries[s.lookupKey] == nil {
                order.append(s.lookupKey)
                summaries[s.lookupKey] = ModelSummary(s)
            }
            summaries[s.lookupKey]!.add(s)
            for tap in taps { summaries[s.lookupKey]!.add(tap) }
        }
        return order.map { summaries[$0]! }
    }

    public static func build(_ sessions: [SessionRecord], from store: any BenchReading) async throws -> [ModelSummary] {
        try await build(.listed(sessions), from: store)
    }
}
