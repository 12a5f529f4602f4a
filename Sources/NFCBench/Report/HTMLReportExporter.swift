import Foundation
import NFCBenchRecords
import NFCLocatorCore

/// The report a lab files: one self-contained HTML page (inline SVG and CSS, no script,
/// nothing fetched), readable in any browser and printable, one session per page.
///
/// Sessions are read and written one at a time, so memory stays flat in their number;
/// summaries come from one streamed pass over the taps before the first session.
public struct HTMLReportExporter: SessionExporter {
    public let options: ReportOptions

    public init(options: ReportOptions) { self.options = options }

    public func export(_ sessions: [SessionRecord], from store: any BenchStoring, to sink: ExportSink) async throws {
        let ordered = options.summary == .none ? sessions : ModelGroups.ordered(sessions)
        try head(sessions, to: sink)
        var summaries: [String: (ModelSummary, String)] = [:]
        if options.summary != .none {
            let built = try await ModelSummary.build(ordered, from: store)
            let anchors = built.indices.map { "model-\($0 + 1)" }
            for (s, a) in zip(built, anchors) { summaries[s.lookupKey] = (s, a) }
            if options.summary == .all { try HTMLModelSection.overview(built, anchors: anchors, to: sink) }
        }
        if sessions.isEmpty { try sink.append("<p>No sessions match.</p>\n") }
        var written = Set<String>()
        let toolVersion = options.toolVersion
        try await OrderedRendering.run(
            count: ordered.count,
            render: { index in
                let session = ordered[index]
                let section = ExportSink.memory()
                try HTMLSessionSection(
                    report: ReportedSession(session, taps: try await store.taps(session.id)), anchor: "session-\(index + 1)",
                    toolVersion: toolVersion
                ).write(to: section)
                return section.bytes
            },
            write: { index, bytes in
                let session = ordered[index]
                if let (summary, anchor) = summaries[session.lookupKey], written.insert(session.lookupKey).inserted {
                    let refinement = try await refinement(of: session, among: ordered, store: store)
                    try HTMLModelSection(
                        summary: summary, anchor: anchor, entry: options.refiner?.entry(for: session),
                        refinement: refinement
                    ).write(to: sink)
                }
                try sink.append(bytes)
            })
        try sink.append(
            "<footer>Written by nfcbench \(XMLText.escape(options.toolVersion)) on \(CSVFormat.iso8601(options.generatedAt)) from \(XMLText.escape(options.storeLocation)). Positions are on the back of the phone, top edge up; millimetres come from the catalog's published body height.</footer>\n</body>\n</html>\n"
        )
        try sink.flush()
    }

    private func head(_ sessions: [SessionRecord], to sink: ExportSink) throws {
        let title: String
        switch (options.summary, sessions.count) {
        case (.all, _): title = "NFC antenna bench report: all models"
        case (.model, _): title = "NFC antenna bench report: \(sessions.first.map(ReportedSession.displayName) ?? "no sessions")"
        case (.none, 1): title = "NFC antenna bench report: session \(sessions[0].id)"
        case (.none, let n): title = "NFC antenna bench report: \(n) sessions"
        }
        let simulated = sessions.filter(\.simulated).count
        try sink.append(
            """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="generator" content="nfcbench \(XMLText.escape(options.toolVersion))">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(XMLText.escape(title))</title>
            <style>
            \(HTMLReportStyle.css)
            </style>
            </head>
            <body>
            <header><h1>\(XMLText.escape(title))</h1>
            <p>\(sessions.count) session(s)\(simulated > 0 ? ", \(simulated) of them simulated (not bench evidence)" : ""). Written by nfcbench \(XMLText.escape(options.toolVersion)) on \(CSVFormat.iso8601(options.generatedAt)).</p></header>

            """)
    }

    /// Refine's view of the model, for a `--model` report only: it needs the model's taps
    /// in memory, which `--all` over a whole store must not.
    private func refinement(
        of session: SessionRecord, among sessions: [SessionRecord], store: any BenchStoring
    ) async throws -> EntryRefinement? {
        guard options.summary == .model, let refiner = options.refiner, let entry = refiner.entry(for: session) else {
            return nil
        }
        var evidence: [SessionEvidence] = []
        for s in sessions where s.lookupKey == session.lookupKey && refiner.counts(s, since: nil) {
            evidence.append(SessionEvidence(session: s, taps: try await store.taps(s.id)))
        }
        return refiner.refine(evidence, only: entry.lookupKey).entries.first
    }
}
