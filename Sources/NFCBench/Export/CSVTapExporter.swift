import NFCBenchRecords

/// One CSV row per tap (columns in docs/csv.md): RFC 4180, UTF-8, times in ISO 8601 UTC.
public struct CSVTapExporter: SessionExporter {
    public init() {}

    public func export(_ sessions: SessionSource, from store: any BenchReading, to sink: ExportSink) async throws {
        try sink.write(CSVFormat.header)
        var page: [SessionRecord] = []
        // The page before, its taps already being read. A page's taps are asked for before
        // the page ahead of it is written, so reading one overlaps writing the other; each
        // page used to start with a read that nothing ran beside.
        var opened: OpenedPage?
        try await sessions.forEach(in: store) { session in
            page.append(session)
            if page.count == sessions.pageSize {
                let next = try await OpenedPage(page, from: store)
                try await opened?.write(damage: store.damage, to: sink)
                opened = next
                page.removeAll(keepingCapacity: true)
            }
        }
        let last = page.isEmpty ? nil : try await OpenedPage(page, from: store)
        try await opened?.write(damage: store.damage, to: sink)
        try await last?.write(damage: store.damage, to: sink)
        try sink.flush()
    }
}

/// A page of sessions, its session cells formatted and its taps being read.
private struct OpenedPage {
    /// Session cells are the same on every row of a session: formatted once. Keyed by id
    /// and by reference: a bench's taps name their session by id, a lab store's by
    /// `station/id` (its stations may share an id).
    let cells: [String: (prefix: [UInt8], suffix: [UInt8], trailer: [UInt8])]
    let batches: any TapBatches

    init(_ page: [SessionRecord], from store: any BenchReading) async throws {
        var cells: [String: (prefix: [UInt8], suffix: [UInt8], trailer: [UInt8])] = [:]
        for s in page {
            let formatted = (CSVFormat.sessionPrefix(s), CSVFormat.sessionSuffix(s), CSVFormat.sessionTrailer(s))
            cells[s.id] = formatted
            cells[s.reference] = formatted
        }
        self.cells = cells
        batches = try await store.tapBatches(sessions: page.map(\.reference))
    }

    /// The page's taps, streamed in batches. A session's rows are held back in the sink
    /// until its last tap is read: a damaged tap (noted in the store's damage log as it is
    /// met) drops the whole session, never half of it, at no copy of the rows.
    func write(damage: DamageLog, to sink: ExportSink) async throws {
        var current: String?
        // The current session's cells, looked up once per session rather than once per tap.
        var session: (prefix: [UInt8], suffix: [UInt8], trailer: [UInt8])?
        while case let batch = try await batches.next(), !batch.isEmpty {
            for tap in batch {
                if tap.sessionID != current {
                    if let current, session != nil { sink.endUnit(keep: !damage.contains(current)) }
                    current = tap.sessionID
                    session = cells[tap.sessionID]
                    if session != nil { sink.startUnit() }
                }
                guard let session else { continue }
                try CSVFormat.appendRow(prefix: session.prefix, tap, suffix: session.suffix, trailer: session.trailer, to: sink)
            }
        }
        if let current, session != nil { sink.endUnit(keep: !damage.contains(current)) }
    }
}
