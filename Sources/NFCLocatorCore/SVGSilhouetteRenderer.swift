/// The silhouette as an SVG document or fragment, for reports, templates and web pages.
///
/// Everything is plain SVG 1.1 (no CSS functions, no scripts, no external references), so
/// librsvg, Chromium and Firefox draw the same picture. Each element carries an `nfc-`
/// class a host stylesheet may restyle. The drawing says what it is: a `<title>` and
/// `<desc>` for screen readers, a legend, and the orientation ("back of the phone, top
/// edge up"), because a picture of a back is easily read as a front.
public struct SVGSilhouetteRenderer: Sendable {
    public var palette: SilhouettePalette
    /// Drawn height of the body in SVG user units.
    public var height: Double
    /// The body's real size: when set, one user unit is one millimetre and the
    /// document's width and height are in `mm`, so it prints life-size at 100%.
    public var bodyMillimetres: (width: Double, height: Double)?
    /// Prefixes the document's ids, so several drawings can sit in one HTML page.
    public var idPrefix: String

    public init(
        palette: SilhouettePalette = .svg, height: Double = 400,
        bodyMillimetres: (width: Double, height: Double)? = nil, idPrefix: String = "nfc"
    ) {
        precondition(height > 0 && height.isFinite, "a drawing needs a positive height")
        self.palette = palette
        self.height = bodyMillimetres?.height ?? height
        self.bodyMillimetres = bodyMillimetres
        self.idPrefix = idPrefix
    }

    /// Where the body sits in the document, in user units: tests and callers map a
    /// position on the back to a point of the picture with it.
    public struct Layout: Sendable, Equatable {
        public let bodyX: Double, bodyY: Double, bodyWidth: Double, bodyHeight: Double
        public let width: Double, height: Double
        /// The point of the picture over fraction (`x`, `y`) of the back.
        public func point(x: Double, y: Double) -> (x: Double, y: Double) {
            (bodyX + x * bodyWidth, bodyY + y * bodyHeight)
        }
    }

    /// Text and marks scale with the drawing, so a small figure stays legible.
    var unit: Double { height / 400 }

    public func layout(_ d: SilhouetteDrawing) -> Layout { layout(d, extraLines: 0) }

    /// `extraLines`: caption lines beyond the drawing's own (labels listed for want of room).
    private func layout(_ d: SilhouetteDrawing, extraLines: Int) -> Layout {
        let u = unit, w = bodyMillimetres?.width ?? height * d.aspectRatio
        let pad = 12 * u, top = 34 * u
        let legendHeight = Double(legend(d).count) * 16 * u + 8 * u + (bodyMillimetres != nil ? 40 * u : 0)
        let captionHeight = Double(d.caption.count + extraLines) * 15 * u + (d.caption.count + extraLines > 0 ? 6 * u : 0)
        // Wide enough for the longest legend or caption line (DejaVu Sans averages about
        // 0.6 em a character in such text).
        let longest = (legend(d).map { $0.1.count + 3 } + d.caption.map(\.count)).max() ?? 0
        let textWidth = Double(longest) * 0.6 * 11 * u + 2 * pad
        return Layout(
            bodyX: pad, bodyY: top, bodyWidth: w, bodyHeight: height,
            width: max(w + 2 * pad, 290 * u, textWidth), height: top + height + 8 * u + legendHeight + captionHeight)
    }

    /// Where the marks and their numbers go (`MarkLayout`): numbers never overlap each
    /// other or a mark, and outcomes at one place are drawn side by side.
    public func markLayout(_ d: SilhouetteDrawing) -> MarkLayout {
        let l = layout(d), u = unit
        let bounds = MarkLayout.Box(
            x: 0, y: l.bodyY - 1 * u, width: l.width, height: l.bodyHeight + 11 * u)
        return MarkLayout(marks: d.marks, unit: u, bounds: bounds, point: { l.point(x: $0, y: $1) })
    }

    public func render(_ d: SilhouetteDrawing, title: String? = nil, description: String? = nil) -> String {
        let marks = markLayout(d)
        let leftOff = heatLabels(d, layout(d)).leftOff
        let unplaced =
            (marks.unplaced.isEmpty ? [] : ["Numbers without room beside their marks: " + marks.unplaced.joined(separator: "; ")])
            + (leftOff == 0 ? [] : ["\(leftOff) cell value(s) without room in their cell: see the positions table"])
        let l = layout(d, extraLines: unplaced.count), u = unit
        let size =
            bodyMillimetres != nil
            ? "width=\"\(f(l.width))mm\" height=\"\(f(l.height))mm\"" : "width=\"\(f(l.width))\" height=\"\(f(l.height))\""
        var out: [String] = [
            "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" viewBox=\"0 0 \(f(l.width)) \(f(l.height))\" \(size) role=\"img\" aria-labelledby=\"\(idPrefix)-title \(idPrefix)-desc\" font-family=\"DejaVu Sans, Arial, Helvetica, sans-serif\">",
            "<title id=\"\(idPrefix)-title\">\(XMLText.escape(title ?? "Back of the phone"))</title>",
            "<desc id=\"\(idPrefix)-desc\">\(XMLText.escape(description ?? Self.describe(d)))</desc>",
            "<defs><pattern id=\"\(idPrefix)-hatch\" width=\"\(f(8 * u))\" height=\"\(f(8 * u))\" patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\"><rect width=\"\(f(3 * u))\" height=\"\(f(8 * u))\" fill=\"\(palette.zoneStale)\"/></pattern></defs>",
            "<rect class=\"nfc-background\" x=\"0\" y=\"0\" width=\"\(f(l.width))\" height=\"\(f(l.height))\" fill=\"#FFFFFF\"/>",
        ]
        out.append(orientation(l))
        func rect(_ r: NormalizedRect, _ attributes: String) -> String {
            let p = l.point(x: r.x, y: r.y)
            return
                "<rect x=\"\(f(p.x))\" y=\"\(f(p.y))\" width=\"\(f(r.width * l.bodyWidth))\" height=\"\(f(r.height * l.bodyHeight))\" \(attributes)/>"
        }
        out.append(
            "<rect class=\"nfc-body\" x=\"\(f(l.bodyX))\" y=\"\(f(l.bodyY))\" width=\"\(f(l.bodyWidth))\" height=\"\(f(l.bodyHeight))\" rx=\"\(f(l.bodyWidth * 0.12))\" fill=\"#FFFFFF\" stroke=\"\(palette.outline)\" stroke-width=\"\(f(3 * u))\"/>"
        )
        for cell in d.heat where cell.taps > 0 {
            out.append(
                rect(cell.cell, "class=\"nfc-heat\" fill=\"\(palette.heat)\" fill-opacity=\"\(f2(0.08 + 0.8 * cell.readRate))\""))
        }
        if let s = d.sweepRegion {
            out.append(
                rect(
                    s,
                    "class=\"nfc-sweep\" fill=\"\(palette.sweep)\" fill-opacity=\"0.35\" stroke=\"\(palette.sweep)\" stroke-dasharray=\"\(f(6 * u)) \(f(4 * u))\""
                ))
        }
        if let z = d.zone {
            // Over a shaded map the zone is an outline, so no fill or hatching hides a cell's shade.
            let outlineOnly = !d.heat.isEmpty
            switch d.zoneStyle {
            case .exact:
                out.append(
                    rect(
                        z,
                        "class=\"nfc-zone nfc-zone-exact\" fill=\"\(outlineOnly ? "none" : palette.zoneExact)\" fill-opacity=\"0.55\" stroke=\"\(palette.zoneExact)\" stroke-width=\"\(f(2 * u))\""
                    ))
            case .approximate:
                out.append(
                    rect(
                        z,
                        "class=\"nfc-zone nfc-zone-approximate\" fill=\"\(outlineOnly ? "none" : palette.zoneApproximate)\" fill-opacity=\"0.5\" stroke=\"\(palette.zoneApproximate)\" stroke-width=\"\(f(2 * u))\""
                    ))
            case .stale:
                let fill = outlineOnly ? "none\" stroke-dasharray=\"\(f(6 * u)) \(f(3 * u))" : "url(#\(idPrefix)-hatch)"
                out.append(
                    rect(
                        z,
                        "class=\"nfc-zone nfc-zone-stale\" fill=\"\(fill)\" stroke=\"\(palette.zoneStale)\" stroke-width=\"\(f(2 * u))\""
                    ))
            }
        }
        if let m = d.measured { out.append(measured(m, open: d.openSides, l)) }
        if let hl = d.highlight {
            out.append(
                rect(hl, "class=\"nfc-highlight\" fill=\"none\" stroke=\"\(palette.highlight)\" stroke-width=\"\(f(3 * u))\""))
        }
        out += heatLabels(d, l).texts
        // Numbers (and leader lines) first, marks over them.
        for place in marks.places {
            guard let label = place.label else { continue }
            if let leader = label.leader {
                out.append(
                    "<path class=\"nfc-leader\" d=\"M\(f(leader.from.x)) \(f(leader.from.y))L\(f(leader.to.x)) \(f(leader.to.y))\" stroke=\"\(palette.text)\" stroke-width=\"\(f(1.2 * u))\" fill=\"none\"/>"
                )
            }
            out.append(
                "<text class=\"nfc-label\" x=\"\(f(label.x))\" y=\"\(f(label.y))\" font-size=\"\(f(MarkLayout.fontSize * u))\" fill=\"\(palette.text)\">\(XMLText.escape(label.text))</text>"
            )
        }
        for place in marks.places {
            for m in place.marks { out.append(mark(m.kind, at: (m.x, m.y))) }
        }
        out.append(legendGroup(d, l, caption: d.caption + unplaced))
        out.append("</svg>")
        return out.joined(separator: "\n") + "\n"
    }

    /// A hit is a filled disc, a miss a cross, a skipped position a hollow square, a
    /// planned one a crosshair (the reader's centre goes on the cross): shapes
    /// differ, not only colours. Each is centred on the position, so the pixel there
    /// carries the mark's colour.
    private func mark(_ kind: SilhouetteDrawing.MarkKind, at p: (x: Double, y: Double)) -> String {
        let u = unit, r = 6 * u, a = 5.5 * u
        switch kind {
        case .hit:
            return
                "<circle class=\"nfc-hit\" cx=\"\(f(p.x))\" cy=\"\(f(p.y))\" r=\"\(f(r))\" fill=\"\(palette.hit)\" stroke=\"#FFFFFF\" stroke-width=\"\(f(u))\"/>"
        case .miss:
            return
                "<path class=\"nfc-miss\" d=\"M\(f(p.x - a)) \(f(p.y - a))L\(f(p.x + a)) \(f(p.y + a))M\(f(p.x - a)) \(f(p.y + a))L\(f(p.x + a)) \(f(p.y - a))\" stroke=\"\(palette.miss)\" stroke-width=\"\(f(3 * u))\" fill=\"none\"/>"
        case .skipped:
            return
                "<rect class=\"nfc-skipped\" x=\"\(f(p.x - a))\" y=\"\(f(p.y - a))\" width=\"\(f(2 * a))\" height=\"\(f(2 * a))\" fill=\"none\" stroke=\"\(palette.skipped)\" stroke-width=\"\(f(2 * u))\"/>"
        case .partial:
            // Half a disc: the read began (the field reached) and never finished.
            return
                "<g class=\"nfc-partial\"><circle cx=\"\(f(p.x))\" cy=\"\(f(p.y))\" r=\"\(f(r))\" fill=\"#FFFFFF\" stroke=\"\(palette.hit)\" stroke-width=\"\(f(1.5 * u))\"/><path d=\"M\(f(p.x)) \(f(p.y - r))A\(f(r)) \(f(r)) 0 0 0 \(f(p.x)) \(f(p.y + r))Z\" fill=\"\(palette.hit)\"/></g>"
        case .foreign:
            // A diamond: something answered, and it was not the phone.
            return
                "<path class=\"nfc-foreign\" d=\"M\(f(p.x)) \(f(p.y - a))L\(f(p.x + a)) \(f(p.y))L\(f(p.x)) \(f(p.y + a))L\(f(p.x - a)) \(f(p.y))Z\" fill=\"none\" stroke=\"\(palette.skipped)\" stroke-width=\"\(f(2 * u))\"/>"
        case .planned:
            return
                "<g class=\"nfc-planned\" stroke=\"\(palette.highlight)\" stroke-width=\"\(f(1.5 * u))\" fill=\"none\"><circle cx=\"\(f(p.x))\" cy=\"\(f(p.y))\" r=\"\(f(r))\"/><path d=\"M\(f(p.x - 2 * r)) \(f(p.y))H\(f(p.x + 2 * r))M\(f(p.x)) \(f(p.y - 2 * r))V\(f(p.y + 2 * r))\"/></g>"
        }
    }

    /// The measured zone: each bounded side a dashed line; each open side (no tap bounded
    /// it) no line at all, only an arrow from the zone toward the border, so nobody reads
    /// an edge that was never measured.
    private func measured(_ m: NormalizedRect, open: Set<SilhouetteDrawing.Side>, _ l: Layout) -> String {
        let u = unit
        let a = l.point(x: m.x, y: m.y), b = l.point(x: m.maxX, y: m.maxY)
        let style =
            "stroke=\"\(palette.measured)\" stroke-width=\"\(f(3 * u))\" stroke-dasharray=\"\(f(8 * u)) \(f(4 * u))\" fill=\"none\""
        var parts = ["<g class=\"nfc-measured\">"]
        let sides: [(SilhouetteDrawing.Side, (Double, Double), (Double, Double))] = [
            (.top, (a.x, a.y), (b.x, a.y)), (.right, (b.x, a.y), (b.x, b.y)), (.bottom, (b.x, b.y), (a.x, b.y)),
            (.left, (a.x, b.y), (a.x, a.y)),
        ]
        for (side, from, to) in sides {
            guard open.contains(side) else {
                parts.append("<path d=\"M\(f(from.0)) \(f(from.1))L\(f(to.0)) \(f(to.1))\" \(style)/>")
                continue
            }
            // An arrow from the middle of the open side toward the border it may reach.
            let mx = (from.0 + to.0) / 2, my = (from.1 + to.1) / 2, len = 14 * u, head = 4 * u
            let (dx, dy): (Double, Double) =
                switch side {
                case .top: (0, -1)
                case .bottom: (0, 1)
                case .left: (-1, 0)
                case .right: (1, 0)
                }
            let tx = mx + dx * len, ty = my + dy * len
            parts.append(
                "<path class=\"nfc-open-edge\" d=\"M\(f(mx)) \(f(my))L\(f(tx)) \(f(ty))M\(f(tx - dy * head - dx * head)) \(f(ty - dx * head - dy * head))L\(f(tx)) \(f(ty))L\(f(tx + dy * head - dx * head)) \(f(ty + dx * head - dy * head))\" stroke=\"\(palette.measured)\" stroke-width=\"\(f(2 * u))\" fill=\"none\"><title>open edge (\(side.rawValue)): no tap bounded it</title></path>"
            )
        }
        parts.append("</g>")
        return parts.joined()
    }

    private func orientation(_ l: Layout) -> String {
        let u = unit, cx = l.bodyX + l.bodyWidth / 2, y = 22 * u
        return
            "<g class=\"nfc-orientation\" fill=\"\(palette.text)\"><path d=\"M\(f(cx - 6 * u)) \(f(y - 4 * u))L\(f(cx)) \(f(y - 14 * u))L\(f(cx + 6 * u)) \(f(y - 4 * u))Z\"/><text x=\"\(f(cx))\" y=\"\(f(y + 8 * u))\" font-size=\"\(f(11 * u))\" text-anchor=\"middle\">back of the phone, top edge up</text></g>"
    }

    private enum LegendEntry { case zone, sweep, measured, hit, miss, skipped, planned, heat, partial, foreign }

    private func legend(_ d: SilhouetteDrawing) -> [(LegendEntry, String)] {
        var entries: [(LegendEntry, String)] = []
        if !d.heat.isEmpty { entries.append((.heat, d.heatLegend)) }
        if d.zone != nil {
            let words: String
            switch d.zoneStyle {
            case .exact: words = "predicted zone (verified)"
            case .approximate: words = "predicted zone (approximate)"
            case .stale: words = "predicted zone (approximate, stale)"
            }
            entries.append((.zone, words))
        }
        if d.sweepRegion != nil { entries.append((.sweep, "area to sweep")) }
        if d.measured != nil {
            entries.append(
                (.measured, d.openSides.isEmpty ? "measured zone" : "measured zone (arrows: open edges)"))
        }
        if d.marks.contains(where: { $0.kind == .hit }) { entries.append((.hit, "hit: the reader saw the phone")) }
        if d.marks.contains(where: { $0.kind == .partial }) {
            entries.append((.partial, "partial: the phone began reading and stopped"))
        }
        if d.marks.contains(where: { $0.kind == .miss }) { entries.append((.miss, "miss: nothing read")) }
        if d.marks.contains(where: { $0.kind == .foreign }) {
            entries.append((.foreign, "foreign: only another card or device answered"))
        }
        if d.marks.contains(where: { $0.kind == .skipped }) { entries.append((.skipped, "skipped by the operator")) }
        if d.marks.contains(where: { $0.kind == .planned }) { entries.append((.planned, "reader centre goes here")) }
        return entries
    }

    private func legendGroup(_ d: SilhouetteDrawing, _ l: Layout, caption: [String]) -> String {
        let u = unit
        var y = l.bodyY + l.bodyHeight + 18 * u
        var parts = ["<g class=\"nfc-legend\" font-size=\"\(f(11 * u))\" fill=\"\(palette.text)\">"]
        for (entry, words) in legend(d) {
            let x = l.bodyX + 6 * u,
                box = "x=\"\(f(x - 5 * u))\" y=\"\(f(y - 5 * u))\" width=\"\(f(10 * u))\" height=\"\(f(10 * u))\""
            switch entry {
            case .heat: parts.append("<rect \(box) fill=\"\(palette.heat)\" fill-opacity=\"0.6\"/>")
            case .zone:
                let colour =
                    d.zoneStyle == .exact
                    ? palette.zoneExact : d.zoneStyle == .stale ? palette.zoneStale : palette.zoneApproximate
                parts.append("<rect \(box) fill=\"\(colour)\" fill-opacity=\"0.55\"/>")
            case .sweep: parts.append("<rect \(box) fill=\"\(palette.sweep)\" fill-opacity=\"0.5\"/>")
            case .measured:
                parts.append(
                    "<rect \(box) fill=\"none\" stroke=\"\(palette.measured)\" stroke-width=\"\(f(2 * u))\" stroke-dasharray=\"\(f(3 * u)) \(f(2 * u))\"/>"
                )
            case .hit: parts.append(mark(.hit, at: (x, y)))
            case .miss: parts.append(mark(.miss, at: (x, y)))
            case .skipped: parts.append(mark(.skipped, at: (x, y)))
            case .planned: parts.append(mark(.planned, at: (x, y)))
            case .partial: parts.append(mark(.partial, at: (x, y)))
            case .foreign: parts.append(mark(.foreign, at: (x, y)))
            }
            parts.append("<text x=\"\(f(x + 12 * u))\" y=\"\(f(y + 4 * u))\">\(XMLText.escape(words))</text>")
            y += 16 * u
        }
        parts.append("</g>")
        if let mm = bodyMillimetres {
            parts.append(scaleBar(at: y + 8 * u, x: l.bodyX, bodyHeightMm: mm.height))
            y += 40 * u
        }
        // What the drawing is of, on the drawing itself: a printed page or a loose template
        // still says which phone, session or plan, and when.
        if !caption.isEmpty {
            y += 4 * u
            parts.append("<g class=\"nfc-caption\" font-size=\"\(f(11 * u))\" fill=\"\(palette.text)\">")
            for line in caption {
                parts.append("<text x=\"\(f(l.bodyX))\" y=\"\(f(y + 4 * u))\">\(XMLText.escape(line))</text>")
                y += 15 * u
            }
            parts.append("</g>")
        }
        return parts.joined()
    }

    /// A ruler to check the print: 50 mm with a tick every 10 mm. One user unit is one
    /// millimetre here, so the bar is 50 units long.
    private func scaleBar(at y: Double, x: Double, bodyHeightMm: Double) -> String {
        let u = unit
        var ticks = ""
        for i in 0...5 {
            let tx = x + Double(i) * 10
            ticks += "<path d=\"M\(f(tx)) \(f(y))V\(f(y + (i % 5 == 0 ? 4 : 2.5)))\"/>"
        }
        return
            "<g class=\"nfc-scale\" stroke=\"\(palette.text)\" stroke-width=\"0.3\" fill=\"\(palette.text)\"><path d=\"M\(f(x)) \(f(y))H\(f(x + 50))\"/>\(ticks)<text x=\"\(f(x))\" y=\"\(f(y + 4 + 11 * u))\" font-size=\"\(f(10 * u))\" stroke=\"none\">50 mm: check with a ruler</text></g>"
    }

    /// The text alternative: what the picture shows, in words.
    public static func describe(_ d: SilhouetteDrawing) -> String {
        var parts = ["Back of the phone, top edge up, width \(Int((d.aspectRatio * 100).rounded())) % of its height."]
        func span(_ r: NormalizedRect) -> String {
            "from \(Int((r.x * 100).rounded())) % to \(Int((r.maxX * 100).rounded())) % across and \(Int((r.y * 100).rounded())) % to \(Int((r.maxY * 100).rounded())) % down"
        }
        if let z = d.zone { parts.append("Predicted zone \(span(z)).") }
        if let m = d.measured { parts.append("Measured zone \(span(m)).") }
        if !d.marks.isEmpty {
            let hits = d.marks.filter { $0.kind == .hit }.count, misses = d.marks.filter { $0.kind == .miss }.count
            let partial = d.marks.filter { $0.kind == .partial }.count
            let foreign = d.marks.filter { $0.kind == .foreign }.count
            let skipped = d.marks.count - hits - misses - partial - foreign
            parts.append(
                "\(d.marks.count) positions: \(hits) hit, " + (partial > 0 ? "\(partial) partial, " : "")
                    + "\(misses) missed, \(skipped) skipped" + (foreign > 0 ? ", \(foreign) foreign only" : "") + ".")
        }
        if !d.heat.isEmpty { parts.append(d.heatDescription) }
        return parts.joined(separator: " ")
    }

    /// A coordinate to a tenth of a unit, without a trailing ".0": integer arithmetic,
    /// since `Double.description` dominated a 10,000-session report.
    func f(_ v: Double) -> String {
        guard v.isFinite, abs(v) < 1e12 else { return "0" }
        let tenths = Int((v * 10).rounded())
        let whole = String(abs(tenths) / 10), fraction = abs(tenths) % 10
        return (tenths < 0 ? "-" : "") + (fraction == 0 ? whole : whole + "." + String(fraction))
    }

    func f2(_ v: Double) -> String { String((v * 100).rounded() / 100) }
}
