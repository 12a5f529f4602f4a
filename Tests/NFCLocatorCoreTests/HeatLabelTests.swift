import Foundation
import Testing

@testable import NFCLocatorCore

/// The numbers in a shaded map's cells (issue 52: the coupling labels overlapped, and
/// the zone's hatching covered the grades).
@Suite("Numbers in shaded cells")
struct HeatLabelTests {
    /// Labelled cells as an adaptive plan refining an edge leaves them: a 10 × 20 cell
    /// around each position, positions 1/40 of the width apart.
    static func crowded() throws -> SilhouetteDrawing {
        let heat = try (0..<8).map { i in
            SilhouetteDrawing.HeatCell(
                cell: try NormalizedRect(x: 0.2 + Double(i) * 0.025, y: 0.4, width: 0.1, height: 0.05), readRate: 0.5,
                taps: 1, label: "0.\(10 + i)")
        }
        return SilhouetteDrawing(
            aspectRatio: 0.48, zone: try NormalizedRect(x: 0.1, y: 0.3, width: 0.6, height: 0.3), zoneStyle: .stale,
            marks: [], heat: heat)
    }

    struct Label { let x: Double, y: Double, size: Double, text: String }

    static func labels(_ svg: String) -> [Label] {
        let pattern = #/<text class="nfc-heat-label" x="([0-9.]+)" y="([0-9.]+)" font-size="([0-9.]+)"[^>]*>([^<]*)</text>/#
        return svg.matches(of: pattern).map { Label(x: Double($0.1)!, y: Double($0.2)!, size: Double($0.3)!, text: String($0.4)) }
    }

    @Test func numbersNeverOverprintAndTheRestAreCounted() throws {
        let svg = SVGSilhouetteRenderer(height: 300, idPrefix: "t").render(try Self.crowded())
        let written = Self.labels(svg)
        #expect(!written.isEmpty && written.count < 8, "\(written.map(\.text))")
        for (i, a) in written.enumerated() {
            for b in written[(i + 1)...] {
                let halfWidths = 0.3 * a.size * Double(a.text.count) + 0.3 * b.size * Double(b.text.count)
                let apart = abs(a.x - b.x) >= halfWidths || abs(a.y - b.y) >= (a.size + b.size) / 2
                #expect(apart, "\(a.text) at \(a.x) and \(b.text) at \(b.x) overprint")
            }
        }
        #expect(svg.contains("\(8 - written.count) cell value(s) without room in their cell: see the positions table"))
    }

    /// A number fits its own cell: four characters in a narrow cell get a smaller type.
    @Test func aNumberFitsItsCell() throws {
        let narrow = SilhouetteDrawing(
            aspectRatio: 0.48, zone: nil, marks: [],
            heat: [.init(cell: try NormalizedRect(x: 0.4, y: 0.4, width: 0.1, height: 0.05), readRate: 1, taps: 1, label: "0.83")]
        )
        let renderer = SVGSilhouetteRenderer(height: 400, idPrefix: "n")
        let label = try #require(Self.labels(renderer.render(narrow)).first)
        let cellWidth = 0.1 * renderer.layout(narrow).bodyWidth
        #expect(0.6 * label.size * 4 <= cellWidth, "\(label.size) for a cell \(cellWidth) wide")
    }

    /// Over a shaded map the zone is an outline: no fill and no hatching hides a shade or a number.
    @Test func theZoneDoesNotCoverTheShades() throws {
        let svg = SVGSilhouetteRenderer(height: 300, idPrefix: "z").render(try Self.crowded())
        let zone = try #require(svg.split(separator: "\n").first { $0.contains("class=\"nfc-zone") })
        #expect(zone.contains("fill=\"none\"") && !zone.contains("url(#z-hatch)"), "\(zone)")
        // Numbers come after the zone, so nothing is drawn over them but marks.
        let lastZone = try #require(svg.range(of: "class=\"nfc-zone")), firstLabel = try #require(svg.range(of: "nfc-heat-label"))
        #expect(lastZone.lowerBound < firstLabel.lowerBound)
        // Without shades the stale zone keeps its hatching.
        var plain = try Self.crowded()
        plain.heat = []
        #expect(SVGSilhouetteRenderer(height: 300, idPrefix: "p").render(plain).contains("fill=\"url(#p-hatch)\""))
    }
}
