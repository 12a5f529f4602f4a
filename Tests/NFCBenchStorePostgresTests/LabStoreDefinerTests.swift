import Foundation
import NFCBenchStorePostgres
import NFCBenchStoreSQLite
import NFCBenchUseCases
import NFCLabTestSupport
import NFCPostgres
import NFCTestSupport
import Testing

/// Issue 49, L1: a station forged another station's sessions through the push function,
/// which runs with the owner's rights, by putting its own `lab_station` in the function's
/// way. Each attempt here is made with the lab store's real functions and a station's own
/// role; bench-b's session must come through every one of them as bench-b pushed it.
@Suite(
    "Lab store definer functions (PostgreSQL)",
    .enabled(if: LabStoreServer.isAvailable, "needs the private PostgreSQL: run scripts/test.sh"))
struct LabStoreDefinerTests {
    let scratch = try! TemporaryDirectory()
    static let victim = "S-20261206-100000-l1l1"

    /// bench-b's session pushed, and bench-a's own connection.
    func labWithVictim() async throws -> (lab: LabFixture, attacker: PostgresConnection, attackerRole: String) {
        let lab = try await LabFixture(stations: ["bench-a", "bench-b"])
        let local = try await SQLiteBenchStore.open(path: scratch.database())
        _ = try await LabFixture.session(Self.victim, station: "bench-b", in: local)
        let storeB = try await PostgresLabStore.open(lab.benches["bench-b"]!)
        #expect(await LabSync.run(from: local, to: storeB, station: "bench-b").succeeded)
        let attacker = try PostgresConnection(lab.benches["bench-a"]!)
        return (lab, attacker, attacker.user)
    }

    /// The issue's forgery: bench-b's own row, its verdict rewritten and its revision moved
    /// on, pushed as bench-b with no taps.
    static let forgery = """
        SELECT nfcbench_push('bench-b',
            (SELECT to_jsonb(s) - 'synced_at'
                || jsonb_build_object('verdict', 'NO_FIELD', 'verdict_reason', 'FORGED', 'revision', s.revision + 1000)
             FROM public.lab_session s WHERE station = 'bench-b' AND id = '\(victim)'),
            '[]'::jsonb)
        """

    func expectUntouched(_ lab: LabFixture) async throws {
        let reader = try await PostgresLabStore.open(lab.reader)
        let stored = try #require(try await reader.session("bench-b/\(Self.victim)"))
        #expect(stored.verdict == .confirmed && stored.verdictReason == "fixture")
        #expect(try await reader.taps("bench-b/\(Self.victim)").count == 6)
    }

    /// A station's role may create no temporary table at all (migration 012).
    @Test func aStationMayCreateNoTemporaryTable() async throws {
        let (lab, attacker, _) = try await labWithVictim()
        do {
            try attacker.execute("CREATE TEMP TABLE lab_station (name text, role text)")
            Issue.record("a station created a temporary table")
        } catch { #expect(error.isPermissionDenied, "\(error)") }
        try await expectUntouched(lab)
    }

    /// Even where an administrator gave stations TEMPORARY again (or the database's owner
    /// could not take it), nothing a station creates stands in for the lab's own tables:
    /// a temporary table or view, a view in a schema of its own put first on its path, a
    /// temporary function or operator.
    @Test(arguments: [
        "CREATE TEMP TABLE lab_station (name text, role text); INSERT INTO lab_station VALUES ('bench-b', current_user)",
        "CREATE TEMP VIEW lab_station AS SELECT 'bench-b'::text AS name, current_user::name AS role",
        "CREATE SCHEMA mine; CREATE VIEW mine.lab_station AS SELECT 'bench-b'::text AS name, current_user::name AS role; SET search_path = mine, public",
        "CREATE FUNCTION pg_temp.session_user_of() RETURNS name LANGUAGE sql AS 'SELECT current_user'; CREATE TEMP TABLE lab_station AS SELECT 'bench-b'::text AS name, pg_temp.session_user_of() AS role",
        "CREATE SCHEMA mine; CREATE FUNCTION mine.always(name, name) RETURNS boolean LANGUAGE sql AS 'SELECT true'; CREATE OPERATOR mine.= (LEFTARG = name, RIGHTARG = name, FUNCTION = mine.always); SET search_path = mine, pg_catalog, public",
    ])
    func nothingAStationCreatesStandsInForTheLabsTables(setup: String) async throws {
        let (lab, attacker, role) = try await labWithVictim()
        try LabStoreServer.admin(lab.database, "GRANT TEMPORARY, CREATE ON DATABASE \(lab.database) TO \(role)")
        try attacker.executeScript(setup)
        do {
            try attacker.execute(Self.forgery)
            Issue.record("bench-a pushed as bench-b after: \(setup)")
        } catch { #expect(error.isPermissionDenied, "\(setup): \(error)") }
        // Nor can it note a machine under bench-b.
        do {
            try attacker.execute("SELECT nfcbench_record_machine('bench-b', 'forger')")
            Issue.record("bench-a noted a machine for bench-b after: \(setup)")
        } catch { #expect(error.isPermissionDenied, "\(setup): \(error)") }
        try await expectUntouched(lab)
    }

    /// `doctor`'s check: a migrated store passes; a function put back on the old path, or a
    /// station given TEMPORARY again, is named.
    @Test func doctorNamesAFunctionOnTheOldPathAndAStationThatMayCreateTemporaryTables() async throws {
        let lab = try await LabFixture(stations: ["bench-a"])
        let store = try await PostgresLabStore.open(lab.benches["bench-a"]!)
        #expect(try await store.definerFindings() == [])
        #expect(LabChecks.definerCheck(try await store.definerFindings()).verdict == .ok)
        let role = try PostgresConnection(lab.benches["bench-a"]!).user
        try LabStoreServer.admin(
            lab.database,
            "ALTER FUNCTION nfcbench_push(text, jsonb, jsonb) SET search_path = pg_catalog, public")
        try LabStoreServer.admin(lab.database, "GRANT TEMPORARY ON DATABASE \(lab.database) TO \(role)")
        let findings = try await store.definerFindings()
        #expect(findings.count == 2, "\(findings)")
        #expect(findings.contains { $0.contains("nfcbench_push(text,jsonb,jsonb)") && $0.contains("temporary tables first") })
        #expect(findings.contains { $0.contains("may create temporary tables") })
        let check = LabChecks.definerCheck(findings)
        #expect(check.verdict == .fail && check.fix?.contains("labstore migrate") == true)
    }
}
