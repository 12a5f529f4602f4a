import NFCBench
import NFCBenchRecords
import NFCLocatorCore
import NFCReaders
import Testing

@Suite("Tapping at several heights")
struct HeightLayersTests {
    static let coil = try! NormalizedRect(x: 0.2, y: 0.5, width: 0.6, height: 0.3)

    /// The back first, in the base plan's order; then each layer up, backwards through
    /// the positions that read in the layer below; the base plan sees the taps on the back
    /// only.
    @Test func layerByLayerEachPositionThatReadGoesUpOne() throws {
        let raster = try #require(RasterPlan(stepMm: 20, bodyWidthMm: 70.6, bodyHeightMm: 147))
        let plan = HeightLayers(base: raster, heights: [0, 5, 10])
        var history: [(probe: Probe, hit: Bool)] = []
        // Reads up to 5 mm inside the coil, nowhere outside it.
        while let probe = plan.next(after: history) {
            history.append((probe, Self.coil.contains(x: probe.x, y: probe.y) && probe.heightMm <= 5))
        }
        let onBack = history.prefix { $0.probe.isAtTapHeight }
        #expect(onBack.map(\.probe) == raster.order, "the back comes first, whole")
        let inside = raster.order.filter { Self.coil.contains(x: $0.x, y: $0.y) }
        #expect(!inside.isEmpty)
        let layers = history.dropFirst(onBack.count).map(\.probe)
        let expected = inside.reversed().map { $0.at(heightMm: 5) } + inside.map { $0.at(heightMm: 10) }
        #expect(layers == expected, "\(layers)")
        #expect(plan.measuredZone(from: history) == raster.measuredZone(from: Array(onBack)))
    }

    /// A session stores every position at every height, and its plan comes back from them.
    @Test func aStoredSessionRebuildsItsHeights() throws {
        let raster = try #require(RasterPlan(stepMm: 20, bodyWidthMm: 70.6, bodyHeightMm: 147))
        let stored = HeightLayers(base: raster, heights: [0, 5, 10]).storedProbes(for: nil)
        #expect(stored.count == raster.order.count * 3)
        let text = PlannedProbes.json(stored)
        #expect(text.hasPrefix("[[0.1250,0.0714],[0.1250,0.0714,5],[0.1250,0.0714,10],[0.3750,0.0714],"), "\(text.prefix(80))")
        let parsed = try #require(PlannedProbes.parse(text))
        #expect(parsed.map(\.heightMm) == stored.map(\.heightMm))
        #expect(PlannedProbes.parse("[[0.5,0.5,-1]]") == nil && PlannedProbes.parse("[[0.5,0.5,1e309]]") == nil)
        let rebuilt = HeightLayers.rebuild(from: parsed) { RasterPlan(stored: $0) }
        let onBack = parsed.filter(\.isAtTapHeight)
        #expect(onBack.count == raster.order.count)
        let back = onBack.map { ($0, true) }
        #expect(rebuilt.next(after: [(onBack[0], true)]) == onBack[1])
        #expect(rebuilt.next(after: back) == onBack.last?.at(heightMm: 5))
        #expect(rebuilt.next(after: back.dropLast() + [(onBack.last!, false)]) == onBack[onBack.count - 2].at(heightMm: 5))
    }

    /// docs/rig.md's coupling model: the read height over the coil's middle is the
    /// phone's `readHeightMm`, falling to 0 at the edge of the sensitive area.
    @Test func theSimulatedPhoneReadsLessHighTowardsTheEdge() {
        var phone = SimulatedPhone(antenna: (0.2, 0.5, 0.6, 0.3), aspectRatio: 0.48, missRate: 0)
        phone.readHeightMm = 12
        let middle = phone.readHeight(x: 0.5, y: 0.65)
        #expect(abs(middle - 12) < 1e-9)
        #expect(phone.readHeight(x: 0.5, y: 0.55) < middle && phone.readHeight(x: 0.5, y: 0.55) > 0)
        #expect(phone.readHeight(x: 0.5, y: 0.1) == 0)
        #expect(phone.detectionProbability(x: 0.5, y: 0.65, heightMm: 6) == 1)
        #expect(phone.detectionProbability(x: 0.5, y: 0.65, heightMm: 20) == 0)
    }
}
