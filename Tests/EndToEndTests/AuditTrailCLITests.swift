import Foundation
import NFCBenchRecords
import NFCBenchStoreSQLite
import NFCTestSupport
import Testing

/// Who answered and what happened, through the built binary on the virtual bench (real
/// libnfc over the emulated PN532): a card in the phone's case is FOREIGN, never a HIT;
/// every quit, resume, Ctrl-C, unplug, undo and retry is in the session's trail.
@Suite("Responders and the audit trail through the CLI")
struct AuditTrailCLITests {
    let scratch: TemporaryDirectory
    init() throws { scratch = try TemporaryDirectory("audit") }

    @Test func aCardInTheCaseIsForeignUntilTakenOutAndThePhonesReadsStillCount() async throws {
        let bench = try TestBench(antenna: (0.1, 0.36, 0.8, 0.38))
        let db = scratch.database()
        let ctl = ["sim", "ctl", "--dir", bench.directory]
        let card = try await BuiltBinary.run(ctl + ["card", "mifare-classic", "0", "0.62", "1", "0.38", "5A1B2C3D"])
        #expect(card.status == 0, "\(card.stderr)")
        let run: [String] = [
            "run", "--plan", "grid", "--model", "SM-S921B", "--reader", bench.spec, "--positioner", "sim", "--sim-bench",
            bench.directory, "--auto", "--tap-timeout", "0.5", "--db", db, "--no-report",
        ]
        let stopped = try await BuiltBinary.run(run)
        #expect(stopped.status == 1, "\(stopped.stdout)\n\(stopped.stderr)")
        #expect(stopped.stderr.contains("a MIFARE Classic 1K card (UID 5A1B2C3D)") && stopped.stderr.contains("is saved"))
        #expect(stopped.stdout.contains("FOREIGN") && stopped.stdout.contains("remove cards from the bench"), "\(stopped.stdout)")
        let store = try await SQLiteBenchStore.openForReading(path: db)
        let id = try #require(try await store.sessions().first?.id)
        _ = try await BuiltBinary.run(ctl + ["card", "none"])
        let resumed = try await BuiltBinary.run([
            "run", "--resume", id, "--reader", bench.spec, "--positioner", "sim", "--sim-bench", bench.directory, "--auto",
            "--tap-timeout", "1", "--db", db, "--no-report", "--json",
        ])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        let summary = try jsonObject(resumed.stdout)
        #expect(summary["verdict"] as? String == "CONFIRMED" && (summary["foreign"] as? Int ?? 0) >= 3, "\(summary)")
        let shown = try jsonObject(try await BuiltBinary.run(["show", id, "--db", db, "--json"]).stdout)
        let taps = try #require(shown["tapList"] as? [[String: Any]])
        let foreign = taps.filter { $0["result"] as? String == "FOREIGN" }
        #expect(foreign.count >= 3 && foreign.allSatisfy { $0["uid"] as? String == "5A1B2C3D" && $0["sak"] as? String == "08" })
        #expect(!taps.contains { $0["result"] as? String == "HIT" && $0["uid"] as? String == "5A1B2C3D" })
        // The phone's own reads: Android, by its own answer to the HCE SELECT.
        let hits = taps.filter { $0["result"] as? String == "HIT" }
        #expect(!hits.isEmpty && hits.allSatisfy { $0["platformProbe"] as? String == "android" })
        let events = try #require(shown["events"] as? [[String: Any]])
        let kinds = events.compactMap { $0["kind"] as? String }
        #expect(kinds.filter { $0 == "foreign" }.count == foreign.count)
        #expect(kinds.first == "started" && kinds.contains("resumed") && kinds.last == "finished")
        #expect(events.first { $0["kind"] as? String == "tap-window-changed" }?["to"] as? String == "1.000")
        let lines = try await BuiltBinary.run(["show", id, "--db", db, "--events"])
        #expect(lines.stdout.contains("FOREIGN: a MIFARE Classic 1K card (UID 5A1B2C3D) answered"), "\(lines.stdout)")
        #expect(lines.stdout.contains("tap window changed from 0.5 s to 1 s"))
        let csv = try await BuiltBinary.run(["export", "--session", id, "--db", db])
        let foreignRows = csv.stdout.split(separator: "\r\n").filter { $0.contains(",FOREIGN,") }
        #expect(foreignRows.count == foreign.count && foreignRows.allSatisfy { $0.contains(",ISO14443A,5A1B2C3D,0004,08,") })
    }

    /// A session interrupted, resumed, unplugged, undone and retried leaves each in its trail.
    @Test func theTrailOfQuitResumeCtrlCUnplugUndoAndRetry() async throws {
        let bench = try TestBench(antenna: (0.1, 0.36, 0.8, 0.38))
        let db = scratch.database()
        let ctl = "\(BuiltBinary.path) sim ctl --dir \(bench.directory)"
        // Position 3's move unplugs the reader and plugs it back a moment later. Position 7's
        // move outlasts the test's wait (sleep 120 under --positioner-timeout 300): the Ctrl-C
        // below lands at the latest in it, however slowly the test watches on a loaded
        // machine (it once watched so slowly that the run ended first).
        let unplugging =
            "exec:if [ {index} -eq 2 ] && [ {action} = place ] && [ ! -e \(scratch.path)/unplugged ]; then touch \(scratch.path)/unplugged;"
            + " \(ctl) fault unplug > /dev/null; (sleep 1; \(ctl) fault none > /dev/null) & fi;"
            + " if [ {index} -eq 6 ] && [ {action} = place ]; then sleep 120; fi; \(ctl) {action} {x} {y} > /dev/null"
        let first = try BuiltBinary.start([
            "run", "--plan", "grid", "--model", "SM-S921B", "--reader", bench.spec, "--positioner", unplugging, "--auto",
            "--tap-timeout", "0.5", "--fault-timeout", "30", "--positioner-timeout", "300", "--db", db, "--no-report",
        ])
        // Interrupted (Ctrl-C) once five taps are in, at the latest in position 7's move.
        let store = try await SQLiteBenchStore.open(path: db)
        try await waitUntil(seconds: 60) {
            guard let session = try await store.sessions().first else { return false }
            return try await store.taps(session.id).count >= 5
        }
        first.interrupt()
        await ChildProcess.exit(of: first)
        #expect(first.terminationStatus == 130)
        let id = try #require(try await store.sessions().first?.id)
        bench.lift()  // the interrupted move left the phone on the reader
        // Resumed by hand through a pipe: an undo, a retry, then quit, each typed once the
        // run asks for the placement (keys typed before that are discarded).
        let keys = ChildKeys(), out = Pipe(), err = Pipe()
        let second = Process()
        second.executableURL = URL(fileURLWithPath: BuiltBinary.path)
        second.arguments = [
            "run", "--resume", id, "--reader", bench.spec, "--positioner", "manual", "--tap-timeout", "30", "--db", db,
            "--no-report",
        ]
        second.standardInput = keys.pipe
        second.standardOutput = out
        second.standardError = err
        let screen = OutputWatcher(out), errors = OutputWatcher(err)
        try second.run()
        defer { if second.isRunning { second.terminate() } }
        let prompt = "Place the phone for position"
        // Each key only once the run asks for it; a run that stopped answering fails here,
        // with what it printed on both streams.
        func shown(_ text: String, count: Int = 1) async throws {
            try #require(
                await screen.wait(for: text, count: count),
                "waited for '\(text)'; stdout: \(screen.output)\nstderr: \(errors.output)")
        }
        try await shown("press Enter")
        try keys.type("\n")  // the ready gate
        try await shown(prompt)
        try keys.type("u\n")
        try await shown("undone:")
        try await shown(prompt, count: 2)
        try keys.type("r\n")
        try await shown(prompt, count: 3)
        try keys.type("q\n")
        await ChildProcess.exit(of: second)
        #expect(second.terminationStatus == 75)
        let kinds = try await store.events(id).map(\.kind)
        for expected: SessionEvent.Kind in [
            .started, .placed, .window, .readerRecovered, .interrupted, .resumed, .ready, .undo, .retry, .quit,
        ] {
            #expect(kinds.contains(expected), "\(expected) missing from \(kinds)")
        }
        // Unplugged mid-poll it is lost; unplugged between polls, the next poll faults.
        #expect(kinds.contains(.readerLost) || kinds.contains(.readerFault), "\(kinds)")
        #expect(kinds.firstIndex(of: .interrupted)! < kinds.firstIndex(of: .resumed)!)
        let lines = try await BuiltBinary.run(["show", id, "--db", db, "--events"]).stdout
        #expect(
            lines.contains("interrupted (Ctrl-C); saved") && lines.contains("quit by the operator")
                && (lines.contains("READER LOST") || lines.contains("READER FAULT")), "\(lines)")
        // Each event to the millisecond, in order.
        let times = try await store.events(id).map(\.at)
        #expect(times == times.sorted())
    }

    func waitUntil(seconds: Double, _ condition: () async throws -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while try await !condition() {
            guard ContinuousClock.now < deadline else { throw WaitTimedOut(what: "the condition") }
            try await Task.sleep(for: .milliseconds(50))
        }
    }
}
