import NFCBenchRecords

/// Pushing a bench's sessions to the lab store: after a run, and on `sync`. The bench
/// database already holds everything, so a lab store that is down only postpones the push.
public enum LabPublication {
    /// What a push after a run came to. It never changes the run's outcome.
    public enum AfterRun: Sendable {
        /// The lab store could not be opened; the session waits for `sync`.
        case notReached(String)
        case synced(LabSync.Report, location: String)
    }

    public static func afterRun(
        _ local: any LabSyncSource, to url: String, station: String, machine: String, timeoutSeconds: Int
    ) async -> AfterRun {
        let store: any LabStoreAccess
        do { store = try await BenchStores.openLab(url, timeoutSeconds: timeoutSeconds) } catch {
            return .notReached(error.reason)
        }
        return .synced(await LabSync.run(from: local, to: store, station: station, machine: machine), location: store.location)
    }

    /// `sync`: everything pending from the bench database at `path`, after the operator's
    /// `decisions`.
    public static func sync(
        databaseAt path: String, to url: String, station: String, machine: String, timeoutSeconds: Int,
        decisions: SyncDecisions = SyncDecisions(),
        progress: @escaping @Sendable (_ done: Int, _ total: Int, _ destination: String) -> Void
    ) async throws(StoreOpeningFailure) -> (report: LabSync.Report, location: String) {
        // A damaged bench file is named as such before the lab store is asked anything.
        let local = try await BenchStores.openExistingChecked(path)
        let store = try await BenchStores.openLab(url, timeoutSeconds: timeoutSeconds)
        let destination = store.location
        let report = await LabSync.run(
            from: local, to: store, station: station, machine: machine, decisions: decisions,
            progress: { done, total in progress(done, total, destination) })
        return (report, destination)
    }
}

extension StoreOpeningFailure {
    /// The store's own words for what went wrong.
    public var reason: String {
        switch self {
        case .missing(let path): "no session database at \(path)"
        case .damaged(let path, let what): "the session database \(path) is damaged (\(what))"
        case .unusable(_, let reason, _), .labUnreachable(let reason, _, _), .labNotReady(let reason): reason
        }
    }
}
