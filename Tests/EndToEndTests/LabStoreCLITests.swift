import Foundation
import Glibc
import NFCBenchRecords
import NFCBenchStorePostgres
import NFCBenchStoreSQLite
import NFCLabTestSupport
import NFCPostgres
import NFCTestSupport
import Testing

/// Several benches, one lab store, through the built binary and the private PostgreSQL.
@Suite(
    "Lab store through nfcbench",
    .enabled(if: LabStoreServer.isAvailable, "needs the private PostgreSQL: run scripts/test.sh"))
struct LabStoreCLITests {
    let scratch = try! TemporaryDirectory()

    /// Lines of a CSV without its header, sorted: exports of the same sessions list the
    /// same rows, though a lab store pages through several stations at once.
    func rows(_ csv: String) -> [String] {
        Array(csv.components(separatedBy: "\r\n").dropFirst().filter { !$0.isEmpty }).sorted()
    }

    /// Three benches, each a process on its own virtual bench (the emulated PN532 through
    /// the real libnfc), run a session at once and push it when it ends; the lab store
    /// then lists all three, refine pools them, and its exports equal the benches' own.
    @Test func benchesRunAtOnceAndTheLabStorePoolsThem() async throws {
        let stations = ["bench-1", "bench-2", "bench-3"]
        let lab = try await LabFixture(stations: stations)
        let databases = stations.map { _ in scratch.database() }
        let benches = try stations.map { _ in try TestBench(antenna: (0.1, 0.36, 0.8, 0.38)) }
        try await withThrowingTaskGroup(of: BuiltBinary.Result.self) { group in
            for (i, station) in stations.enumerated() {
                let arguments = [
                    "run", "--model", "SM-S921B", "--reader", benches[i].spec, "--positioner", "sim", "--sim-bench",
                    benches[i].directory, "--auto", "--tap-timeout", "0.5", "--db", databases[i], "--station", station,
                    "--lab-store", lab.benches[station]!, "--no-report", "--json",
                ]
                group.addTask { try await BuiltBinary.run(arguments) }
            }
            for try await r in group {
                #expect(r.status == 0, "\(r.stderr)")
                #expect(r.stderr.contains("Lab store: pushed bench-"), "\(r.stderr)")
            }
        }
        let listed =
            try jsonArray(try await BuiltBinary.run(["sessions", "--store", lab.reader, "--json"]).stdout)
        #expect(Set(listed.compactMap { $0["station"] as? String }) == Set(stations))

        // refine over the lab store pools every bench (virtual benches are simulated evidence).
        let refine = try await BuiltBinary.run([
            "refine", "--store", lab.reader, "--model", "SM-S921B", "--include-simulated", "--json",
        ])
        #expect(refine.status == 0, "\(refine.stderr)")
        let refined = try jsonObject(refine.stdout)
        let entries = try #require(refined["entries"] as? [[String: Any]])
        #expect((entries.first?["sessionIds"] as? [String])?.count == 3, "\(refine.stdout)")

        // The lab's exports hold exactly the rows of the benches' own.
        for format in [["export", "--all"], ["report", "--all", "--include-simulated", "--format", "csv-sessions"]] {
            let fromLab = try await BuiltBinary.run(format + ["--store", lab.reader])
            #expect(fromLab.status == 0, "\(fromLab.stderr)")
            var local: [String] = []
            for db in databases {
                let r = try await BuiltBinary.run(format + ["--db", db])
                #expect(r.status == 0, "\(r.stderr)")
                local += rows(r.stdout)
            }
            #expect(rows(fromLab.stdout) == local.sorted(), "\(format[0])")
            #expect(fromLab.stdout.hasPrefix(try await BuiltBinary.run(format + ["--db", databases[0]]).stdout.prefix(60)))
        }
    }

    /// `kill -9` of `nfcbench sync` at several points of a long push: the lab store never
    /// holds a partial session, and the next sync completes it with exactly one copy each.
    @Test func killedSyncsLeaveWholeSessionsOnly() async throws {
        let lab = try await LabFixture(stations: ["bench-k"])
        let db = scratch.database()
        let local = try await SQLiteBenchStore.open(path: db)
        let count = 400
        for n in 0..<count {
            _ = try await LabFixture.session(
                String(format: "S-20261130-%06d-k%03d", n, n % 1000), station: "bench-k", in: local, taps: 15,
                start: Date(timeIntervalSince1970: 1_790_000_000 + Double(n) * 100))
        }
        let watcher = try PostgresConnection(lab.admin)
        func inLab() throws -> Int { Int(try watcher.execute("SELECT count(*) FROM lab_session").integer(0, 0) ?? 0) }
        let sync = ["sync", "--db", db, "--lab-store", lab.benches["bench-k"]!, "--station", "bench-k"]
        for target in [1, 60, 150, 260] {
            let process = try BuiltBinary.start(sync)
            let deadline = Date().addingTimeInterval(30)
            while try inLab() < target && Date() < deadline && process.isRunning {
                try await Task.sleep(for: .milliseconds(2))
            }
            kill(process.processIdentifier, SIGKILL)
            await ChildProcess.exit(of: process)
            // Whatever the kill interrupted, every session in the lab store is whole.
            let partial = try watcher.execute(
                """
                SELECT s.id FROM lab_session s LEFT JOIN lab_tap t ON t.station = s.station AND t.session_id = s.id
                GROUP BY s.id HAVING count(t.step) <> 15
                """)
            #expect(partial.count == 0, "partial sessions after a kill at \(target): \(partial.rows)")
            #expect(try inLab() < count, "the sync finished before the kill at \(target); make the push longer")
        }
        let finished = try await BuiltBinary.run(sync + ["--json"])
        #expect(finished.status == 0, "\(finished.stderr)")
        #expect(try inLab() == count)
        #expect(try watcher.execute("SELECT count(*) FROM lab_tap").integer(0, 0) == Int64(count * 15))
        let again = try jsonObject(try await BuiltBinary.run(sync + ["--json"]).stdout)
        #expect((again["pushed"] as? [Any])?.isEmpty == true)
    }

    /// The lab store down, then its connection killed in the middle of a push: sync says
    /// so with exit 75 and what is still pending, keeps everything, and succeeds later.
    @Test func aStoreDownOrLostMidPushFailsCleanlyAndRecovers() async throws {
        let lab = try await LabFixture(stations: ["bench-d"])
        let db = scratch.database()
        let local = try await SQLiteBenchStore.open(path: db)
        for n in 0..<600 {
            _ = try await LabFixture.session(
                String(format: "S-20261130-%06d-d%03d", n, n % 1000), station: "bench-d", in: local, taps: 15,
                start: Date(timeIntervalSince1970: 1_790_000_000 + Double(n) * 100))
        }
        let url = lab.benches["bench-d"]!
        let down = try await BuiltBinary.run([
            "sync", "--db", db, "--station", "bench-d", "--lab-store", url.replacingOccurrences(of: "port=", with: "port=1"),
        ])
        #expect(down.status == 75, "\(down.stderr)")
        let password = try #require(url.split(separator: " ").first { $0.hasPrefix("password=") }?.dropFirst(9))
        #expect(down.stderr.contains("cannot reach the lab store") && !down.stderr.contains(password), "\(down.stderr)")

        let process = try BuiltBinary.start(["sync", "--db", db, "--station", "bench-d", "--lab-store", url])
        let admin = try PostgresConnection(lab.admin)
        let deadline = Date().addingTimeInterval(30)
        while try admin.execute("SELECT count(*) FROM lab_session").integer(0, 0) ?? 0 < 50, Date() < deadline {
            try await Task.sleep(for: .milliseconds(2))
        }
        try admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND application_name = 'nfcbench'"
                + " AND pid <> pg_backend_pid()",
            [.text(lab.database)])
        let stderr = String(decoding: await ChildProcess.drain(process.standardError as! Pipe), as: UTF8.self)
        await ChildProcess.exit(of: process)
        #expect(process.terminationStatus == 75, "\(stderr)")
        #expect(stderr.contains("still to push") && stderr.contains("run 'nfcbench sync' again"), "\(stderr)")
        // A long push says how far it has got (a first sync pushes a bench's whole history).
        #expect(stderr.contains("Pushing 600 sessions to r_") && stderr.contains("@127.0.0.1:"), "\(stderr)")
        let retried = try await BuiltBinary.run(["sync", "--db", db, "--station", "bench-d", "--lab-store", url])
        #expect(retried.status == 0, "\(retried.stderr)")
        #expect(retried.stderr.contains("Pushing ") && !retried.stderr.contains("Pushing 600 "), "\(retried.stderr)")
        #expect(
            try admin.execute("SELECT count(*), sum(n) FROM (SELECT count(*) AS n FROM lab_tap GROUP BY session_id) t").rows[0]
                == ["600", "9000"])
    }

    /// `doctor` with a lab store: reachable, station registered, and what is pending.
    @Test func doctorChecksTheLabStore() async throws {
        let lab = try await LabFixture(stations: ["bench-x"])
        let db = scratch.database()
        let local = try await SQLiteBenchStore.open(path: db)
        _ = try await LabFixture.session("S-20261130-120000-xxxx", station: "bench-x", in: local)
        func checks(_ station: String, machine: String = "bench-pc-x") async throws -> [String: String] {
            let r = try await BuiltBinary.run(
                ["doctor", "--db", db, "--lab-store", lab.benches["bench-x"]!, "--station", station, "--json"],
                environment: ["NFCBENCH_MACHINE": machine])
            let o = try jsonObject(r.stdout)
            var verdicts: [String: String] = [:]
            for c in o["checks"] as! [[String: Any]] { verdicts[c["id"] as! String] = c["verdict"] as? String }
            return verdicts
        }
        let fine = try await checks("bench-x")
        #expect(fine["lab-store"] == "OK" && fine["lab-station"] == "OK" && fine["lab-sync"] == "WARN", "\(fine)")
        #expect(fine["lab-machines"] == "OK", "\(fine)")
        // The definer functions' search path and the station's TEMPORARY right (issue 49, L1).
        #expect(fine["lab-definers"] == "OK", "\(fine)")
        // Another machine pushes as bench-x (a second bench given the same name): sync and
        // doctor on this one both say so.
        let other = try await BuiltBinary.run(
            ["sync", "--db", db, "--lab-store", lab.benches["bench-x"]!, "--station", "bench-x"],
            environment: ["NFCBENCH_MACHINE": "bench-pc-y"])
        #expect(other.status == 0 && !other.stderr.contains("Warning"), "\(other.stderr)")
        let here = try await BuiltBinary.run(
            ["sync", "--db", db, "--lab-store", lab.benches["bench-x"]!, "--station", "bench-x"],
            environment: ["NFCBENCH_MACHINE": "bench-pc-x"])
        #expect(
            here.status == 0 && here.stderr.contains("station bench-x also received sessions from bench-pc-y"), "\(here.stderr)")
        #expect(try await checks("bench-x")["lab-machines"] == "WARN")
        #expect(try await checks("bench-y")["lab-station"] == "FAIL")
        let migrated = try await BuiltBinary.run(["labstore", "migrate", "--store", lab.admin])
        #expect(migrated.status == 0 && migrated.stdout.contains("015-bench-conditions (15 applied)"), "\(migrated.stdout)")
    }

    /// lab.conf names the station and the lab store for every command; a malformed line
    /// is an error naming the file and line.
    @Test func labConfNamesTheStationAndTheStore() async throws {
        let lab = try await LabFixture(stations: ["bench-conf"])
        let db = scratch.database()
        let local = try await SQLiteBenchStore.open(path: db)
        _ = try await LabFixture.session("S-20261130-130000-conf", station: nil, in: local)
        let config = scratch.file("config")
        try FileManager.default.createDirectory(atPath: config + "/nfcbench", withIntermediateDirectories: true)
        try "# this bench\nstation = bench-conf\nlab-store = \(lab.benches["bench-conf"]!)\n".write(
            toFile: config + "/nfcbench/lab.conf", atomically: true, encoding: .utf8)
        let environment = ["XDG_CONFIG_HOME": config, "NFCBENCH_STATION": "", "NFCBENCH_LAB_STORE": ""]
        let pushed = try await BuiltBinary.run(["sync", "--db", db, "--json"], environment: environment)
        #expect(pushed.status == 0, "\(pushed.stderr)")
        // A session from before stations existed goes under this bench's station.
        #expect((try jsonObject(pushed.stdout))["pushed"] as? [String] == ["bench-conf/S-20261130-130000-conf"])
        try "station bench-conf\n".write(toFile: config + "/nfcbench/lab.conf", atomically: true, encoding: .utf8)
        let broken = try await BuiltBinary.run(["sync", "--db", db], environment: environment)
        #expect(broken.status == 1 && broken.stderr.contains("lab.conf, line 1"), "\(broken.stderr)")
    }

    /// A reading command given both stores is a usage error. The lab store is only a
    /// `BenchReading` (no write can even be asked of it); the one amending command, `void`,
    /// takes no lab store.
    @Test func readingOptionsAndRefusedWrites() async throws {
        let lab = try await LabFixture(stations: [])
        let both = try await BuiltBinary.run(["sessions", "--db", scratch.database(), "--store", lab.reader])
        #expect(both.status == 64 && both.stderr.contains("not both"), "\(both.stderr)")
        let missing = try await BuiltBinary.run(["sync", "--db", scratch.database()], environment: ["NFCBENCH_LAB_STORE": ""])
        #expect(missing.status != 0)
        let voided = try await BuiltBinary.run(["void", "S-x", "--reason", "r", "--store", lab.reader])
        #expect(voided.status == 64 && voided.stderr.contains("--store"), "\(voided.stderr)")
    }
}
