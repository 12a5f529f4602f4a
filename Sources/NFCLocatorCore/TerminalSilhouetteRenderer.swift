/// Draws a phone's back in a terminal at its real aspect ratio.
///
/// Terminal cells are about twice as tall as wide, so a body `rows` tall gets
/// `rows * aspectRatio * 2` columns. Every glyph differs by shape, not only by
/// colour, so the drawing stays readable without colour (`NO_COLOR`, pipes).
public struct TerminalSilhouetteRenderer: Sendable {
    public var rows: Int
    public var palette: SilhouettePalette
    public var useColor: Bool

    public init(rows: Int = 15, palette: SilhouettePalette = .terminal, useColor: Bool = false) {
        precondition(rows >= 3, "a silhouette needs at least 3 rows")
        self.rows = rows
        self.palette = palette
        self.useColor = useColor
    }

    public static let legend =
        "█ verified zone  ▓ zone  ╱ stale zone  ░ sweep  ◉ place here  ● hit  ◐ partial  × miss  □ skipped  ◇ foreign"
        + "  + measured zone"

    public func render(_ drawing: SilhouetteDrawing) -> [String] {
        let columns = max(4, Int((Double(rows) * drawing.aspectRatio * 2).rounded()))
        var grid = Array(repeating: Array(repeating: Cell(" ", nil), count: columns), count: rows)
        for r in 0..<rows {
            for c in 0..<columns {
                let u = (Double(c) + 0.5) / Double(columns), v = (Double(r) + 0.5) / Double(rows)
                grid[r][c] = cell(at: u, v, r + c, drawing)
            }
        }
        // The measured zone's outline, over the zones and under the marks.
        if let m = drawing.measured {
            func inside(_ r: Int, _ c: Int) -> Bool {
                m.contains(x: (Double(c) + 0.5) / Double(columns), y: (Double(r) + 0.5) / Double(rows))
            }
            for r in 0..<rows {
                for c in 0..<columns where inside(r, c) {
                    let edge =
                        r == 0 || c == 0 || r == rows - 1 || c == columns - 1
                        || !inside(r - 1, c) || !inside(r + 1, c) || !inside(r, c - 1) || !inside(r, c + 1)
                    if edge { grid[r][c] = Cell("+", palette.measured) }
                }
            }
        }
        for mark in drawing.marks {
            let c = min(columns - 1, max(0, Int(mark.x * Double(columns))))
            let r = min(rows - 1, max(0, Int(mark.y * Double(rows))))
            switch mark.kind {
            case .hit: grid[r][c] = Cell("●", palette.hit)
            case .miss: grid[r][c] = Cell("×", palette.miss)
            case .skipped: grid[r][c] = Cell("□", palette.skipped)
            case .planned: grid[r][c] = Cell("○", palette.highlight)
            case .partial: grid[r][c] = Cell("◐", palette.hit)
            case .foreign: grid[r][c] = Cell("◇", palette.skipped)
            }
        }
        let edge = String(repeating: "─", count: columns)
        var lines = [paint("╭" + edge + "╮", palette.outline)]
        for row in grid {
            lines.append(
                paint("│", palette.outline) + row.map { paint($0.glyph, $0.color) }.joined()
                    + paint("│", palette.outline))
        }
        lines.append(paint("╰" + edge + "╯", palette.outline))
        return lines
    }

    private struct Cell {
        let glyph: String, color: String?
        init(_ glyph: String, _ color: String?) { self.glyph = glyph; self.color = color }
    }

    private func cell(at u: Double, _ v: Double, _ parity: Int, _ d: SilhouetteDrawing) -> Cell {
        if let h = d.highlight, h.contains(x: u, y: v) { return Cell("◉", palette.highlight) }
        if let z = d.zone, z.contains(x: u, y: v) {
            switch d.zoneStyle {
            case .exact: return Cell("█", palette.zoneExact)
            case .approximate: return Cell("▓", palette.zoneApproximate)
            case .stale: return Cell(parity % 2 == 0 ? "╱" : " ", palette.zoneStale)
            }
        }
        if let s = d.sweepRegion, s.contains(x: u, y: v) { return Cell("░", palette.sweep) }
        return Cell(" ", nil)
    }

    private func paint(_ text: String, _ sgr: String?) -> String {
        guard useColor, let sgr, text != " " else { return text }
        return "\u{1B}[\(sgr)m\(text)\u{1B}[0m"
    }
}
