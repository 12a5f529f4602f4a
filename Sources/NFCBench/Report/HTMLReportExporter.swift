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

    public func export(_ sessions: SessionSource, from store: any BenchReading, to sink: ExportSink) async throws {
        var summaries: [ModelSummary] = []
        if options.summary != .none { summaries = try await ModelSummary.build(sessions, from: store) }
        let count: (all: Int, simulated: Int)
        if case .listed(let list) = sessions.selection {
            count = (list.count, list.filter(\.simulated).count)
        } else {
            count = (summaries.reduce(0) { $0 + $1.sessions }, summaries.reduce(0) { $0 + $1.simulatedSessions })
        }
        try head(count, firstModel: summaries.first?.name, sessions: sessions, store: store, to: sink)
        let anchors = summaries.indices.map { "model-\($0 + 1)" }
        if options.summary == .all { try HTMLModelSection.overview(summaries, anchors: anchors, to: sink) }
        if count.all == 0 { try sink.append("<p>No sessions match.</p>\n") }
        var written = 0
        if options.summary == .none {
            try await writeSessions(sessions, lookupKeys: nil, store: store, numberedFrom: &written, to: sink)
        } else {
            // Each model's summary, then its sessions: one paged pass per model.
            for (summary, anchor) in zip(summaries, anchors) {
                let refinement = try await refinement(of: summary.lookupKey, in: sessions, store: store)
                try HTMLModelSection(
                    summary: summary, anchor: anchor, entry: options.refiner?.entry(for: summary.latest),
                    refinement: refinement, clock: options.clock
                ).write(to: sink)
                try await writeSessions(sessions, lookupKeys: [summary.lookupKey], store: store, numberedFrom: &written, to: sink)
            }
        }
        try sink.append(
            "<footer>Written by nfcbench \(XMLText.escape(options.toolVersion)) on \(options.clock.local(options.generatedAt)) from \(XMLText.escape(options.storeLocation)). Times are local (\(XMLText.escape(options.clock.zoneWords(at: options.generatedAt)))); the data files keep UTC. Positions are on the back of the phone, top edge up; millimetres come from the catalog's published body height.</footer>\n</body>\n</html>\n"
        )
        try sink.flush()
    }

    /// The sessions (of `lookupKeys` only, when given), rendered a few at a time on both
    /// cores and written in order.
    private func writeSessions(
        _ sessions: SessionSource, lookupKeys: Set<String>?, store: any BenchReading, numberedFrom written: inout Int,
        to sink: ExportSink
    ) async throws {
        let options = options
        let first = written
        var pager = sessions.pager(in: store, lookupKeys: lookupKeys)
        var count = 0
        try await OrderedRendering.run(
            next: { try await pager.next() },
            render: { index, session in
                let section = ExportSink.memory()
                // A damaged session is left out (the store notes it; the command says so).
                guard let taps = try await store.intactTaps(of: session) else { return [] }
                let trail = await Self.events(of: session, in: store)
                try HTMLSessionSection(
                    report: ReportedSession(session, taps: taps, events: trail.events, eventsProblem: trail.problem),
                    anchor: "session-\(first + index + 1)", options: options
                ).write(to: section)
                return section.bytes
            },
            write: { _, _, bytes in
                try sink.append(bytes)
                count += 1
            })
        written += count
    }

    /// A session's trail for its timeline; a damaged event is said there, never a reason
    /// to leave the session's report out.
    static func events(of session: SessionRecord, in store: any BenchReading) async -> (
        events: [SessionEvent], problem: String?
    ) {
        do { return (try await store.events(session.reference), nil) } catch { return ([], String(describing: error)) }
    }

    private func head(
        _ count: (all: Int, simulated: Int), firstModel: String?, sessions: SessionSource, store: any BenchReading,
        to sink: ExportSink
    ) throws {
        let title: String
        switch options.summary {
        case .all: title = "NFC antenna bench report: all models"
        case .model: title = "NFC antenna bench report: \(firstModel ?? "no sessions")"
        case .none:
            if case .listed(let list) = sessions.selection, list.count == 1 {
                title = "NFC antenna bench report: session \(list[0].id)"
            } else {
                title = "NFC antenna bench report: \(count.all) sessions"
            }
        }
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
            \(HTMLReportStyle.css)\(options.pageSize.map { "\n@page { size: \($0); }" } ?? "")
            </style>
            </head>
            <body>
            <header><h1>\(XMLText.escape(title))</h1>
            <p>\(count.all) session(s)\(count.simulated > 0 ? ", \(count.simulated) of them simulated (not bench evidence)" : ""). Written by nfcbench \(XMLText.escape(options.toolVersion)) on \(options.clock.local(options.generatedAt)).</p></header>

            """)
    }

    /// Refine's view of the model, for a `--model` report only: it needs the model's taps
    /// in memory, which `--all` over a whole store must not.
    private func refinement(
        of lookupKey: String, in sessions: SessionSource, store: any BenchReading
    ) async throws -> EntryRefinement? {
        guard options.summary == .model, let refiner = options.refiner else { return nil }
        var evidence: [SessionEvidence] = []
        var entryKey: String?
        try await sessions.forEach(in: store, lookupKeys: [lookupKey]) { s in
            guard refiner.counts(s, since: nil) else { return }
            if entryKey == nil { entryKey = refiner.entry(for: s)?.lookupKey }
            guard let taps = try await store.intactTaps(of: s) else { return }
            evidence.append(SessionEvidence(session: s, taps: taps))
        }
        guard let entryKey else { return nil }
        return refiner.refine(evidence, only: entryKey).entries.first
    }
}
