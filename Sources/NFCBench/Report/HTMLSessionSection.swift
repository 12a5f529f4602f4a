import Foundation
import NFCBenchRecords
import NFCLocatorCore

/// One session's part of the HTML report: who, what, with which reader; the back with
/// every position; the verdict in words; positions in millimetres; the timeline.
struct HTMLSessionSection {
    let report: ReportedSession
    /// Unique within the document: SVG ids and anchors derive from it.
    let anchor: String
    let options: ReportOptions

    func write(to sink: ExportSink) throws {
        let s = report.session
        let h = XMLText.escape
        try sink.append("<section class=\"session\" id=\"\(anchor)\">\n<h2>Session \(h(s.id)): \(h(report.name))</h2>\n")
        if s.simulated {
            try sink.append(
                "<p class=\"simulated\">SIMULATED reader (\(h(s.reader.description))): not bench evidence; refine and promotion leave it out.</p>\n"
            )
        }
        if let reason = s.voidReason {
            try sink.append("<p class=\"void\">VOID: \(h(reason)). Refine and default reports leave it out.</p>\n")
        }
        try facts(s, to: sink)
        try sink.append("<div class=\"figure-row\">\n<figure>\n")
        let renderer = SVGSilhouetteRenderer(height: 360, idPrefix: anchor)
        try sink.append(renderer.render(report.drawing(clock: options.clock), title: "\(report.name), session \(s.id)"))
        try sink.append(
            "<figcaption>Back of the phone, top edge up, at its true aspect ratio. Positions are numbered in the order tapped.</figcaption>\n</figure>\n"
        )
        try verdict(to: sink)
        try sink.append("</div>\n")
        try operatingVolume(to: sink)
        try couplingMap(to: sink)
        try criteria(to: sink)
        try positions(to: sink)
        try timeline(to: sink)
        try signOff(to: sink)
        try sink.append("</section>\n")
    }

    /// A session with `--heights`: the read-height map, then the taps at each height, in a
    /// grid that wraps on paper too (a print row does not, and dropped every map past the
    /// second from the PDF).
    private func operatingVolume(to sink: ExportSink) throws {
        let heights = report.heights
        guard heights.count > 1 else { return }
        let list = heights.map { FixedPoint.format($0, 1) }.joined(separator: ", ")
        try sink.append(
            "<h3>Operating volume</h3>\n<p>Every position was tapped on the back, then at \(XMLText.escape(list)) mm above "
                + "it, layer by layer; a position that missed was not tapped higher. The verdict and refine use "
                + "the taps on the back only.</p>\n<div class=\"figure-grid\">\n")
        let map = SVGSilhouetteRenderer(height: 300, idPrefix: anchor + "-volume")
        try sink.append("<figure>\n" + map.render(report.readHeightDrawing, title: "\(report.name): read height"))
        try sink.append("<figcaption>Greatest height read at each position (mm).</figcaption>\n</figure>\n")
        for (index, height) in heights.enumerated() {
            let renderer = SVGSilhouetteRenderer(height: 300, idPrefix: anchor + "-h\(index)")
            try sink.append(
                "<figure>\n"
                    + renderer.render(
                        report.drawing(atHeightMm: height), title: "\(report.name): \(FixedPoint.format(height, 1)) mm")
            )
            try sink.append("<figcaption>Taps \(FixedPoint.format(height, 1)) mm above the back.</figcaption>\n</figure>\n")
        }
        try sink.append("</div>\n")
    }

    /// A session with `--coupling`: how strongly the phone coupled at each position that read.
    private func couplingMap(to sink: ExportSink) throws {
        if !report.gradesSetAside.isEmpty {
            let counts = report.gradesSetAside.map { "\($0.taps) on ladder \(XMLText.escape($0.ladder))" }
            try sink.append(
                "<p class=\"note\">Graded reads measured on another coupling ladder than this build's ("
                    + counts.joined(separator: ", ") + ") count as plain reads: a grade is a share of its own "
                    + "ladder (docs/coupling.md).</p>\n")
        }
        guard report.isGraded else { return }
        try sink.append(
            "<h3>Coupling</h3>\n<p>Each position that read was tapped again down the reader's analog ladder, weaker "
                + "each time, until the phone stopped answering; the grade is how far down it still read "
                + "(docs/coupling.md). The verdict uses the reads at the default field.</p>\n<figure>\n")
        let map = SVGSilhouetteRenderer(height: 300, idPrefix: anchor + "-coupling")
        try sink.append(map.render(report.couplingDrawing, title: "\(report.name): coupling"))
        try sink.append("<figcaption>Graded coupling at each position that read (0 to 1).</figcaption>\n</figure>\n")
    }

    private func facts(_ s: SessionRecord, to sink: ExportSink) throws {
        let h = XMLText.escape
        var rows: [(String, String)] = [
            ("Model", h(report.name) + (s.modelTyped.map { " (typed \u{201C}" + h($0) + "\u{201D})" } ?? "")),
            ("Catalog key", h(s.lookupKey)),
            ("Unit", h(s.unit ?? "not recorded")), ("Operator", h(s.operatorName ?? "not recorded")),
            ("Phone", h(phoneWords(s.phone))),
            (
                "Reader",
                h(s.reader.description) + (s.readerFirmware.map { ", firmware " + h($0) } ?? "")
                    + (s.readerSerial.map { ", serial " + h($0) } ?? "")
            ),
            ("Reader antenna", h(s.readerGeometry?.description ?? "unknown, so no coil estimate (run --reader-antenna)")),
            // The bench and the room it stood in, one row: page 1 of the A4 record holds the
            // facts, the drawing and the verdict.
            ("Station, room", h((s.station ?? "not recorded") + "; " + (s.conditions.words ?? "room not recorded"))),
        ]
        // The equipment register as the run last started or resumed: each item, and which
        // were past their calibration due date then (ISO/IEC 17025 §6.4.13).
        if let register = report.events.last(where: { $0.kind == .equipment })?.details {
            let overdue = Set(
                (register["outOfCalibration"] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
            let items = register.keys.filter { $0 != "outOfCalibration" }.sorted().map { role in
                h(role + ": " + (register[role] ?? "")) + (overdue.contains(role) ? " <strong>(out of calibration)</strong>" : "")
            }
            rows.append(("Equipment", items.joined(separator: "<br>")))
        }
        rows += [
            (
                "Mode",
                s.mode == .tag ? "tag: the phone's reader read an emulated Type 4 tag" : "card: the reader polled the phone"
            ),
            ("Evidence", s.simulated ? "simulated reader" : "real reader"),
            ("Plan", "\(s.plan.rawValue), \(s.repeats) tap(s) per position, " + windowWords),
            (
                "Prediction",
                "\(s.confidence.rawValue) (\(Self.sourceWords(s.source)))" + (s.stale ? ", stale" : "")
                    + (s.catalogVersion.map { ", catalog " + h($0) } ?? "")
            ),
            ("Started", options.clock.local(s.startedAt)), ("Ended", s.endedAt.map(options.clock.local) ?? "not finished"),
            ("Status", s.status.rawValue), ("Report by", "nfcbench \(h(options.toolVersion))"),
        ]
        if s.readerGeometry != nil {
            switch report.coil() {
            case .success(let coil): rows.append(("Coil (physical model)", h(coil.words + "; 95% intervals")))
            case .failure(let why): rows.append(("Coil (physical model)", h("not estimated: " + why.words)))
            }
        }
        if let body = report.body {
            rows.append(("Body", "\(FixedPoint.format(body.width, 1)) × \(FixedPoint.format(body.height, 1)) mm"))
        }
        try sink.append("<dl class=\"facts\">")
        for (term, value) in rows { try sink.append("<dt>\(term)</dt><dd>\(value)</dd>") }
        try sink.append("</dl>\n")
    }

    /// "Android 15, build AP3A.240905.015, case: none", or what of it was given.
    private func phoneWords(_ p: PhoneDetails) -> String {
        guard !p.isEmpty else { return "OS, build and case not recorded (run --phone-os, --phone-build, --case)" }
        return [p.os ?? "OS not recorded", p.build.map { "build " + $0 }, "case: " + (p.phoneCase ?? "not recorded")]
            .compactMap { $0 }.joined(separator: ", ")
    }

    /// "1.0 s window", or every length the session used when a resume changed it.
    private var windowWords: String {
        let lengths = report.windowLengths.map { FixedPoint.format($0, 1) + " s" }
        return lengths.count == 1
            ? lengths[0] + " window" : "windows of " + lengths.joined(separator: ", ") + " (each position's in the timeline)"
    }

    private func verdict(to sink: ExportSink) throws {
        let score = report.score
        let counted = report.tapSummary
        var numbers: [String] = [
            "\(score.taps) position(s) tapped, \(score.hits) hit, \(score.skipped) skipped"
                + (counted.layers.count > 1 ? " on the back" : "")
        ]
        if let layers = counted.layerWords { numbers.append("hits/taps per layer: \(layers)") }
        if let iou = score.iou { numbers.append("IoU \(FixedPoint.format(iou, 2))") }
        if let offset = score.centreOffset {
            numbers.append(
                "centre offset "
                    + (report.session.bodyHeightMm.map { FixedPoint.format(offset * $0, 1) + " mm" }
                        ?? FixedPoint.format(offset, 3) + " body heights"))
        }
        try sink.append(
            "<div><p class=\"verdict verdict-\(score.verdict.rawValue)\"><strong>Verdict: \(score.verdict.rawValue)</strong><br>\(XMLText.escape(report.verdictSentence))</p>\n<p>\(numbers.joined(separator: "; ")).</p>\n"
        )
        if let m = score.measured {
            let open = score.openEdgesWords.map { " <span class=\"open-edges\">(" + XMLText.escape($0) + ")</span>" } ?? ""
            try sink.append("<p>Measured zone: \(report.zoneWords(m))\(open).</p>\n")
        }
        if let p = report.session.predicted { try sink.append("<p>Predicted zone: \(report.zoneWords(p)).</p>\n") }
        try sink.append("</div>\n")
    }

    private func positions(to sink: ExportSink) throws {
        let mm = report.body != nil, graded = report.isGraded
        try sink.append("<h3>Positions</h3>\n<table class=\"positions\"><thead><tr><th scope=\"col\">#</th>")
        try sink.append(
            mm
                ? "<th scope=\"col\">from left (mm)</th><th scope=\"col\">below top (mm)</th>"
                : "<th scope=\"col\">x (fraction)</th><th scope=\"col\">y (fraction)</th>")
        try sink.append(
            "<th scope=\"col\">where</th><th scope=\"col\">result</th><th scope=\"col\">taps</th><th scope=\"col\">time to detect (ms)</th><th scope=\"col\">tapped at (s from start)</th>"
                + (graded ? "<th scope=\"col\">coupling (0 to 1)</th>" : "") + "</tr></thead>\n<tbody>\n"
        )
        let start = report.session.startedAt
        for p in report.positions {
            let (a, b): (String, String)
            if let body = report.body {
                let at = body.position(p.probe)
                (a, b) = (FixedPoint.format(at.fromLeft, 1), FixedPoint.format(at.fromTop, 1))
            } else {
                (a, b) = (FixedPoint.format(p.probe.x, 3), FixedPoint.format(p.probe.y, 3))
            }
            let band = p.evidence?.words ?? "no prediction"
            let flag = report.contradicts(p) ? " <span class=\"contradicts\">(contradicts the prediction)</span>" : ""
            // Plain concatenation: interpolating an Int goes through a dynamic cast per
            // cell, which a million-position report feels.
            let mark =
                switch p.outcome {
                case .hit: "mark-hit"
                case .miss: "mark-miss"
                case .partial: "mark-partial"
                case .skipped, .foreign: "mark-skipped"
                }
            let note =
                (p.partialProgress.map { " <span class=\"note\">(stopped after " + PartialReadWords.stage($0) + ")</span>" }
                    ?? "")
                + (p.answeredBeforeConfirmation
                    ? " <span class=\"note\">(answered before the placement was confirmed)</span>" : "")
                + (p.foreignAnswers > 0 ? " <span class=\"note\">(" + String(p.foreignAnswers) + "× FOREIGN)</span>" : "")
                + (p.probe.isAtTapHeight
                    ? "" : " <span class=\"note\">(" + FixedPoint.format(p.probe.heightMm, 1) + " mm above the back)</span>")
            try sink.append(
                "<tr><td>" + String(p.number) + "</td><td>" + a + "</td><td>" + b + "</td><td>" + band + "</td><td class=\""
                    + mark + "\">" + p.outcome.rawValue + flag + note + "</td><td>" + String(p.attempts) + "</td><td>"
                    + FixedPoint.format(p.latencyMs, 0) + "</td><td>"
                    + FixedPoint.format(max(0, p.firstTappedAt.timeIntervalSince(start)), 1) + "</td>"
                    + (graded ? "<td>" + couplingCell(p) + "</td>" : "") + "</tr>\n")
        }
        try sink.append("</tbody></table>\n")
        if !mm { try sink.append("<p>No published body size for this model: positions are fractions of the back.</p>\n") }
    }

    /// A graded read's grade; a read at the default field only is 0. A position that did
    /// not read, or read without being graded, says so rather than showing a number.
    private func couplingCell(_ p: ReportedSession.Position) -> String {
        if let grade = p.coupling { return FixedPoint.format(grade, 2) }
        return p.outcome == .hit || p.outcome == .partial ? "not graded" : "no read"
    }

    /// The session's course. With an audit trail: every event, to the millisecond, each
    /// window with its own length. Sessions from before the trail was kept show start,
    /// first and last tap, and end.
    private func timeline(to sink: ExportSink) throws {
        let s = report.session
        func after(_ date: Date) -> String { "+" + FixedPoint.format(max(0, date.timeIntervalSince(s.startedAt)), 1) + " s" }
        try sink.append(
            "<h3>Timeline</h3>\n<p class=\"note\">Local time, " + XMLText.escape(options.clock.zoneWords(at: s.startedAt))
                + ".</p>\n<ol class=\"timeline\">")
        try sink.append("<li>" + options.clock.local(s.startedAt) + " session started</li>")
        if let problem = report.eventsProblem {
            try sink.append("<li>the audit trail could not be read: " + XMLText.escape(problem) + "</li>")
        }
        if !report.events.isEmpty {
            for event in report.events where event.kind != .started {
                try sink.append(
                    "<li>" + after(event.at) + " <time datetime=\"" + EventWords.instant(event.at) + "\">"
                        + options.clock.timeOfDay(event.at) + "</time> " + XMLText.escape(EventWords.describe(event))
                        + "</li>")
            }
        } else if let first = report.positions.first, let last = report.positions.last {
            try sink.append("<li>" + after(first.firstTappedAt) + " position 1 tapped</li>")
            try sink.append(
                "<li>" + after(last.firstTappedAt) + " position " + String(last.number) + " tapped (the last)</li>")
        }
        if let end = s.endedAt {
            try sink.append("<li>" + after(end) + " session " + s.status.rawValue + " (" + options.clock.local(end) + ")</li>")
        } else {
            try sink.append("<li>not finished: resumable with nfcbench run --resume " + XMLText.escape(s.id) + "</li>")
        }
        try sink.append("</ol>\n")
    }

    /// The layer a prediction came from, as the resolve page words it (the strings
    /// catalog's English): `seedCatalog` is the wire name, not words for a record.
    static func sourceWords(_ source: DataSource) -> String {
        switch source {
        case .remoteCatalog: "remote catalog"
        case .seedCatalog: "seed catalog"
        case .heuristic: "heuristic"
        }
    }
}
