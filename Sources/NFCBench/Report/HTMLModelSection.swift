import Foundation
import NFCBenchRecords
import NFCLocatorCore

/// A model's summary: its sessions and units, the verdicts, the pooled tap map, the
/// catalog entry as it stands and, when refine has evidence, the refined zone.
struct HTMLModelSection {
    let summary: ModelSummary
    let anchor: String
    let entry: DeviceAntennaProfile?
    let refinement: EntryRefinement?
    let clock: ReportClock

    static func overview(_ summaries: [ModelSummary], anchors: [String], to sink: ExportSink) throws {
        try sink.append(
            "<section class=\"overview\"><h2>Models</h2>\n<table><thead><tr><th scope=\"col\">model</th><th scope=\"col\" class=\"num\">sessions</th><th scope=\"col\" class=\"num\">units</th>"
        )
        for v in SessionVerdict.allCases { try sink.append("<th scope=\"col\" class=\"num\">\(v.rawValue)</th>") }
        try sink.append(
            "<th scope=\"col\" class=\"num\">taps</th><th scope=\"col\" class=\"num\">read rate</th></tr></thead>\n<tbody>\n")
        for (summary, anchor) in zip(summaries, anchors) {
            try sink.append("<tr><td><a href=\"#\(anchor)\">\(XMLText.escape(summary.name))</a></td>")
            try sink.append("<td class=\"num\">\(summary.sessions)</td><td class=\"num\">\(summary.units.count)</td>")
            for v in SessionVerdict.allCases { try sink.append("<td class=\"num\">\(summary.count(v))</td>") }
            try sink.append("<td class=\"num\">\(summary.taps)</td><td class=\"num\">\(rate(summary))</td></tr>\n")
        }
        try sink.append("</tbody></table></section>\n")
    }

    static func rate(_ s: ModelSummary) -> String {
        s.taps == 0 ? "" : FixedPoint.format(Double(s.hits) / Double(s.taps) * 100, 0) + " %"
    }

    func write(to sink: ExportSink) throws {
        let h = XMLText.escape, s = summary
        try sink.append("<section class=\"model\" id=\"\(anchor)\">\n<h2>Model summary: \(h(s.name))</h2>\n")
        let verdicts = SessionVerdict.allCases.map { "\($0.rawValue) \(s.count($0))" }.joined(separator: ", ")
        let unfinished = s.verdicts["not finished"].map { ", not finished \($0)" } ?? ""
        try sink.append("<dl class=\"facts\">")
        try sink.append("<dt>Catalog key</dt><dd>\(h(s.lookupKey))</dd>")
        try sink.append(
            "<dt>Sessions</dt><dd>\(s.sessions)\(s.simulatedSessions > 0 ? " (\(s.simulatedSessions) simulated)" : "")</dd>")
        try sink.append(
            "<dt>Units</dt><dd>\(s.units.isEmpty ? "none recorded" : h(s.units.sorted().joined(separator: ", ")))</dd>")
        try sink.append("<dt>Verdicts</dt><dd>\(verdicts)\(unfinished)</dd>")
        try sink.append("<dt>Taps</dt><dd>\(s.taps), read rate \(Self.rate(s))</dd></dl>\n")
        try sink.append("<div class=\"figure-row\">\n<figure>\n")
        try sink.append(
            SVGSilhouetteRenderer(height: 360, idPrefix: anchor).render(
                s.drawing(clock: clock), title: "\(s.name): read rates of \(s.taps) pooled taps"))
        try sink.append(
            "<figcaption>Pooled taps of every session listed, as read rates per cell of \(ModelSummary.columns) × \(ModelSummary.rows) over the back (top edge up).</figcaption>\n</figure>\n<div>\n"
        )
        try catalogEntry(to: sink)
        try refined(to: sink)
        try sink.append("</div></div>\n</section>\n")
    }

    private func catalogEntry(to sink: ExportSink) throws {
        try sink.append("<h3>Catalog entry as it stands</h3>\n")
        guard let e = entry else {
            try sink.append("<p>No catalog entry: this model resolves to the heuristic.</p>\n")
            return
        }
        let h = XMLText.escape
        let verified = e.verified ? "verified" + (e.lastVerifiedAt.map { " " + CSVFormat.iso8601($0) } ?? "") : "not verified"
        try sink.append(
            "<dl class=\"facts\"><dt>Entry</dt><dd>\(h(e.displayName)) (\(h(e.modelIdentifier)), \(h(e.lookupKey)))</dd><dt>Zone</dt><dd>\(Self.zoneWords(e))</dd><dt>Status</dt><dd>\(verified)</dd>"
        )
        if let mm = e.bodyHeightMm { try sink.append("<dt>Body height</dt><dd>\(FixedPoint.format(mm, 1)) mm</dd>") }
        try sink.append("</dl>\n")
    }

    private func refined(to sink: ExportSink) throws {
        guard let r = refinement else { return }
        try sink.append("<h3>Refined zone</h3>\n")
        guard let estimate = r.estimate else {
            try sink.append("<p>Refine has no estimate yet: \(XMLText.escape(Self.noEstimateWords(r))).</p>\n")
            return
        }
        let heightMm = summary.bodyHeightMm
        try sink.append(
            "<p>From \(r.evidence.sessionIDs.count) session(s) and \(r.evidence.taps) taps; IoU with the entry \(FixedPoint.format(r.iouWithPrevious, 2)).</p>\n"
        )
        try sink.append(
            "<table><thead><tr><th scope=\"col\">edge</th><th scope=\"col\" class=\"num\">estimate</th><th scope=\"col\" class=\"num\">95% interval</th><th scope=\"col\" class=\"num\">± mm</th></tr></thead><tbody>\n"
        )
        for edge in ZoneEdge.allCases {
            guard let e = estimate.edges[edge] else { continue }
            let half = heightMm.map { FixedPoint.format(e.widthInBodyHeights / 2 * $0, 1) } ?? ""
            try sink.append(
                "<tr><td>\(edge.rawValue) edge</td><td class=\"num\">\(FixedPoint.format(e.value, 3))</td><td class=\"num\">\(FixedPoint.format(e.low, 3))–\(FixedPoint.format(e.high, 3))\(e.open ? " (open)" : "")</td><td class=\"num\">\(half)</td></tr>\n"
            )
        }
        try sink.append("</tbody></table>\n")
    }

    /// The zone as an auditor reads it: each figure named in words and, where the entry
    /// publishes the body's size, in millimetres from the back's top-left corner. The
    /// catalog's own field names (`zoneX`...) are a wire format, not words for a record.
    static func zoneWords(_ e: DeviceAntennaProfile) -> String {
        let z = e.zone, f = { (v: Double) in FixedPoint.format(v, 3) }
        var words =
            "\(f(z.width)) wide and \(f(z.height)) tall, \(f(z.x)) from the left edge and \(f(z.y)) from the top edge (fractions of the back)"
        if let body = e.coilBodyMm {
            let mm = { (v: Double) in FixedPoint.format(v, 1) }
            words +=
                "; \(mm(z.width * body.width)) × \(mm(z.height * body.height)) mm, \(mm(z.x * body.width)) mm from the left edge and \(mm(z.y * body.height)) mm from the top edge"
        }
        return words
    }

    /// Why refine left the zone alone, in the words `refine` prints.
    static func noEstimateWords(_ r: EntryRefinement) -> String {
        switch r.outcome {
        case .tooFewSessions(let needed): "\(r.evidence.sessionIDs.count) session(s) so far, \(needed) needed"
        case .noReads: "no tap read the phone"
        case .verifiedAgrees: "the entry is verified and the evidence agrees"
        case .verifiedDisagrees: "the entry is verified and the evidence disagrees"
        case .refined: "the taps do not bound the zone yet"
        }
    }
}
