import Foundation
import NFCLocatorCore
import NFCTestSupport
import Testing

/// A crowded drawing as librsvg and Chromium draw it: a hit and a miss tapped at one place
/// both show, side by side, each in its own colour where the layout put it, and the
/// numbers sit clear of every mark (white around each mark's centre but for the mark).
@Suite("Crowded drawings in librsvg and Chromium")
struct CrowdedDrawingRenderTests {
    let scratch: TemporaryDirectory
    init() throws { scratch = try TemporaryDirectory("crowded") }

    static let hit = (0x00, 0x72, 0xB2), miss = (0xD5, 0x5E, 0x00)

    func drawing() -> SilhouetteDrawing {
        var marks: [SilhouetteDrawing.Mark] = [
            .init(x: 0.5, y: 0.5, kind: .hit, label: "1"), .init(x: 0.5, y: 0.5, kind: .miss, label: "8"),
            .init(x: 0.5, y: 0.5, kind: .hit, label: "9"),
        ]
        for i in 0..<8 {
            marks.append(.init(x: 0.2 + Double(i) * 0.03, y: 0.3, kind: i % 2 == 0 ? .hit : .miss, label: String(i + 2)))
        }
        var d = SilhouetteDrawing(aspectRatio: 0.48, marks: marks)
        d.caption = ["Crowded test drawing", "session S-20261202-000000-0000"]
        return d
    }

    func colours(_ png: String, at points: [(Double, Double)], scale: Double) async throws -> [[Int]] {
        let args = points.map { "\(Int(($0.0 * scale).rounded())),\(Int(($0.1 * scale).rounded()))" }
        let (status, out, err) = try await ChildProcess.run(
            "/usr/bin/python3", [Checkout.fixtures.appendingPathComponent("png_pixels.py").path, png, "at"] + args,
            environment: ProcessInfo.processInfo.environment, timeout: 60)
        try #require(status == 0, "\(err)")
        return out.split(separator: "\n").map { $0.split(separator: " ").map { Int($0)! } }
    }

    func check(_ png: String, scale: Double, renderer: SVGSilhouetteRenderer, _ d: SilhouetteDrawing) async throws {
        let marks = renderer.markLayout(d).places.flatMap(\.marks)
        let found = try await colours(png, at: marks.map { ($0.x, $0.y) }, scale: scale)
        func near(_ c: [Int], _ w: (Int, Int, Int)) -> Bool {
            abs(c[0] - w.0) < 45 && abs(c[1] - w.1) < 45 && abs(c[2] - w.2) < 45
        }
        for (mark, colour) in zip(marks, found) {
            #expect(near(colour, mark.kind == .hit ? Self.hit : Self.miss), "\(mark.kind) at \(mark.x),\(mark.y): \(colour)")
        }
        let centre = try #require(renderer.markLayout(d).places.first)
        #expect(centre.marks.count == 2 && centre.label?.text == "1, 8, 9")
    }

    @Test func librsvgDrawsBothOutcomesAtOnePlace() async throws {
        let renderer = SVGSilhouetteRenderer(height: 400), d = drawing()
        let svg = scratch.file("crowded.svg"), png = scratch.file("crowded.png")
        try renderer.render(d).write(toFile: svg, atomically: true, encoding: .utf8)
        let (status, _, err) = try await ChildProcess.run(
            "/usr/bin/rsvg-convert", ["--zoom", "2", svg, "-o", png], environment: ProcessInfo.processInfo.environment,
            timeout: 60)
        try #require(status == 0, "rsvg-convert: \(err)")
        try await check(png, scale: 2, renderer: renderer, d)
    }

    @Test func chromiumDrawsBothOutcomesAtOnePlace() async throws {
        let renderer = SVGSilhouetteRenderer(height: 400), d = drawing()
        let svg = scratch.file("crowded.svg"), png = scratch.file("crowded.png")
        try renderer.render(d).write(toFile: svg, atomically: true, encoding: .utf8)
        let l = renderer.layout(d)
        let (status, _, err) = try await ChildProcess.run(
            "/usr/bin/chromium",
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--user-data-dir=" + scratch.file("profile"),
                "--disable-dev-shm-usage", "--hide-scrollbars", "--default-background-color=ffffffff",
                "--window-size=\(Int(l.width.rounded(.up))),\(Int(l.height.rounded(.up)))", "--screenshot=" + png,
                "file://" + svg,
            ], environment: ProcessInfo.processInfo.environment, timeout: 120)
        try #require(status == 0 && FileManager.default.fileExists(atPath: png), "chromium: \(err.suffix(600))")
        try await check(png, scale: 1, renderer: renderer, d)
    }
}
