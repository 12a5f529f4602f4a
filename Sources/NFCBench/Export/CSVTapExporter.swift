import NFCBenchRecords

/// One CSV row per tap (columns in docs/csv.md): RFC 4180, UTF-8, times in ISO 8601 UTC.
public struct CSVTapExporter: SessionExporter {
    public init() {}

    public func export(_ sessions: [SessionRecord], from store: any BenchStoring, to sink: ExportSink) async throws {
        // Session cells are the same on every row of a session: format them once.
        var cells: [String: (prefix: [UInt8], suffix: [UInt8])] = [:]
        for s in sessions { cells[s.id] = (Array(CSVFormat.sessionCells(s).utf8), Array(CSVFormat.sessionSuffix(s).utf8)) }
        try sink.write(CSVFormat.header)
        let batches = try await store.tapBatches(sessions: sessions.map(\.id))
        while case let batch = try await batches.next(), !batch.isEmpty {
            for tap in batch {
                if let session = cells[tap.sessionID] {
                    try CSVFormat.appendRow(prefix: session.prefix, tap, suffix: session.suffix, to: sink)
                }
            }
        }
        try sink.flush()
    }
}
