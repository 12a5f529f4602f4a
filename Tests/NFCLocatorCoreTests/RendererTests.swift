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

    @Test func svgUsesPaletteAndClasses() {
        var palette = SilhouettePalette.svg
        palette.zoneStale = "#123456"
        let svg = SVGSilhouetteRenderer(palette: palette)
            .render(SilhouetteDrawing(aspectRatio: 0.5, zone: zone, zoneStyle: .stale), title: "A <b>")
        #expect(svg.hasPrefix("<svg") && svg.contains("#123456") && svg.contains("class=\"zone stale\""))
        #expect(svg.contains("<title>A &lt;b&gt;</title>"))
        #expect(svg.contains("viewBox=\"0 0 220 420\""))
    }

    @Test func badgeNamesConfidenceAndStaleness() {
        #expect(ConfidenceBadge().render(.approximate, stale: true) == "[APPROXIMATE · STALE]")
        #expect(ConfidenceBadge().render(.exact, stale: false) == "[EXACT]")
    }
}
