import NFCBenchRecords

/// Turns stored sessions into a document: the CSV of taps, HTML, SVG and JUnit reports,
/// the session CSV. Exporters read through the store seam only and write bytes to an
/// `ExportSink`, so tests call them without the CLI and any backend can feed them; they
/// take sessions from a `SessionSource`, a page at a time.
public protocol SessionExporter: Sendable {
    func export(_ sessions: SessionSource, from store: any BenchReading, to sink: ExportSink) async throws
}

extension SessionExporter {
    /// Exports exactly `sessions`, in that order.
    public func export(_ sessions: [SessionRecord], from store: any BenchReading, to sink: ExportSink) async throws {
        try await export(.listed(sessions), from: store, to: sink)
    }
}
