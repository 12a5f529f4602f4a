// Lab store benchmark (bench/labstore runs it against a private PostgreSQL):
//   sync BENCHES SESSIONS TAPS  - BENCHES benches, each with SESSIONS sessions of TAPS taps in
//                                 its own SQLite, push at once (one LabSync each, its own
//                                 connection); prints sessions/s, taps/s and per-session
//                                 latency against the rate the benches produce taps.
//   push DB                     - pushes one bench database (bench/labstore fills it with
//                                 1,000,000 taps) into a fresh lab store, prints the time and
//                                 the reader's connection string for the CLI comparison.
//   stall NFCBENCH SESSIONS     - the time from a stalled lab store to `nfcbench sync`'s exit
//                                 75, with the default bound (30 s): a lock held by another
//                                 session, then the sync's own backend stopped (SIGSTOP).
import Foundation
import Glibc
import NFCBenchRecords
import NFCBenchStorePostgres
import NFCBenchStoreSQLite
import NFCBenchUseCases
import NFCLabTestSupport
import NFCPostgres
import NFCReaders

func percentile(_ sorted: [Double], _ p: Double) -> Double { sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] }

let args = CommandLine.arguments
let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("nfcb-labstore-\(UUID().uuidString.prefix(8))")
try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: scratch) }
func database() -> String { scratch.appendingPathComponent("bench-\(UUID().uuidString.prefix(8)).sqlite").path }

switch args.dropFirst().first {
case "sync":
    let benches = Int(args[2])!, sessions = Int(args[3])!, taps = Int(args[4])!
    let stations = (1...benches).map { "bench-\($0)" }
    let lab = try await LabFixture(stations: stations)
    var locals: [String: SQLiteBenchStore] = [:]
    for station in stations {
        let store = try await SQLiteBenchStore.open(path: database())
        for n in 0..<sessions {
            _ = try await LabFixture.session(
                String(format: "S-20261201-%06d-%@", n, String(station.suffix(1))), station: station, in: store, taps: taps,
                start: Date(timeIntervalSince1970: 1_790_000_000 + Double(n) * 60))
        }
        locals[station] = store
    }
    let clock = ContinuousClock()
    let started = clock.now
    let reports = try await withThrowingTaskGroup(of: LabSync.Report.self) { group in
        for station in stations {
            let local = locals[station]!, url = lab.benches[station]!
            group.addTask { await LabSync.run(from: local, to: try await PostgresLabStore.open(url), station: station) }
        }
        var all: [LabSync.Report] = []
        for try await r in group { all.append(r) }
        return all
    }
    let wall = (clock.now - started).seconds
    if let failed = reports.first(where: { !$0.succeeded }) { fatalError("sync failed: \(failed.error!)") }
    let pushed = reports.map(\.pushed.count).reduce(0, +), tapsPushed = reports.map(\.taps).reduce(0, +)
    let latencies = reports.flatMap(\.latencies).sorted()
    let demand = Double(benches)  // taps per second: each bench taps once a second
    print(
        "\(benches) benches x \(sessions) sessions x \(taps) taps, pushed at once: \(pushed) sessions in \(String(format: "%.2f", wall)) s"
    )
    print(String(format: "  %.0f sessions/s, %.0f taps/s", Double(pushed) / wall, Double(tapsPushed) / wall))
    print(
        String(
            format: "  per-session push latency p50 %.1f ms, p99 %.1f ms", percentile(latencies, 0.5) * 1000,
            percentile(latencies, 0.99) * 1000))
    print(
        String(
            format: "  headroom: %.0fx the %.0f taps/s that %d benches tapping once a second produce (target >= 100x)",
            Double(tapsPushed) / wall / demand, demand, benches))
case "push":
    let lab = try await LabFixture(stations: ["bench-big"])
    let local = try await SQLiteBenchStore.open(path: args[2])
    let clock = ContinuousClock()
    let started = clock.now
    let report = await LabSync.run(
        from: local, to: try await PostgresLabStore.open(lab.benches["bench-big"]!), station: "bench-big")
    if let error = report.error { fatalError("push failed: \(error)") }
    FileHandle.standardError.write(
        Data(
            String(
                format: "pushed %d sessions, %d taps in %.1f s\n", report.pushed.count, report.taps,
                (clock.now - started).seconds
            ).utf8))
    print(lab.reader)
case "stall":
    let nfcbench = args[2], sessions = Int(args[3])!
    let lab = try await LabFixture(stations: ["bench-stall"])
    let db = database()
    let local = try await SQLiteBenchStore.open(path: db)
    for n in 0..<sessions {
        _ = try await LabFixture.session(
            String(format: "S-20261201-%06d-st", n), station: "bench-stall", in: local, taps: 15,
            start: Date(timeIntervalSince1970: 1_790_000_000 + Double(n) * 60))
    }
    func startSync() throws -> Process {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: nfcbench)
        p.arguments = ["sync", "--db", db, "--station", "bench-stall", "--lab-store", lab.benches["bench-stall"]!]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        return p
    }
    // 1. A lock another session holds (what a bench role could take before migration 005).
    let holder = try PostgresConnection(lab.admin)
    try holder.execute("BEGIN")
    try holder.execute("LOCK TABLE lab_session IN ACCESS EXCLUSIVE MODE")
    var started = ContinuousClock.now
    let locked = try startSync()
    locked.waitUntilExit()
    let lockTime = (ContinuousClock.now - started).seconds
    try holder.execute("ROLLBACK")
    print(
        String(
            format: "  lock held by another session: exit %d after %.1f s (target: 75 within 30 s)", locked.terminationStatus,
            lockTime))
    // 2. The sync's own server backend stopped mid-push.
    let watcher = try PostgresConnection(lab.admin)
    let stopped = try startSync()
    var backend: Int32?
    while backend == nil && stopped.isRunning {
        let rows = try watcher.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'nfcbench' "
                + "AND usename <> current_user")
        if rows.count > 0, let pid = try rows.integer(0, 0) { backend = Int32(pid) } else { usleep(10_000) }
    }
    guard let backend else { fatalError("the sync finished before its backend was found; give more sessions") }
    kill(backend, SIGSTOP)
    started = ContinuousClock.now
    stopped.waitUntilExit()
    let stopTime = (ContinuousClock.now - started).seconds
    kill(backend, SIGCONT)
    print(
        String(
            format: "  backend stopped mid-push: exit %d after %.1f s (target: 75 within 30 s)", stopped.terminationStatus,
            stopTime))
default:
    FileHandle.standardError.write(
        Data("usage: LabStoreBenchmark sync BENCHES SESSIONS TAPS | push DB | stall NFCBENCH SESSIONS\n".utf8))
    exit(64)
}
