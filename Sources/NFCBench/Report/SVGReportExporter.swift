import NFCBenchRecords
import NFCLocatorCore

/// One drawing as a standalone SVG: a session's back with every position, or (for a
/// model) the pooled tap map. The same renderer draws the HTML report's figures.
public struct SVGReportExporter: SessionExporter {
    /// Draw the pooled map of all `sessions` (one model) instead of the first session.
    public let summary: Bool
    /// The caption's local time.
    public let clock: ReportClock

    public init(summary: Bool, clock: ReportClock = .fromEnvironment()) {
        self.summary = summary
        self.clock = clock
    }

    public func export(_ sessions: SessionSource, from store: any BenchReading, to sink: ExportSink) async throws {
        if summary, let model = try await ModelSummary.build(sessions, from: store).first {
            try sink.write(
                SVGSilhouetteRenderer().render(
                    model.drawing(clock: clock), title: "\(model.name): read rates of \(model.taps) pooled taps"))
        } else {
            var pager = sessions.pager(in: store)
            guard let first = try await pager.next() else { throw ReportError.nothingToDraw }
            let report = ReportedSession(first, taps: try await store.taps(first.reference))
            try sink.write(
                SVGSilhouetteRenderer().render(
                    report.drawing(clock: clock),
                    title: "\(report.name), session \(report.session.id): \(report.score.verdict.rawValue)"))
        }
        try sink.flush()
    }
}

public enum ReportError: Error, Sendable, Equatable, CustomStringConvertible {
    case nothingToDraw

    public var description: String {
        switch self {
        case .nothingToDraw: "No sessions to draw."
        }
    }
}
