import NFCBench
import NFCBenchRecords
import NFCBenchSeams
import NFCLocatorCore
import Testing

@Suite("The raster plan")
struct RasterPlanTests {
    /// A Galaxy S24 (70.6 x 147.0 mm) every 5 mm: 14 x 29 cells, rows in a serpentine.
    @Test func everyStepOverTheBackInAMachinesShortestPath() throws {
        let plan = try #require(RasterPlan(stepMm: 5, bodyWidthMm: 70.6, bodyHeightMm: 147))
        #expect(plan.columns == 14 && plan.rows == 29)
        #expect(plan.order.count == 406 && plan.expectedProbes(for: nil).count == 406)
        #expect(plan.shape.plannedLength == 406 && plan.shape.cells == PlanShape.Cells(columns: 14, rows: 29))
        // Neighbours are one cell apart, the row ends included (no return sweep).
        for (a, b) in zip(plan.order, plan.order.dropFirst()) {
            let dx = abs(a.x - b.x) * 70.6, dy = abs(a.y - b.y) * 147
            #expect(max(dx, dy) < 5.1 && min(dx, dy) < 1e-9, "\(a) -> \(b)")
        }
        #expect(Set(plan.order).count == plan.order.count)
        #expect(RasterPlan(stepMm: 1, bodyWidthMm: 300, bodyHeightMm: 200) == nil, "60,000 positions are refused")
    }

    @Test func aStoredRasterIsFollowedAgainAndMeasuresTheCellsThatRead() throws {
        let made = try #require(RasterPlan(stepMm: 10, bodyWidthMm: 70.6, bodyHeightMm: 147))
        let stored = RasterPlan(stored: made.order)
        #expect(stored.order == made.order && stored.columns == made.columns && stored.rows == made.rows)
        let session = ProbePlans.make(.raster, around: nil, aspectRatio: 0.48, planned: made.order)
        #expect(session.expectedProbes(for: nil) == made.order)
        let coil = try NormalizedRect(x: 0.2, y: 0.5, width: 0.6, height: 0.3)
        let history = made.order.map { ($0, coil.contains(x: $0.x, y: $0.y)) }
        let measured = try #require(stored.measuredZone(from: history))
        // Cell edges: within one cell of the coil on every side.
        #expect(abs(measured.x - coil.x) <= 1.0 / 7 && abs(measured.maxX - coil.maxX) <= 1.0 / 7)
        #expect(abs(measured.y - coil.y) <= 1.0 / 15 && abs(measured.maxY - coil.maxY) <= 1.0 / 15)
        #expect(stored.next(after: history) == nil)
    }
}
