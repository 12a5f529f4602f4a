/// The numbers written in a shaded map's cells (a coupling grade, a read height).
///
/// Cells of an adaptive plan sit closer than a cell's width where the plan refines an
/// edge, so their numbers would overprint one another. A number is sized to fit its own
/// cell (DejaVu Sans averages about 0.6 em a character) and written only where it
/// overlaps no number already written; the rest are counted for the caption, and every
/// value stays in the report's positions table.
extension SVGSilhouetteRenderer {
    /// Below this size (in drawing units of a 400-high figure) a number is not legible.
    static let smallestHeatLabel = 5.0

    func heatLabels(_ d: SilhouetteDrawing, _ l: Layout) -> (texts: [String], leftOff: Int) {
        let u = unit
        var placed: [(x: Double, y: Double, width: Double, height: Double)] = []
        var texts: [String] = []
        var leftOff = 0
        for cell in d.heat where cell.taps > 0 {
            guard let label = cell.label, !label.isEmpty else { continue }
            let cellWidth = cell.cell.width * l.bodyWidth, cellHeight = cell.cell.height * l.bodyHeight
            let size = min(10 * u, cellHeight * 0.6, cellWidth * 0.9 / (0.6 * Double(label.count)))
            let centre = l.point(x: cell.cell.midX, y: cell.cell.midY)
            let box = (
                x: centre.x - 0.3 * size * Double(label.count), y: centre.y - 0.5 * size,
                width: 0.6 * size * Double(label.count), height: size
            )
            let overlaps = placed.contains {
                box.x < $0.x + $0.width && $0.x < box.x + box.width && box.y < $0.y + $0.height && $0.y < box.y + box.height
            }
            guard size >= Self.smallestHeatLabel * u, !overlaps else {
                leftOff += 1
                continue
            }
            placed.append(box)
            texts.append(
                "<text class=\"nfc-heat-label\" x=\"\(f(centre.x))\" y=\"\(f(centre.y + size * 0.35))\" "
                    + "font-size=\"\(f(size))\" text-anchor=\"middle\" fill=\"\(palette.text)\">\(XMLText.escape(label))</text>")
        }
        return (texts, leftOff)
    }
}
