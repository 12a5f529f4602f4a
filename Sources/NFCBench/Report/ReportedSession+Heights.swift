import NFCBenchRecords
import NFCBenchSeams
import NFCLocatorCore

/// A session tapped at several heights above the back (`--heights`): a map per height,
/// and the read-height map, the greatest height at which each position read (the
/// phone's operating volume).
extension ReportedSession {
    /// The heights tapped, rising: `[0]` for a session on the back only.
    public var heights: [Double] { Set(positions.map(\.probe.heightMm)).sorted() }

    /// Each position on the back and the greatest height it read at; `nil` when it did
    /// not read on the back at all.
    public var readHeights: [(probe: Probe, heightMm: Double?)] {
        positions.filter(\.probe.isAtTapHeight).map { base in
            let here = positions.filter { $0.probe.x == base.probe.x && $0.probe.y == base.probe.y && $0.outcome.read }
            return (base.probe, here.map(\.probe.heightMm).max())
        }
    }

    /// The taps at one height.
    public func drawing(atHeightMm height: Double) -> SilhouetteDrawing {
        var drawing = SilhouetteDrawing(
            aspectRatio: session.aspectRatio, zone: session.predicted, zoneStyle: session.stale ? .stale : .approximate,
            marks: positions.filter { $0.probe.heightMm == height }.map {
                SilhouetteDrawing.Mark(x: $0.probe.x, y: $0.probe.y, kind: $0.outcome.markKind, label: String($0.number))
            })
        drawing.caption = ["\(name), session \(session.id)", "\(FixedPoint.format(height, 1)) mm above the back"]
        return drawing
    }

    /// Shaded by how high each position read, the height written in its cell: the cells
    /// are the plan's (a grid's or a raster's).
    public var readHeightDrawing: SilhouetteDrawing {
        let heights = self.heights
        let heat = readHeights.compactMap { entry -> SilhouetteDrawing.HeatCell? in
            guard let read = entry.heightMm, let level = heights.firstIndex(of: read), let cell = planCell(around: entry.probe)
            else { return nil }
            return .init(
                cell: cell, readRate: Double(level + 1) / Double(heights.count), taps: 1, label: FixedPoint.format(read, 0))
        }
        return heatDrawing(
            heat, legend: "read height: darker reads higher (mm in the cell)",
            description:
                "Each shaded cell read at the height written in it, and at every height below; unshaded cells did not read on the back.",
            subject: "greatest height read, mm above the back")
    }

    /// The back under the prediction, shaded cell by cell, with its legend and caption.
    func heatDrawing(_ heat: [SilhouetteDrawing.HeatCell], legend: String, description: String, subject: String)
        -> SilhouetteDrawing
    {
        var drawing = SilhouetteDrawing(
            aspectRatio: session.aspectRatio, zone: session.predicted, zoneStyle: session.stale ? .stale : .approximate,
            marks: [], heat: heat)
        drawing.heatLegend = legend
        drawing.heatDescription = description
        drawing.caption = ["\(name), session \(session.id)", subject]
        return drawing
    }

    /// The plan's cell (a grid's or a raster's) centred on `probe`, clipped to the back.
    func planCell(around probe: Probe) -> NormalizedRect? {
        let cells = session.strategy.shape.cells ?? PlanShape.Cells(columns: 10, rows: 20)
        let w = 1 / Double(cells.columns), h = 1 / Double(cells.rows)
        let x = max(0, probe.x - w / 2), y = max(0, probe.y - h / 2)
        return try? NormalizedRect(x: x, y: y, width: min(w, 1 - x), height: min(h, 1 - y))
    }
}
