import Foundation
import Testing

@testable import NFCLocatorCore

/// Numbers on a drawing never sit on each other or on a mark, a miss stays visible beside
/// a hit at the same place, and every number is drawn once.
@Suite("Mark and label layout")
struct MarkLayoutTests {
    let renderer = SVGSilhouetteRenderer(height: 360)

    /// Positions as plans and sessions make them: a grid, repeats at one place, neighbours
    /// a few millimetres apart, and random scatter; up to 62 positions, the adaptive plan's most.
    static func crowdedDrawings() -> [SilhouetteDrawing] {
        var generator = SplitMix(seed: 26)
        let kinds: [SilhouetteDrawing.MarkKind] = [.hit, .miss, .skipped, .partial, .foreign]
        var drawings: [SilhouetteDrawing] = []
        for round in 0..<300 {
            var marks: [SilhouetteDrawing.Mark] = []
            let count = 2 + Int(generator.next() % 61)
            for i in 0..<count {
                let kind = round % 7 == 0 ? .planned : kinds[Int(generator.next() % UInt64(kinds.count))]
                let (x, y): (Double, Double)
                if let last = marks.last, generator.next() % 3 == 0 {
                    // The same place again, or a neighbour a step of 1-4% away.
                    let step = generator.next() % 2 == 0 ? 0 : Double(1 + generator.next() % 4) / 100
                    (x, y) = (min(1, last.x + step), min(1, last.y + (generator.next() % 2 == 0 ? step : 0)))
                } else {
                    (x, y) = (Double(generator.next() % 1001) / 1000, Double(generator.next() % 1001) / 1000)
                }
                marks.append(.init(x: x, y: y, kind: kind, label: String(i + 1)))
            }
            drawings.append(SilhouetteDrawing(aspectRatio: 0.45 + Double(round % 5) * 0.05, marks: marks))
        }
        return drawings
    }

    @Test func labelsNeverOverlapEachOtherOrAMark() {
        var unplacedDrawings = 0
        for d in Self.crowdedDrawings() {
            let layout = renderer.markLayout(d)
            let labels = layout.places.compactMap(\.label)
            let marks = layout.places.flatMap(\.marks)
            for (i, a) in labels.enumerated() {
                for b in labels[(i + 1)...] { #expect(!a.box.intersects(b.box), "'\(a.text)' over '\(b.text)'") }
                for m in marks { #expect(!a.box.intersects(m.box), "'\(a.text)' over a \(m.kind) mark") }
            }
            // No mark hides another: outcomes at one place side by side, neighbours a mark's
            // width apart drawn as one place (planned crosshairs may cross: each stays where it goes).
            for (i, a) in marks.enumerated() where a.kind != .planned {
                for b in marks[(i + 1)...] where b.kind != .planned {
                    #expect(!a.box.intersects(b.box), "a \(a.kind) and a \(b.kind) mark overlap")
                }
            }
            // Every number once: on the drawing, or listed under it for want of room.
            let shown = (labels.map(\.text) + layout.unplaced).flatMap(Self.numbers)
            #expect(shown.sorted() == Array(1...d.marks.count), "\(shown.sorted())")
            if !layout.unplaced.isEmpty { unplacedDrawings += 1 }
        }
        // Room runs out only in the most crowded random scatter, never in most drawings.
        #expect(unplacedDrawings <= 6, "\(unplacedDrawings) drawings listed numbers under them")
    }

    /// The cases reported: 1, 8 and 9 at one spot, 17 and 18, 13-15, and a tag session's
    /// 8, 9 and 10 printed as "890"; a miss under a hit at the same place.
    @Test func repeatsAtOnePlaceShareALabelAndShowEveryOutcome() throws {
        let marks: [SilhouetteDrawing.Mark] =
            [.init(x: 0.5, y: 0.5, kind: .hit, label: "1")]
            + (2...7).map { .init(x: 0.1 + Double($0) * 0.1, y: 0.2, kind: .miss, label: String($0)) }
            + [
                .init(x: 0.5, y: 0.5, kind: .miss, label: "8"), .init(x: 0.5, y: 0.5, kind: .hit, label: "9"),
                .init(x: 0.3, y: 0.8, kind: .partial, label: "10"), .init(x: 0.3, y: 0.8, kind: .partial, label: "11"),
                .init(x: 0.3, y: 0.8, kind: .partial, label: "12"),
            ]
        let layout = renderer.markLayout(SilhouetteDrawing(aspectRatio: 0.48, marks: marks))
        let centre = try #require(layout.places.first { $0.marks.contains { $0.kind == .hit } })
        #expect(centre.label?.text == "1, 8, 9")
        #expect(Set(centre.marks.map(\.kind)) == [.hit, .miss] && !centre.marks[0].box.intersects(centre.marks[1].box))
        #expect(layout.places.contains { $0.label?.text == "10\u{2013}12" && $0.marks.count == 1 })
        #expect(MarkLayout.join(["17", "18"]) == "17, 18" && MarkLayout.join(["13", "14", "15"]) == "13\u{2013}15")
        // The SVG draws what the layout says: each label's text at its place, each mark at its point.
        let svg = renderer.render(SilhouetteDrawing(aspectRatio: 0.48, marks: marks))
        for label in layout.places.compactMap(\.label) {
            #expect(svg.contains(">\(label.text)</text>"), "\(label.text)")
        }
        // Six misses on a row, one beside the hit, and the legend's.
        #expect(svg.components(separatedBy: "class=\"nfc-miss\"").count - 1 == 8)
    }

    /// What a drawing shows is written on it: caption lines under the legend, inside the picture.
    @Test func captionLinesAreDrawnAndMakeRoom() {
        var d = SilhouetteDrawing(aspectRatio: 0.48)
        let plain = renderer.layout(d)
        d.caption = [
            "Galaxy S24 (SM-S921B), unit 7", "session S-20261202-153219-d662, SIMULATED", "started 2026-12-02 16:32:19 +01:00",
        ]
        let captioned = renderer.layout(d)
        #expect(captioned.height > plain.height && captioned.bodyY == plain.bodyY)
        let svg = renderer.render(d)
        #expect(svg.contains("class=\"nfc-caption\"") && svg.contains(">session S-20261202-153219-d662, SIMULATED<"))
        #expect(captioned.width >= Double(d.caption[2].count) * 0.6 * 11 * 360 / 400, "the longest line fits")
    }

    static func numbers(_ text: String) -> [Int] {
        text.split(separator: ",").flatMap { part -> [Int] in
            let bounds = part.split(separator: "\u{2013}").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            return bounds.count == 2 ? Array(bounds[0]...bounds[1]) : bounds
        }
    }
}
