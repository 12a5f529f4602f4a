import NFCBenchRecords

/// One CSV row per tap (columns in docs/csv.md): RFC 4180, UTF-8, times in ISO 8601 UTC.
public struct CSVTapExporter: SessionExporter {
    public init() {}

    public func export(_ sessions: SessionSource, from store: any BenchReading, to sink: ExportSink) async throws {
        try sink.write(CSVFormat.header)
        var page: [SessionRecord] = []
        try await sessions.forEach(in: store) { session in
            page.append(session)
            if page.count == sessions.pageSize {
                try await write(page, from: store, to: sink)
                page.removeAll(keepingCapacity: true)
            }
        }
        try await write(page, from: store, to: sink)
        try sink.flush()
    }

    /// The taps of one page of sessions, streamed in batches.
    private func write(_ page: [SessionRecord], from store: any BenchReading, to sink: ExportSink) async throws {
        guard !page.isEmpty else { return }
        // Session cells are the same on every row of a session: format them once.
        var cells: [String: (prefix: [UInt8], suffix: [UInt8])] = [:]
        // Keyed by id and by reference: a bench's taps name their session by id, a lab
        // store's by `station/id` (its stations may share an id).
        for s in page {
            let formatted = (Array(CSVFormat.sessionCells(s).utf8), Array(CSVFormat.sessionSuffix(s).utf8))
            cells[s.id] = formatted
            cells[s.reference] = formatted
        }
        let batches = try await store.tapBatches(sessions: page.map(\.reference))
        // A session's rows are held back in the sink until its last tap is read: a damaged
        // tap (noted in the store's damage log as it is met) drops the whole session, never
        // half of it, at no copy of the rows.
        var current: String?
        // The current session's cells, looked up once per session rather than once per tap.
        var session: (prefix: [UInt8], suffix: [UInt8])?
        while case let batch = try await batches.next(), !batch.isEmpty {
            for tap in batch {
                if tap.sessionID != current {
                    if let current, session != nil { sink.endUnit(keep: !store.damage.contains(current)) }
                    current = tap.sessionID
                    session = cells[tap.sessionID]
                    if session != nil { sink.startUnit() }
                }
                guard let session else { continue }
                try CSVFormat.appendRow(prefix: session.prefix, tap, suffix: session.suffix, to: sink)
            }
        }
        if let current, session != nil { sink.endUnit(keep: !store.damage.contains(current)) }
    }
}
