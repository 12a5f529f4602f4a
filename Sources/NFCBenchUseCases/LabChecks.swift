import Foundation
import NFCBench
import NFCBenchRecords
import NFCBenchStorePostgres
import NFCBenchStoreSQLite
import NFCPostgres

/// `doctor`'s lab store checks, when one is configured: reachable with the schema this
/// nfcbench needs, the station registered to the role, the role allowed to push, and
/// what this bench has not pushed yet.
public struct LabChecks: DoctorCheckProvider {
    public let url: String
    public let station: String
    public let machine: String
    public let databasePath: String
    public let timeoutSeconds: Int

    public init(url: String, station: String, machine: String, databasePath: String, timeoutSeconds: Int) {
        self.url = url
        self.station = station
        self.machine = machine
        self.databasePath = databasePath
        self.timeoutSeconds = timeoutSeconds
    }

    public func checks() async -> [DoctorCheck] {
        let store: PostgresLabStore
        do { store = try await PostgresLabStore.open(url, timeoutSeconds: timeoutSeconds) } catch {
            let fix =
                [.connection, .loginRefused].contains((error as? PostgresError)?.kind)
                ? "check the connection string (host, port, database, user), ~/.pgpass and that the lab store runs"
                : "see docs/lab-store.md"
            return [DoctorCheck(id: "lab-store", verdict: .fail, detail: "\(error)", fix: fix)]
        }
        var checks: [DoctorCheck] = []
        let migration = (try? await store.appliedMigrations().last) ?? "?"
        checks.append(
            DoctorCheck(id: "lab-store", verdict: .ok, detail: "\(store.location) answers, schema at migration \(migration)"))
        checks.append(Self.definerCheck(try? await store.definerFindings()))
        do {
            try await store.checkStation(station)
            if try await store.canPush() {
                checks.append(
                    DoctorCheck(
                        id: "lab-station", verdict: .ok, detail: "station \(station) may push as role \(await store.role)"))
            } else {
                checks.append(
                    DoctorCheck(
                        id: "lab-station", verdict: .fail, detail: "role \(await store.role) may only read the lab store",
                        fix: "give this bench a role in nfcbench_bench (docs/lab-store.md, \"Add a bench\")"))
            }
            if let others = try? await store.otherMachines(of: station, than: machine) {
                checks.append(
                    others.isEmpty
                        ? DoctorCheck(
                            id: "lab-machines", verdict: .ok, detail: "no machine but \(machine) pushed as \(station) in 30 days")
                        : DoctorCheck(
                            id: "lab-machines", verdict: .warn,
                            detail: "station \(station) also received sessions from "
                                + others.map(\.description).joined(separator: ", ")
                                + " in 30 days: the lab pools two benches as one",
                            fix: "give each bench its own station (--station, NFCBENCH_STATION or lab.conf) and register it"))
            }
        } catch {
            checks.append(
                DoctorCheck(
                    id: "lab-station", verdict: .fail, detail: "\(error)",
                    fix:
                        "INSERT INTO lab_station (name, role) VALUES ('\(station)', '\(await store.role)'), as the lab's administrator"
                ))
        }
        guard FileManager.default.fileExists(atPath: databasePath),
            let local = try? await SQLiteBenchStore.openForReading(path: databasePath),
            let lab = try? await store.identity(), let pending = try? await local.pendingSync(lab: lab)
        else { return checks }
        if let refused = try? await local.refusedSync(lab: lab), !refused.isEmpty {
            checks.append(
                DoctorCheck(
                    id: "lab-refused", verdict: .fail,
                    detail: "the lab store refused \(refused.count) session(s) of \(databasePath): "
                        + refused.map { "\($0.id) (\($0.reason))" }.joined(separator: "; "),
                    fix: "read each reason; ask the lab's administrator; 'nfcbench sync' offers them again, and "
                        + "'nfcbench sync --hold ID --reason TEXT' keeps one the lab will never take here by decision"))
        }
        if let held = try? await local.heldSync(lab: lab), !held.isEmpty {
            checks.append(
                DoctorCheck(
                    id: "lab-held", verdict: .ok,
                    detail: "\(held.count) session(s) of \(databasePath) held back from the lab store by decision: "
                        + held.map { "\($0.id) (\($0.reason); refused: \($0.refusal))" }.joined(separator: "; "),
                    fix: "'nfcbench sync --release ID' offers one again"))
        }
        checks.append(
            pending.isEmpty
                ? DoctorCheck(id: "lab-sync", verdict: .ok, detail: "every session of \(databasePath) is in the lab store")
                : DoctorCheck(
                    id: "lab-sync", verdict: .warn, detail: "\(pending.count) session(s) of \(databasePath) not pushed yet",
                    fix: "nfcbench sync"))
        return checks
    }

    /// Issue 49's L1 on a live store: a station's temporary tables never stand in for the lab's.
    public static func definerCheck(_ findings: [String]?) -> DoctorCheck {
        guard let findings else {
            return DoctorCheck(
                id: "lab-definers", verdict: .warn, detail: "could not read the push functions' settings",
                fix: "run 'nfcbench doctor' again; see docs/lab-store.md")
        }
        return findings.isEmpty
            ? DoctorCheck(
                id: "lab-definers", verdict: .ok,
                detail: "the push functions name the lab's tables and search temporary tables last; stations create none")
            : DoctorCheck(
                id: "lab-definers", verdict: .fail, detail: findings.joined(separator: "; "),
                fix: "as the database's owner, run 'nfcbench labstore migrate --store URL' (lab migration 012)")
    }
}
