import Foundation
import Glibc
import NFCBenchStoreSQLite
import NFCLabTestSupport
import NFCPostgres
import NFCTestSupport
import Testing

/// One bench cannot stall the lab, and a silent lab store cannot hang a bench: a lock held
/// by someone else and a server backend stopped with SIGSTOP both end a sync with exit 75
/// within the bound (`NFCBENCH_LAB_TIMEOUT`), and a bad connection string never prints its
/// password.
@Suite(
    "Lab store: time limits and secrets", .serialized,
    .enabled(if: LabStoreServer.isAvailable, "needs the private PostgreSQL: run scripts/test.sh"))
struct LabStoreHostageTests {
    let scratch = try! TemporaryDirectory("hostage")

    func benchWithSessions(_ lab: LabFixture, station: String, count: Int) async throws -> String {
        let db = scratch.database()
        let local = try await SQLiteBenchStore.open(path: db)
        for i in 0..<count {
            _ = try await LabFixture.session(
                String(format: "S-%05d", i), station: station, in: local, taps: 4,
                start: Date(timeIntervalSince1970: 1_790_000_000 + Double(i)))
        }
        return db
    }

    @Test func aLockHeldByAnotherSessionEndsTheSyncWithExit75InTime() async throws {
        let lab = try await LabFixture(stations: ["bench-l"])
        let db = try await benchWithSessions(lab, station: "bench-l", count: 3)
        // The stall the issue reproduced from a bench role: a table locked in a transaction left open.
        let holder = try PostgresConnection(lab.admin)
        try holder.execute("BEGIN")
        try holder.execute("LOCK TABLE lab_session IN ACCESS EXCLUSIVE MODE")
        defer { _ = try? holder.execute("ROLLBACK") }
        let started = ContinuousClock.now
        let sync = try await BuiltBinary.run(
            ["sync", "--db", db, "--station", "bench-l", "--lab-store", lab.benches["bench-l"]!],
            environment: ["NFCBENCH_LAB_TIMEOUT": "3"])
        let took = ContinuousClock.now - started
        #expect(sync.status == 75, "\(sync.status) \(sync.stderr)")
        #expect(sync.stderr.contains("Sync stopped") && sync.stderr.contains("run 'nfcbench sync' again"), "\(sync.stderr)")
        #expect(took < .seconds(15), "took \(took)")
        // A reader waits no longer either.
        let listed = try await BuiltBinary.run(
            ["sessions", "--store", lab.reader], environment: ["NFCBENCH_LAB_TIMEOUT": "3"])
        #expect(listed.status == 75 && listed.stderr.contains("try again later"), "\(listed.status) \(listed.stderr)")
    }

    @Test func aStoppedServerBackendEndsTheSyncWithExit75InTime() async throws {
        let lab = try await LabFixture(stations: ["bench-s"])
        let db = try await benchWithSessions(lab, station: "bench-s", count: 150)
        let watcher = try PostgresConnection(lab.admin)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: BuiltBinary.path)
        process.arguments = ["sync", "--db", db, "--station", "bench-s", "--lab-store", lab.benches["bench-s"]!]
        var environment = ProcessInfo.processInfo.environment
        environment["NFCBENCH_LAB_TIMEOUT"] = "3"
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        // The sync's own backend, found as soon as it has connected, is stopped mid-push. A
        // backend still starting up shows in pg_stat_activity with no state yet: stopped
        // there, it stalls the connection itself, which the connection string's own
        // connect_timeout bounds (30 s in the test lab's strings), not NFCBENCH_LAB_TIMEOUT.
        // That stop once landed there (the sync took 30 s); this test is about the statements.
        var stopped: Int32?
        defer { if let stopped { kill(stopped, SIGCONT) } }
        let looking = ContinuousClock.now
        while stopped == nil && ContinuousClock.now - looking < .seconds(20) && process.isRunning {
            let rows = try watcher.execute(
                "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'nfcbench' "
                    + "AND pid <> pg_backend_pid() AND usename <> current_user AND state IS NOT NULL")
            if rows.count > 0, let pid = try rows.integer(0, 0) {
                stopped = Int32(pid)
                #expect(kill(Int32(pid), SIGSTOP) == 0)
            } else {
                try await Task.sleep(for: .milliseconds(20))
            }
        }
        let stoppedAt = ContinuousClock.now
        let backend = try #require(stopped, "the sync finished before its backend was found")
        while process.isRunning && ContinuousClock.now - stoppedAt < .seconds(30) { try await Task.sleep(for: .milliseconds(50)) }
        let took = ContinuousClock.now - stoppedAt
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        kill(backend, SIGCONT)
        stopped = nil
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 75, "\(process.terminationStatus) \(stderr)")
        #expect(stderr.contains("no answer within 3 s"), "\(stderr)")
        #expect(took < .seconds(10), "took \(took)")
        // With the backend running again, the next sync pushes the rest: nothing was lost.
        let again = try await BuiltBinary.run([
            "sync", "--db", db, "--station", "bench-s", "--lab-store", lab.benches["bench-s"]!, "--json",
        ])
        #expect(again.status == 0, "\(again.stderr)")
        let count = try watcher.execute("SELECT count(*) FROM lab_session WHERE station = 'bench-s'")
        #expect(try count.integer(0, 0) == 150)
    }
}

/// Every message about a connection passes one redactor (`ConnectionString.redact`):
/// libpq quotes the token it cannot parse, and a malformed URL is echoed whole.
@Suite("Lab store connection strings")
struct ConnectionSecretTests {
    let scratch = try! TemporaryDirectory("secret")

    @Test(arguments: [
        ("postgresql://bencha:PW%X@127.0.0.1:1/lab", "PW%X"),
        ("postgresql://bencha:s3cr3tpw@[::1:5432/lab", "s3cr3tpw"),
        ("host=127.0.0.1 port=1 user=bencha password='hunter2 x' dbname=lab sslmode=bogus", "hunter2"),
    ])
    func aMalformedConnectionStringNeverPrintsItsPassword(url: String, password: String) async throws {
        let db = scratch.database()
        _ = try await LabFixture.session("S-1", station: "bench-p", in: try await SQLiteBenchStore.open(path: db))
        for arguments in [
            ["sessions", "--store", url], ["sync", "--lab-store", url, "--json", "--db", db],
            ["doctor", "--json", "--lab-store", url],
        ] {
            let r = try await BuiltBinary.run(arguments)
            #expect(r.status != 0 || arguments[0] == "doctor", "\(arguments[0]): \(r.stderr)")
            #expect(!(r.stdout + r.stderr).contains(password), "\(arguments[0]) printed the password: \(r.stdout) \(r.stderr)")
        }
    }
}
