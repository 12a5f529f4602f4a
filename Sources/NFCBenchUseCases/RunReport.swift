import Foundation
import NFCBench
import NFCBenchRecords

/// The end of a run: the finished session's HTML report, written under the one
/// destination policy (never over the session database, never renamed over a device).
/// The session is already safe in the store, so a caller treats a failure here as a
/// warning, not as the run's outcome.
public enum RunReport {
    public static func write(
        sessionID: String, from store: any BenchReading, to path: String, databasePath: String, toolVersion: String
    ) async throws {
        let destination = try OutputDestination.check(path, protecting: [databasePath])
        guard let session = try await store.session(sessionID) else { return }
        let exporter = HTMLReportExporter(options: ReportOptions(toolVersion: toolVersion, storeLocation: databasePath))
        try await destination.write { try await exporter.export(.listed([session]), from: store, to: $0) }
    }
}
