import NFCBenchRecords
import NFCBenchSeams
import NFCLocatorCore

/// Every `step` millimetres over the whole back, row by row, each row the other way
/// round from the last (a machine's shortest path): the plan a motion stage makes cheap.
/// Nothing is guessed from the prediction, so the map it draws is the phone's own.
///
/// The positions are the centres of a columns x rows grid of cells about `step` mm on a
/// side. They are stored with the session (`plannedProbes`), so a resumed session
/// follows the very same list.
public struct RasterPlan: ProbeStrategy {
    public let columns: Int
    public let rows: Int
    public let order: [Probe]
    public var kind: PlanKind { .raster }
    public var shape: PlanShape {
        PlanShape(plannedLength: order.count, maximumPositions: max(order.count, 1), cells: .init(columns: columns, rows: rows))
    }

    /// The steps a raster may take: finer than 1 mm is below a reader's own footprint,
    /// coarser than 50 mm leaves one cell on a phone.
    public static let steps: ClosedRange<Double> = 1...50
    /// No raster taps more positions than this (a 1 mm step over a large tablet would).
    public static let maximumPositions = 5000

    /// `nil` when the step gives more than `maximumPositions` positions.
    public init?(stepMm: Double, bodyWidthMm: Double, bodyHeightMm: Double) {
        precondition(Self.steps.contains(stepMm), "a raster step is checked before a plan is made")
        precondition(bodyWidthMm > 0 && bodyHeightMm > 0, "a raster needs the phone's size")
        let columns = max(1, Int((bodyWidthMm / stepMm).rounded()))
        let rows = max(1, Int((bodyHeightMm / stepMm).rounded()))
        guard columns * rows <= Self.maximumPositions else { return nil }
        var order: [Probe] = []
        for row in 0..<rows {
            let y = (Double(row) + 0.5) / Double(rows)
            let across = (0..<columns).map { (Double($0) + 0.5) / Double(columns) }
            order += (row % 2 == 0 ? across : across.reversed()).map { Probe(x: $0, y: y) }
        }
        self.columns = columns
        self.rows = rows
        self.order = order
    }

    /// The raster a session stored. An empty list (a damaged row, or a plan asked for
    /// without one) is a plan with nothing to tap, never a crash.
    public init(stored: [Probe]) {
        order = stored
        columns = max(1, Set(stored.map { ($0.x * 10_000).rounded() }).count)
        rows = max(1, Set(stored.map { ($0.y * 10_000).rounded() }).count)
    }

    public func next(after history: [(probe: Probe, hit: Bool)]) -> Probe? {
        history.count < order.count ? order[history.count] : nil
    }

    /// Every position, whatever answers: the list does not adapt.
    public func expectedProbes(for expected: NormalizedRect?) -> [Probe] { order }

    /// The cells that hit, bounded by the misses beside them (`ProbePlans.measuredBox`).
    public func measuredZone(from history: [(probe: Probe, hit: Bool)]) -> NormalizedRect? {
        ProbePlans.measuredBox(history, cellWidth: 1 / Double(columns), cellHeight: 1 / Double(rows))
    }
}
