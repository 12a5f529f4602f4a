/// The same silhouette as an SVG document, for reports and web pages.
public struct SVGSilhouetteRenderer: Sendable {
    public var palette: SilhouettePalette
    /// Drawn height of the body in SVG user units.
    public var height: Double

    public init(palette: SilhouettePalette = .svg, height: Double = 400) {
        self.palette = palette
        self.height = height
    }

    public func render(_ d: SilhouetteDrawing, title: String? = nil) -> String {
        let w = height * d.aspectRatio, h = height, pad = 10.0
        func rect(_ r: NormalizedRect, _ attributes: String) -> String {
            "<rect x=\"\(f(pad + r.x * w))\" y=\"\(f(pad + r.y * h))\" width=\"\(f(r.width * w))\" height=\"\(f(r.height * h))\" \(attributes)/>"
        }
        var body: [String] = []
        body.append(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(f(w + 2 * pad)) \(f(h + 2 * pad))\" width=\"\(f(w + 2 * pad))\" height=\"\(f(h + 2 * pad))\">"
        )
        if let title { body.append("<title>\(escape(title))</title>") }
        body.append(
            "<defs><pattern id=\"stale-hatch\" width=\"8\" height=\"8\" patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\"><rect width=\"3\" height=\"8\" fill=\"\(palette.zoneStale)\"/></pattern></defs>"
        )
        body.append(
            "<rect x=\"\(f(pad))\" y=\"\(f(pad))\" width=\"\(f(w))\" height=\"\(f(h))\" rx=\"\(f(w * 0.12))\" fill=\"none\" stroke=\"\(palette.outline)\" stroke-width=\"3\" class=\"body\"/>"
        )
        if let s = d.sweepRegion {
            body.append(
                rect(
                    s,
                    "fill=\"\(palette.sweep)\" fill-opacity=\"0.35\" stroke=\"\(palette.sweep)\" stroke-dasharray=\"6 4\" class=\"sweep\""
                ))
        }
        if let z = d.zone {
            switch d.zoneStyle {
            case .exact: body.append(rect(z, "fill=\"\(palette.zoneExact)\" fill-opacity=\"0.6\" class=\"zone exact\""))
            case .approximate:
                body.append(rect(z, "fill=\"\(palette.zoneApproximate)\" fill-opacity=\"0.5\" class=\"zone approximate\""))
            case .stale: body.append(rect(z, "fill=\"url(#stale-hatch)\" stroke=\"\(palette.zoneStale)\" class=\"zone stale\""))
            }
        }
        if let hl = d.highlight {
            body.append(rect(hl, "fill=\"none\" stroke=\"\(palette.highlight)\" stroke-width=\"3\" class=\"highlight\""))
        }
        for m in d.marks {
            let cx = f(pad + m.x * w), cy = f(pad + m.y * h)
            body.append(
                m.kind == .hit
                    ? "<circle cx=\"\(cx)\" cy=\"\(cy)\" r=\"6\" fill=\"\(palette.hit)\" class=\"hit\"/>"
                    : "<circle cx=\"\(cx)\" cy=\"\(cy)\" r=\"6\" fill=\"none\" stroke=\"\(palette.miss)\" stroke-width=\"2\" class=\"miss\"/>"
            )
        }
        body.append("</svg>")
        return body.joined(separator: "\n") + "\n"
    }

    private func f(_ v: Double) -> String {
        let rounded = (v * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }

    private func escape(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
