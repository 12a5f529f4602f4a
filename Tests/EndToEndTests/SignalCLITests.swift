import Foundation
import NFCBenchStoreSQLite
import NFCTestSupport
import Testing

/// Issue 49: SIGTERM (what `timeout`, systemd and a lab's scripts send) ends a command
/// cleanly, as Ctrl-C does: a run in a tap window stops, saved and resumable, with exit
/// 130; a poll waiting for a target stops with 130; a read waiting on a lab store or a
/// catalog server that never answers stops at once, its connection closed.
@Suite("SIGTERM through the CLI")
struct SignalCLITests {
    let scratch = try! TemporaryDirectory("sigterm")

    /// Starts `arguments`, waits for `marker` on standard output, sends SIGTERM, and
    /// returns the exit status and what was printed.
    func terminate(_ arguments: [String], after marker: String) async throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: BuiltBinary.path)
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let watcher = OutputWatcher(out)
        #expect(await watcher.wait(for: marker, timeout: .seconds(60)), "\(watcher.output)")
        kill(process.processIdentifier, SIGTERM)
        if await !process.exits(within: 30) {
            kill(process.processIdentifier, SIGKILL)
            Issue.record("SIGTERM did not end \(arguments.prefix(2))")
        }
        await ChildProcess.exit(of: process)
        return (process.terminationStatus, watcher.output)
    }

    @Test func sigtermEndsARunSavedAndResumable() async throws {
        let db = scratch.database()
        let r = try await terminate(
            [
                "run", "--model", "SM-S921B", "--reader", "sim", "--sim-antenna", "0.9,0.9,0.05,0.05", "--auto", "--plan",
                "grid", "--tap-timeout", "30", "--db", db, "--no-report",
            ], after: "waiting up to 30 s for the phone")
        #expect(r.status == 130, "\(r.output)")
        #expect(r.output.contains("nfcbench run --resume S-"), "\(r.output)")
        let store = try await SQLiteBenchStore.openForReading(path: db)
        let session = try #require(try await store.sessions().first)
        let taps = try await store.taps(session.id)
        #expect(session.status.rawValue != "completed" && taps.isEmpty, "\(session.status) \(taps.count)")
    }

    @Test func sigtermEndsAPollWaitingForATarget() async throws {
        let bench = try TestBench()  // the emulated PN532, no phone on it
        let r = try await terminate(
            ["poll", "--reader", bench.spec, "--timeout", "60", "--count", "1"], after: "Waiting for a target")
        #expect(r.status == 130 && r.output.contains("the reader was closed and restored"), "\(r.output)")
    }

    /// A command waiting on a lab store that accepted and never answers ends soon after
    /// SIGTERM with 130, its connection closed: a wait inside libpq (which takes the
    /// connection string's own connect_timeout, 60 s here) is cut at the grace period at the
    /// latest (`SignalWaiter.graceSeconds`; before, `sessions --store` waited it out). A
    /// catalog fetch cannot wait so long (2 s idle ends it); its helper is killed on
    /// cancellation (`HelperProcessFetcherTests`).
    @Test func sigtermEndsAWaitOnALabStoreThatNeverAnswers() async throws {
        let command = "sessions"
        let server = try SilentServer()
        let arguments = ["sessions", "--store", "host=127.0.0.1 port=\(server.port) dbname=lab user=bench connect_timeout=60"]
        let process = Process()
        process.executableURL = URL(fileURLWithPath: BuiltBinary.path)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(
            ["XDG_CACHE_HOME": scratch.file("cache"), "NFCBENCH_LAB_TIMEOUT": "60"]) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = ContinuousClock.now + .seconds(30)
        while server.accepted == 0 && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(server.accepted > 0, "\(command) never reached the server")
        kill(process.processIdentifier, SIGTERM)
        let ended = await process.exits(within: 15)
        if !ended { kill(process.processIdentifier, SIGKILL) }
        #expect(ended, "SIGTERM did not end \(command) within 15 s")
        await ChildProcess.exit(of: process)
        #expect(process.terminationStatus == 130, "\(command) ended with \(process.terminationStatus)")
        let closedBy = ContinuousClock.now + .seconds(5)
        while !server.allClosedByClient && ContinuousClock.now < closedBy { try await Task.sleep(for: .milliseconds(20)) }
        #expect(server.allClosedByClient, "a connection of \(command) outlived it (an orphaned helper?)")
    }
}
