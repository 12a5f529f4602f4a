import Foundation
import NFCBenchRecords

/// Pushes a bench's changed sessions to the lab store, oldest first, one transaction per
/// session, and records each receipt in the bench's database only after the lab store
/// committed. A kill or a lost link at any moment leaves every session either at its old
/// revision or its new one in the lab store, and the next sync pushes what is left.
public enum LabSync {
    public struct Report: Sendable {
        public var pushed: [String] = []
        public var taps = 0
        public var alreadyCurrent = 0
        /// Seconds each pushed session took, snapshot to receipt.
        public var latencies: [Double] = []
        /// Sessions still to push when the sync stopped on an error.
        public var pending = 0
        /// Other machines that pushed as this station in the last 30 days: two benches
        /// under one station name, whose sessions the lab cannot tell apart.
        public var sharedWith: [StationMachine] = []
        /// Sessions not pushed because their row or taps do not decode: they stay pending
        /// (and are named on every sync) until voided or mended; the rest are pushed.
        public var damaged: [DamagedSession] = []
        /// Sessions the lab store refused this time (a value its checks would not take,
        /// another session under the id), with its reason: set aside, the rest pushed.
        public var setAside: [RefusedSync] = []
        /// Sessions the operator keeps off this lab store (`sync --hold`), named at every sync.
        public var held: [HeldSync] = []
        /// What this sync's `--hold` and `--release` did.
        public var newlyHeld: [String] = []
        public var released: [String] = []
        public var error: Error?

        /// Nothing stopped the sync and nothing was refused.
        public var succeeded: Bool { error == nil && setAside.isEmpty }
    }

    /// Pushes every pending session. Stops at the first failure, reporting it with what
    /// is still pending: the bench's database keeps everything, and a later sync resumes.
    /// `progress` hears (sessions handled, sessions pending): (0, n) before the first push,
    /// then after each. `machine` names the computer pushing (`MachineName.current`, NFCHost).
    /// `decisions` (`--hold`, `--release`) are applied once the lab store is known, before
    /// anything is pushed; one that cannot be carried out stops the sync with nothing pushed.
    public static func run(
        from source: any LabSyncSource, to store: any LabSyncDestination, station: String, machine: String? = nil,
        decisions: SyncDecisions = SyncDecisions(), now: @Sendable () -> Date = Date.init,
        progress: @Sendable (_ done: Int, _ total: Int) -> Void = { _, _ in }
    ) async -> Report {
        var report = Report()
        let pending: [PendingSync]
        let lab: String
        do {
            try await store.checkStation(station)
            if let machine {
                try await store.recordMachine(machine, station: station)
                report.sharedWith = try await store.otherMachines(of: station, than: machine)
            }
            lab = try await store.identity()
            try await apply(decisions, to: source, lab: lab, at: now(), in: &report)
            pending = try await source.pendingSync(lab: lab)
        } catch {
            report.error = error
            return report
        }
        progress(0, pending.count)
        for (index, item) in pending.enumerated() {
            let started = ContinuousClock.now
            do {
                let snapshot: SyncSnapshot?
                do { snapshot = try await source.syncSnapshot(item.id) } catch let problem as RecordDecodingError {
                    report.damaged.append(DamagedSession(reference: item.id, problem: problem, isVoid: false))
                    progress(index + 1, pending.count)
                    continue
                }
                guard let snapshot else {
                    progress(index + 1, pending.count)
                    continue
                }
                switch try await store.push(snapshot, station: station) {
                case .stored:
                    let pushedAs = SessionReference(station: snapshot.session.station ?? station, id: snapshot.session.id)
                    report.pushed.append(pushedAs.description)
                    report.taps += snapshot.taps.count
                case .alreadyCurrent: report.alreadyCurrent += 1
                }
                try await source.markSynced(item.id, lab: lab, revision: snapshot.revision, at: now())
                report.latencies.append((ContinuousClock.now - started).seconds)
                progress(index + 1, pending.count)
            } catch let refusal as any SessionRefusal where refusal.refusesOnlyThisSession {
                // This session only: noted with its reason, offered again at the next sync,
                // and the rest go on (one over-long field used to block a lab's sync for good).
                let reason = refusal.description
                report.setAside.append(RefusedSync(id: item.id, revision: item.revision, reason: reason))
                do { try await source.markRefused(item.id, lab: lab, revision: item.revision, reason: reason, at: now()) } catch {
                    report.error = error
                    report.pending = pending.count - index
                    return report
                }
                progress(index + 1, pending.count)
            } catch {
                report.error = error
                report.pending = pending.count - index
                return report
            }
        }
        do { report.held = try await source.heldSync(lab: lab) } catch { report.error = error }
        return report
    }

    private static func apply(
        _ decisions: SyncDecisions, to source: any LabSyncSource, lab: String, at: Date, in report: inout Report
    ) async throws {
        for id in decisions.release {
            guard try await source.release(id, lab: lab) else { throw SyncDecisionRefusal.notHeld(id) }
            report.released.append(id)
        }
        for (id, reason) in decisions.hold {
            guard try await source.hold(id, lab: lab, reason: reason, at: at) else { throw SyncDecisionRefusal.notRefused(id) }
            report.newlyHeld.append(id)
        }
    }
}

/// The operator's decisions a sync carries out before it pushes: sessions to keep off the
/// lab store for good (each with the reason, for the record), and holds to end.
public struct SyncDecisions: Sendable {
    public var hold: [(id: String, reason: String)]
    public var release: [String]

    public init(hold: [(id: String, reason: String)] = [], release: [String] = []) {
        self.hold = hold
        self.release = release
    }
}

/// A `--hold` or `--release` that names the wrong session: nothing was pushed.
public enum SyncDecisionRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    /// Only a session this lab store refused can be held back from it.
    case notRefused(String)
    case notHeld(String)

    public var description: String {
        switch self {
        case .notRefused(let id):
            "session \(id) is not one this lab store refused, so it cannot be held back from it (only a refused session can)"
        case .notHeld(let id): "session \(id) is not held back from this lab store"
        }
    }
}
