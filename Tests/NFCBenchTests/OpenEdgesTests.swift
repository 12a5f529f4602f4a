import Foundation
import NFCBench
import NFCBenchRecords
import NFCLocatorCore
import Testing

/// A measured zone says what it knows: an edge no tap bounded is open, in words, in the
/// JSON and in the drawing, never a measured line.
@Suite("Open edges")
struct OpenEdgesTests {
    let predicted = try! NormalizedRect(x: 0.2, y: 0.3, width: 0.6, height: 0.3)

    func score(_ history: [(probe: Probe, hit: Bool)]) -> SessionScore {
        SessionScore(predicted: predicted, history: history, strategy: GridPlan(around: predicted), aspectRatio: 0.48)
    }

    @Test func anEdgeWithNoMissBeyondItIsOpen() throws {
        // Reads in the middle band; misses left, right and below, nothing tapped above.
        let history: [(probe: Probe, hit: Bool)] = [
            (Probe(x: 0.4, y: 0.4), true), (Probe(x: 0.6, y: 0.4), true), (Probe(x: 0.5, y: 0.5), true),
            (Probe(x: 0.1, y: 0.45), false), (Probe(x: 0.9, y: 0.45), false), (Probe(x: 0.5, y: 0.9), false),
        ]
        let s = score(history)
        let m = try #require(s.measured)
        #expect(m.y > 0.01)  // not at the border: open only for lack of a miss above
        #expect(s.openEdges == [.top], "\(s.openEdges) for \(m)")
        #expect(s.openEdgesWords == "open at the top: no tap bounded it, the coil may reach further")
    }

    @Test func readsAtTheBorderLeaveThatEdgeOpenWhateverLiesBeyond() throws {
        let history: [(probe: Probe, hit: Bool)] = [
            (Probe(x: 0.0, y: 0.4), true), (Probe(x: 0.3, y: 0.4), true), (Probe(x: 0.6, y: 0.4), false),
            (Probe(x: 0.2, y: 0.1), false), (Probe(x: 0.2, y: 0.8), false),
        ]
        let s = score(history)
        #expect(s.openEdges.contains(.left) && !s.openEdges.contains(.right), "\(s.openEdges)")
    }

    /// Issue 52's row on a 71 mm wide back: misses at 2.1 and 68.5 mm, reads at 8.3 and
    /// 62.2 mm. Half a grid cell (11.8 mm) from each read put the edges at 0 and 71 mm,
    /// past both misses, and called them open. Each edge lies between the read and the miss.
    @Test func anEdgeNeverLiesBeyondAMissBesideIt() throws {
        let width = 71.0
        let history: [(probe: Probe, hit: Bool)] =
            [2.1, 8.3, 62.2, 68.5].map { mm in
                (Probe(x: mm / width, y: 0.45), mm > 5 && mm < 65)
            } + [(Probe(x: 0.5, y: 0.1), false), (Probe(x: 0.5, y: 0.9), false)]
        let s = score(history)
        let m = try #require(s.measured)
        #expect(abs(m.x * width - 5.2) < 1e-9 && abs(m.maxX * width - 65.35) < 1e-9, "\(m.x * width)-\(m.maxX * width) mm")
        #expect(s.openEdges.isEmpty, "\(s.openEdges)")
        // Misses a cell away from reads at cell centres bound the zone at half a cell, as before.
        let centres: [(probe: Probe, hit: Bool)] = [
            (Probe(x: 0.5, y: 0.5), true), (Probe(x: 1 / 6, y: 0.5), false), (Probe(x: 5 / 6, y: 0.5), false),
        ]
        let c = try #require(score(centres).measured)
        #expect(abs(c.x - 1 / 3) < 1e-12 && abs(c.maxX - 2 / 3) < 1e-12 && abs(c.y - 0.4) < 1e-12, "\(c)")
    }

    @Test func openEdgesAreDrawnAsArrowsNotLines() throws {
        var drawing = SilhouetteDrawing(aspectRatio: 0.48, zone: predicted, measured: predicted)
        let closed = SVGSilhouetteRenderer(height: 300).render(drawing, title: "t")
        #expect(closed.components(separatedBy: "stroke-dasharray").count - 1 >= 4 && !closed.contains("nfc-open-edge"))
        drawing.openSides = [.top, .left]
        let open = SVGSilhouetteRenderer(height: 300).render(drawing, title: "t")
        #expect(open.components(separatedBy: "class=\"nfc-open-edge\"").count - 1 == 2)
        #expect(open.contains("open edge (top): no tap bounded it") && open.contains("measured zone (arrows: open edges)"))
        // Two sides fewer drawn as dashed measured lines.
        let dashed = { (svg: String) in svg.components(separatedBy: "<path d=").count }
        #expect(dashed(closed) - dashed(open) == 2)
    }
}
