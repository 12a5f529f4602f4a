import Foundation
import NFCBenchStorePostgres
import NFCBenchStoreSQLite
import NFCPostgres

/// The push a run makes when it ends, with a lab store configured. It never changes the
/// run's outcome: a lab store that is down costs one line on standard error, and the
/// session waits in the bench database for `nfcbench sync`.
enum LabPush {
    static func afterRun(_ local: SQLiteBenchStore, to url: String, station: String, _ context: CommandContext) async {
        let store: PostgresLabStore
        do { store = try await PostgresLabStore.open(url) } catch {
            context.errors.line("Lab store: not pushed (\(error)). The session is kept here; 'nfcbench sync' pushes it later.")
            return
        }
        let report = await LabSync.run(from: local, to: store, station: station)
        if let error = report.error {
            context.errors.line(
                "Lab store: \(report.pushed.count) pushed, \(report.pending) not (\(error)). They are kept here; "
                    + "'nfcbench sync' pushes them later.")
        } else if !report.pushed.isEmpty {
            context.errors.line("Lab store: pushed \(report.pushed.joined(separator: ", ")) to \(store.location).")
        }
    }
}
