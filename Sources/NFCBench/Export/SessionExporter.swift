import NFCBenchRecords

/// Turns stored sessions into a document: the CSV of taps today; HTML, SVG and JUnit
/// reports sit beside it. Exporters read through the store seam only and write bytes to
/// an `ExportSink`, so tests call them without the CLI and any backend can feed them.
public protocol SessionExporter: Sendable {
    func export(_ sessions: [SessionRecord], from store: any BenchStoring, to sink: ExportSink) async throws
}
