/// Where a drawing's marks and their numbers go, so no number sits on another or on a
/// mark, and no mark hides another.
///
/// Marks closer together than a mark's size are one *place* (the same position tapped
/// again, or an adaptive plan's repeat): its different outcomes are drawn side by side, a
/// miss beside a hit rather than under it, and its numbers share one label ("8–10").
/// Each place's label then takes the first free spot around it, nearest first; a label
/// pushed further out gets a thin leader line back to its place. Sizes are in the
/// renderer's user units; text widths are DejaVu Sans advances, the font the renderer
/// names first, rounded up.
public struct MarkLayout: Sendable {
    public struct Box: Sendable, Equatable {
        public let x: Double, y: Double, width: Double, height: Double
        public var maxX: Double { x + width }
        public var maxY: Double { y + height }

        public init(x: Double, y: Double, width: Double, height: Double) {
            self.x = x; self.y = y; self.width = width; self.height = height
        }

        public func intersects(_ o: Box) -> Bool { x < o.maxX && o.x < maxX && y < o.maxY && o.y < maxY }

        func inside(_ bounds: Box) -> Bool { x >= bounds.x && y >= bounds.y && maxX <= bounds.maxX && maxY <= bounds.maxY }
    }

    public struct DrawnMark: Sendable {
        public let kind: SilhouetteDrawing.MarkKind
        public let x: Double, y: Double
        public let box: Box
    }

    public struct Label: Sendable {
        public let text: String
        /// The text's start on its baseline.
        public let x: Double, y: Double
        public let box: Box
        /// From the place to the label, when the label sits away from it.
        public let leader: (from: (x: Double, y: Double), to: (x: Double, y: Double))?
    }

    public struct Place: Sendable {
        public let x: Double, y: Double
        public let marks: [DrawnMark]
        public let label: Label?
    }

    public let places: [Place]
    /// Labels no free spot could hold (none in any plan nfcbench makes); the renderer
    /// lists them under the drawing instead of printing them over something.
    public let unplaced: [String]

    public static let fontSize = 11.0

    /// `point` maps a mark's fractions of the back to user units; `bounds` is where labels may go.
    public init(
        marks: [SilhouetteDrawing.Mark], unit u: Double, bounds: Box, point: (Double, Double) -> (x: Double, y: Double)
    ) {
        // Places, in the order their first mark comes: marks at one point, then any whose
        // drawn marks would touch (a drawing cannot tell positions a mark's width apart;
        // the positions table gives each in millimetres). Planned positions only share a
        // place at one point: a template shows every crosshair where it is.
        var groups: [(x: Double, y: Double, marks: [SilhouetteDrawing.Mark])] = []
        for m in marks {
            let p = point(m.x, m.y)
            if let i = groups.firstIndex(where: { abs($0.x - p.x) < 2.5 * u && abs($0.y - p.y) < 2.5 * u }) {
                groups[i].marks.append(m)
            } else {
                groups.append((p.x, p.y, [m]))
            }
        }
        var drawn = groups.map { Self.fan($0.marks, at: ($0.x, $0.y), unit: u) }
        var merging = true
        while merging {
            merging = false
            search: for i in groups.indices {
                for j in groups.indices where j > i {
                    let touching = drawn[i].contains { a in
                        a.kind != .planned && drawn[j].contains { b in b.kind != .planned && a.box.intersects(b.box) }
                    }
                    guard touching else { continue }
                    groups[i].marks += groups[j].marks
                    groups.remove(at: j)
                    drawn.remove(at: j)
                    drawn[i] = Self.fan(groups[i].marks, at: (groups[i].x, groups[i].y), unit: u)
                    merging = true
                    break search
                }
            }
        }
        let obstacles = drawn.flatMap { $0.map(\.box) }
        let centres = groups.map { (x: $0.x, y: $0.y) }
        var taken: [Box] = []
        var places: [Place] = []
        var unplaced: [String] = []
        for (g, marksHere) in zip(groups, drawn) {
            let numbers = g.marks.compactMap(\.label).sorted { (Int($0) ?? 0) < (Int($1) ?? 0) }
            guard !numbers.isEmpty else {
                places.append(Place(x: g.x, y: g.y, marks: marksHere, label: nil))
                continue
            }
            let text = Self.join(numbers)
            let extent = Box(
                x: marksHere.map(\.box.x).min()!, y: marksHere.map(\.box.y).min()!,
                width: marksHere.map(\.box.maxX).max()! - marksHere.map(\.box.x).min()!,
                height: marksHere.map(\.box.maxY).max()! - marksHere.map(\.box.y).min()!)
            let label = Self.place(
                text, around: extent, centre: (g.x, g.y), unit: u, bounds: bounds, avoiding: obstacles + taken,
                others: centres.filter { $0.x != g.x || $0.y != g.y })
            if let label { taken.append(label.box) } else { unplaced.append(text) }
            places.append(Place(x: g.x, y: g.y, marks: marksHere, label: label))
        }
        self.places = places
        self.unplaced = unplaced
    }

    /// A place's outcomes side by side, centred on it: one mark per kind.
    static func fan(_ marks: [SilhouetteDrawing.Mark], at centre: (x: Double, y: Double), unit u: Double) -> [DrawnMark] {
        var kinds: [SilhouetteDrawing.MarkKind] = []
        for m in marks where !kinds.contains(m.kind) { kinds.append(m.kind) }
        return kinds.enumerated().map { i, kind in
            let x = centre.x + (Double(i) - Double(kinds.count - 1) / 2) * 15 * u
            let half = (kind == .planned ? 12 : 7) * u
            return DrawnMark(
                kind: kind, x: x, y: centre.y, box: Box(x: x - half, y: centre.y - half, width: 2 * half, height: 2 * half))
        }
    }

    /// The first free spot around `extent`: the eight directions at the mark's edge, then
    /// further out (with a leader line), nearest first.
    static func place(
        _ text: String, around extent: Box, centre: (x: Double, y: Double), unit u: Double, bounds: Box, avoiding: [Box],
        others: [(x: Double, y: Double)]
    ) -> Label? {
        let fs = fontSize * u
        let width = textWidth(text) * fs, height = fs
        let directions: [(Double, Double)] = [(1, -1), (1, 1), (-1, -1), (-1, 1), (1, 0), (-1, 0), (0, -1), (0, 1)]
        for ring in 0..<5 {
            let gap = (1 + Double(ring) * 9) * u
            for (dx, dy) in directions {
                let x =
                    dx > 0 ? extent.maxX + gap : dx < 0 ? extent.x - gap - width : centre.x - width / 2
                let y =
                    dy > 0 ? extent.maxY + gap : dy < 0 ? extent.y - gap - height : centre.y - height / 2
                let box = Box(x: x, y: y, width: width, height: height)
                guard box.inside(bounds), !avoiding.contains(where: { $0.intersects(box) }) else { continue }
                // A leader line when the label sits away from its place, or nearer another place
                // than its own, so nobody pairs a number with the wrong mark.
                func distance(_ p: (x: Double, y: Double)) -> Double {
                    let dx = max(box.x - p.x, 0, p.x - box.maxX), dy = max(box.y - p.y, 0, p.y - box.maxY)
                    return (dx * dx + dy * dy).squareRoot()
                }
                let own = distance(centre)
                var leader: (from: (x: Double, y: Double), to: (x: Double, y: Double))?
                if ring > 0 || others.contains(where: { distance($0) < own + 0.5 * u }) {
                    let from = (
                        x: clamp(box.x + width / 2, extent.x, extent.maxX), y: clamp(box.y + height / 2, extent.y, extent.maxY)
                    )
                    let to = (x: clamp(centre.x, box.x, box.maxX), y: clamp(centre.y, box.y, box.maxY))
                    leader = (from, to)
                }
                // Text starts at the box's left; its baseline sits a fifth of a line above the box's bottom.
                return Label(text: text, x: box.x, y: box.maxY - 0.22 * fs, box: box, leader: leader)
            }
        }
        return nil
    }

    static func clamp(_ v: Double, _ low: Double, _ high: Double) -> Double { min(max(v, low), high) }

    /// "8–10, 14": consecutive numbers as a range, others listed.
    static func join(_ labels: [String]) -> String {
        let numbers = labels.compactMap { Int($0) }
        guard numbers.count == labels.count else { return labels.joined(separator: ", ") }
        var parts: [String] = []
        var start = numbers[0], previous = numbers[0]
        for n in numbers.dropFirst() + [Int.min] {
            if n == previous &+ 1 {
                previous = n
                continue
            }
            parts.append(
                previous - start >= 2 ? "\(start)\u{2013}\(previous)" : previous == start ? "\(start)" : "\(start), \(previous)")
            start = n
            previous = n
        }
        return parts.joined(separator: ", ")
    }

    /// Advance widths in ems (DejaVu Sans: digits 0.636, comma and space 0.318, en dash
    /// 0.5), rounded up; anything else counted as a wide letter.
    static func textWidth(_ text: String) -> Double {
        text.unicodeScalars.reduce(0.0) { sum, c in
            switch c {
            case "0"..."9": sum + 0.64
            case ",", " ", ".": sum + 0.33
            case "\u{2013}": sum + 0.52
            default: sum + 0.72
            }
        }
    }
}
