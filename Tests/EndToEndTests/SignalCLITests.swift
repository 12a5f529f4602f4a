import Foundation
import NFCBenchStoreSQLite
import NFCTestSupport
import Testing

/// Issue 49: SIGTERM (what `timeout`, systemd and a lab's scripts send) ends a command
/// cleanly, as Ctrl-C does: a run in a tap window stops, saved and resumable, with exit
/// 130; a poll waiting for a target stops with 130.
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
}
