import Foundation
import Testing

@testable import NFCLocatorCore

@Suite("Renderings")
struct RendererTests {
    let zone = try! NormalizedRect(x: 0.25, y: 0.0, width: 0.5, height: 0.2)

    @Test func terminalKeepsAspectRatioAndDrawsZoneAtTop() {
        let lines = TerminalSilhouetteRenderer(rows: 20).render(SilhouetteDrawing(aspectRatio: 0.5, zone: zone))
        #expect(lines.count == 22)
        #expect(lines[1].count == 22)  // 20 columns inside the frame: rows * 0.5 * 2
        #expect(lines[1].contains("▓") && !lines[10].contains("▓"))
        #expect(!lines.joined().contains("\u{1B}"))
    }

    @Test func staleZoneIsHatchedAndExactSolid() {
        let stale = TerminalSilhouetteRenderer().render(SilhouetteDrawing(aspectRatio: 0.5, zone: zone, zoneStyle: .stale))
        let exact = TerminalSilhouetteRenderer().render(SilhouetteDrawing(aspectRatio: 0.5, zone: zone, zoneStyle: .exact))
        #expect(stale.joined().contains("╱") && !stale.joined().contains("█"))
        #expect(exact.joined().contains("█"))
    }

    @Test func colourOnlyWhenAskedAndPaletteOverridable() {
        var palette = SilhouettePalette.terminal
        palette.zoneApproximate = "35"
        let coloured = TerminalSilhouetteRenderer(palette: palette, useColor: true)
            .render(SilhouetteDrawing(aspectRatio: 0.5, zone: zone)).joined()
        #expect(coloured.contains("\u{1B}[35m▓"))
    }

    @Test func marksAndHighlightLand() throws {
        let cell = try NormalizedRect(x: 0.0, y: 0.8, width: 0.33, height: 0.2)
        let d = SilhouetteDrawing(
            aspectRatio: 0.5, highlight: cell,
            marks: [.init(x: 0.9, y: 0.05, kind: .hit), .init(x: 0.5, y: 0.5, kind: .miss)])
        let lines = TerminalSilhouetteRenderer(rows: 10).render(d)
        #expect(lines[1].contains("●") && lines[6].contains("×") && lines[10].contains("◉"))
    }

    /// Colours are plain attribute values (librsvg evaluates no CSS functions in
    /// attributes); a palette replaces them and class names let a page restyle them.
    @Test func svgUsesPlainColoursThePaletteAndClasses() {
        var palette = SilhouettePalette.svg
        palette.zoneStale = "#123456"
        let svg = SVGSilhouetteRenderer(palette: palette)
            .render(SilhouetteDrawing(aspectRatio: 0.5, zone: zone, zoneStyle: .stale), title: "A <b>")
        #expect(svg.hasPrefix("<svg") && svg.contains("#123456") && svg.contains("class=\"nfc-zone nfc-zone-stale\""))
        #expect(!svg.contains("var("))
        #expect(svg.contains("<title id=\"nfc-title\">A &lt;b&gt;</title>") && svg.contains("<desc id=\"nfc-desc\">"))
        #expect(svg.contains("back of the phone, top edge up") && svg.contains("predicted zone (approximate, stale)"))
    }

    /// Hits, misses and skipped positions differ in shape, each numbered, and the legend
    /// names only what the drawing shows.
    @Test func svgMarksDifferInShapeAndCarryTheirNumbers() throws {
        let d = SilhouetteDrawing(
            aspectRatio: 0.5,
            marks: [
                .init(x: 0.2, y: 0.2, kind: .hit, label: "1"), .init(x: 0.5, y: 0.5, kind: .miss, label: "2"),
                .init(x: 0.8, y: 0.8, kind: .skipped, label: "3"),
            ])
        let svg = SVGSilhouetteRenderer().render(d)
        #expect(svg.contains("<circle class=\"nfc-hit\"") && svg.contains("<path class=\"nfc-miss\""))
        #expect(svg.contains("<rect class=\"nfc-skipped\"") && svg.contains(">3</text>"))
        #expect(svg.contains("skipped by the operator") && !svg.contains("measured zone"))
        #expect(SVGSilhouetteRenderer.describe(d).contains("3 positions: 1 hit, 1 missed, 1 skipped."))
        let layout = SVGSilhouetteRenderer().layout(d)
        let p = layout.point(x: 0.2, y: 0.2)
        #expect(svg.contains("cx=\"\(Int(p.x))\" cy=\"\(Int(p.y))\""))
    }

    /// With the body's size in millimetres the document is that size in `mm`, so a print
    /// at 100 % is life-size.
    @Test func svgInMillimetresPrintsLifeSize() {
        let svg = SVGSilhouetteRenderer(bodyMillimetres: (70.6, 147)).render(SilhouetteDrawing(aspectRatio: 70.6 / 147))
        let layout = SVGSilhouetteRenderer(bodyMillimetres: (70.6, 147)).layout(SilhouetteDrawing(aspectRatio: 70.6 / 147))
        #expect(layout.bodyWidth == 70.6 && layout.bodyHeight == 147)
        #expect(svg.range(of: #"width="[0-9.]+mm" height="[0-9.]+mm""#, options: .regularExpression) != nil)
        #expect(svg.contains("width=\"70.6\" height=\"147\""))
    }

    @Test func badgeNamesConfidenceAndStaleness() {
        #expect(ConfidenceBadge().render(.approximate, stale: true) == "[APPROXIMATE · STALE]")
        #expect(ConfidenceBadge().render(.exact, stale: false) == "[EXACT]")
    }
}
