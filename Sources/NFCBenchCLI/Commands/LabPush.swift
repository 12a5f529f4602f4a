import Foundation
import NFCBenchUseCases
import NFCHost

/// The push a run makes when it ends, with a lab store configured. It never changes the
/// run's outcome: a lab store that is down costs one line on standard error, and the
/// session waits in the bench database for `nfcbench sync`.
enum LabPush {
    static func afterRun(_ local: any BenchDatabase, to url: String, station: String, _ context: CommandContext) async {
        let timeout: Int
        do { timeout = try LabOptions.timeoutSeconds(context) } catch {
            context.errors.line("Lab store: not pushed (\(error)). The session is kept here; 'nfcbench sync' pushes it later.")
            return
        }
        let outcome = await LabPublication.afterRun(
            local, to: url, station: station, machine: MachineName.current(environment: context.environment),
            timeoutSeconds: timeout)
        switch outcome {
        case .notReached(let reason):
            context.errors.line("Lab store: not pushed (\(reason)). The session is kept here; 'nfcbench sync' pushes it later.")
        case .synced(let report, let location):
            warnIfShared(report, station: station, context)
            warnIfDamaged(report, context)
            warnIfSetAside(report, context)
            if let error = report.error {
                context.errors.line(
                    "Lab store: \(report.pushed.count) pushed, \(report.pending) not (\(error)). They are kept here; "
                        + "'nfcbench sync' pushes them later.")
            } else if !report.pushed.isEmpty {
                context.errors.line("Lab store: pushed \(report.pushed.joined(separator: ", ")) to \(location).")
            }
        }
    }

    /// Names the sessions a sync could not push because they are damaged.
    static func warnIfDamaged(_ report: LabSync.Report, _ context: CommandContext) {
        guard !report.damaged.isEmpty else { return }
        context.errors.line("Warning: \(report.damaged.count) damaged session(s) not pushed; the rest were:")
        for session in report.damaged { context.errors.line("  \(TerminalSafeText.neutralise(session.description))") }
        context.errors.line(
            "Hint: Mend the row with sqlite3 (nfcbench show ID names the bad value); until then each sync names it again.")
    }

    /// Names the sessions the lab store refused this time, each with the store's reason.
    static func warnIfSetAside(_ report: LabSync.Report, _ context: CommandContext) {
        guard !report.setAside.isEmpty else { return }
        context.errors.line(
            "Warning: the lab store refused \(report.setAside.count) session(s), set aside here; every other session was pushed:")
        for refused in report.setAside {
            context.errors.line("  \(refused.id): \(TerminalSafeText.neutralise(refused.reason))")
        }
    }

    /// Says so when another machine pushed as this station lately: the lab cannot tell two
    /// benches' sessions apart under one name, nor which reader (and reach) took them.
    static func warnIfShared(_ report: LabSync.Report, station: String, _ context: CommandContext) {
        guard !report.sharedWith.isEmpty else { return }
        context.errors.line(
            "Warning: station \(station) also received sessions from "
                + report.sharedWith.map(\.description).joined(separator: ", ") + " in the last 30 days."
                + " Two benches under one station name are pooled as one bench; give each its own --station"
                + " (NFCBENCH_STATION or lab.conf) and register it (docs/lab-store.md, \"Add a bench\").")
    }
}
