import NFCBenchRecords

/// `report --format json`: a JSON array holding each session as `show --json` prints it
/// (`SessionJSON.record`, one schema: docs/schema/session.schema.json), for a lab's own
/// tools. A damaged session is left out as every report leaves it out.
public struct JSONReportExporter: SessionExporter {
    public let options: ReportOptions

    public init(options: ReportOptions) { self.options = options }

    public func export(_ sessions: SessionSource, from store: any BenchReading, to sink: ExportSink) async throws {
        var first = true
        try sink.write("[")
        try await sessions.forEach(in: store) { session in
            guard let taps = try await store.intactTaps(of: session) else { return }
            let events = try await store.events(session.id)
            let record = SessionJSON.record(session, taps: taps, events: events, databasePath: options.storeLocation)
            try sink.write((first ? "\n" : ",\n") + record.serialized(pretty: true))
            first = false
        }
        try sink.write(first ? "]\n" : "\n]\n")
        try sink.flush()
    }
}
