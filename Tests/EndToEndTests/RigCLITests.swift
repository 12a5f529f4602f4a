import Foundation
import NFCLocatorCore
import NFCTestSupport
import Testing

/// Unattended runs on the emulated GRBL and Marlin machines through the built binary, as a
/// lab drives a real rig: `sim serve --gantry`, `run --positioner gcode --rig`, `rig ...`.
/// Each test serves its own bench (own ptys, own folder), so they run in parallel.
@Suite("Motion stage runs through the CLI")
struct RigCLITests {
    let scratch: TemporaryDirectory
    init() throws { scratch = try TemporaryDirectory("rig") }

    /// The phone's true coil, away from where the catalog predicts the Galaxy S24's.
    static let hidden = try! NormalizedRect(x: 0.2, y: 0.5, width: 0.6, height: 0.3)

    func served(_ dialect: String, _ extra: [String] = []) async throws -> ServedBench {
        let h = Self.hidden
        return try await ServedBench.start(
            registryIn: scratch,
            arguments: [
                "--gantry", dialect, "--gantry-speed", "50", "--miss-rate", "0", "--antenna",
                "\(h.x),\(h.y),\(h.width),\(h.height)",
            ]
                + extra)
    }

    func runArguments(_ bench: ServedBench, rig: String? = nil) -> [String] {
        [
            "run", "--model", "SM-S921B", "--reader", "libnfc:pn532_uart:\(bench.directory)/pn532", "--positioner", "gcode",
            "--rig", rig ?? bench.directory + "/rig.conf", "--auto", "--tap-timeout", "0.3", "--db", scratch.file("bench.sqlite"),
            "--no-report",
        ]
    }

    static func log(_ bench: ServedBench) -> [String] {
        ((try? String(contentsOfFile: bench.directory + "/gantry.log", encoding: .utf8)) ?? "")
            .split(separator: "\n").map { String($0.split(separator: " ", maxSplits: 1).last ?? "") }
    }

    static func count(_ prefix: String, in bench: ServedBench) -> Int { log(bench).filter { $0.hasPrefix(prefix) }.count }

    static func status(_ bench: ServedBench) async throws -> [String: Any] {
        let r = try await BuiltBinary.run(["sim", "ctl", "--dir", bench.directory, "status"], environment: bench.environment)
        let reply = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], "\(r.stdout)")
        return try #require(reply["status"] as? [String: Any])
    }

    static func waitFor(_ prefix: String, count: Int, in bench: ServedBench) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while Self.count(prefix, in: bench) < count {
            guard ContinuousClock.now < deadline else { throw CancellationError() }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    static func sessionID(in text: String) -> String? {
        text.range(of: #"S-\d{8}-\d{6}-[0-9a-f]{4}"#, options: .regularExpression).map { String(text[$0]) }
    }

    /// A whole unattended session on each dialect finds the hidden coil; the machine's log
    /// shows Z at the safe height for every XY move and a barrier after every descent, and
    /// the reader was never polled while the machine moved.
    @Test(arguments: ["grbl", "marlin"])
    func anUnattendedSessionFindsAHiddenZone(_ dialect: String) async throws {
        let bench = try await served(dialect)
        defer { bench.discard() }
        let r = try await BuiltBinary.run(runArguments(bench) + ["--json"], environment: bench.environment)
        #expect(r.status == 0, "\(r.stdout)\n\(r.stderr)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], "\(r.stdout)")
        let m = try #require(summary["measuredZone"] as? [String: Double], "\(summary)")
        let measured = try NormalizedRect(x: m["x"]!, y: m["y"]!, width: m["width"]!, height: m["height"]!)
        #expect(measured.iou(with: Self.hidden) > 0.75, "measured \(measured) vs hidden \(Self.hidden)")

        let status = try await Self.status(bench)
        #expect(status["pollsWhileMoving"] as? Int == 0)
        let log = Self.log(bench)
        let rig = (safe: 32.0, tap: 2.0)
        var descended = false
        for line in log where line.hasPrefix("move ") || line.hasPrefix("barrier") {
            if line.hasPrefix("barrier") {
                descended = false
                continue
            }
            let parts = line.split(separator: " ")
            let start = parts[1].split(separator: ",").compactMap { Double($0) }
            let end = parts[3].split(separator: ",").compactMap { Double($0) }
            #expect(!descended, "the machine moved on from the tap height before a barrier: \(line)")
            if abs(start[0] - end[0]) > 1e-6 || abs(start[1] - end[1]) > 1e-6 {
                #expect(start[2] >= rig.safe - 0.001 && end[2] >= rig.safe - 0.001, "XY move below the safe height: \(line)")
            }
            descended = abs(end[2] - rig.tap) < 0.001
        }
        let taps = try #require(summary["taps"] as? Int)
        #expect(Self.count("barrier", in: bench) >= 2 * taps)
    }

    /// An alarm mid-run stops it as "positioner failed" in words, saved; `rig unlock --yes`
    /// clears it, and the session resumes and completes.
    @Test func anAlarmMidRunStopsItAndTheSessionResumesAfterUnlock() async throws {
        let bench = try await served("grbl")
        defer { bench.discard() }
        let run = try BuiltBinary.start(runArguments(bench), environment: bench.environment)
        try await Self.waitFor("barrier", count: 8, in: bench)
        _ = try await BuiltBinary.run(
            ["sim", "ctl", "--dir", bench.directory, "gantry", "alarm", "1"], environment: bench.environment)
        #expect(run.waitUntilExit(timeout: 60))
        let output = String(decoding: (run.standardOutput as! Pipe).fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let errors = String(decoding: (run.standardError as! Pipe).fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(run.terminationStatus == 1, "\(output)\n\(errors)")
        #expect(errors.contains("ALARM:1, hard limit"), "\(errors)")
        let id = try #require(Self.sessionID(in: errors + output))

        let unlock = try await BuiltBinary.run(
            ["rig", "unlock", "--rig", bench.directory + "/rig.conf", "--yes"], environment: bench.environment)
        #expect(unlock.status == 0, "\(unlock.stdout)\(unlock.stderr)")
        // GRBL's status tells the state, not which alarm: the run that met it said that.
        #expect(unlock.stdout.contains("state Alarm") && unlock.stdout.contains("Unlocked: state Idle"), "\(unlock.stdout)")

        let resumed = try await BuiltBinary.run(
            [
                "run", "--resume", id, "--positioner", "gcode", "--rig", bench.directory + "/rig.conf", "--auto",
                "--db", scratch.file("bench.sqlite"), "--no-report", "--json",
            ],
            environment: bench.environment)
        #expect(resumed.status == 0, "\(resumed.stdout)\n\(resumed.stderr)")
        #expect(resumed.stdout.contains("\"sessionId\": \"\(id)\""), "\(resumed.stdout)")
        #expect(Self.count("< $H", in: bench) == 2, "the run and the resume each home first")
    }

    /// Ctrl-C while the machine moves: feed hold, then soft reset, and the session saved.
    @Test func ctrlCMidMoveHoldsAndResetsTheMachineAndSavesTheSession() async throws {
        let bench = try await served("grbl")
        defer { bench.discard() }
        let run = try BuiltBinary.start(runArguments(bench), environment: bench.environment)
        try await Self.waitFor("barrier", count: 6, in: bench)
        _ = try await BuiltBinary.run(
            ["sim", "ctl", "--dir", bench.directory, "gantry", "slow", "100"], environment: bench.environment)
        let deadline = ContinuousClock.now + .seconds(30)
        while (try await Self.status(bench))["gantryState"] as? String != "Run" {
            guard ContinuousClock.now < deadline else { throw CancellationError() }
            try await Task.sleep(for: .milliseconds(10))
        }
        run.interrupt()
        #expect(run.waitUntilExit(timeout: 30))
        let output = String(decoding: (run.standardOutput as! Pipe).fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(run.terminationStatus == 130, "\(output)")
        let log = Self.log(bench)
        let hold = try #require(log.lastIndex(of: "< realtime !"), "no feed hold in \(log.suffix(20))")
        let reset = try #require(log.lastIndex(of: "< realtime Ctrl-X"), "no soft reset")
        #expect(hold < reset)
        #expect(!log.contains("> ALARM:3"), "reset after the hold: the machine kept its position")
        let id = try #require(Self.sessionID(in: output), "\(output)")
        let sessions = try await BuiltBinary.run(["sessions", "--db", scratch.file("bench.sqlite"), "--json"])
        #expect(sessions.stdout.contains(id) && sessions.stdout.contains("in_progress"), "\(sessions.stdout)")
    }

    /// A rig whose jig puts part of the phone beyond the travel: refused before anything
    /// moves, with nothing stored.
    @Test func aPlanOutsideTheTravelIsRefusedBeforeTheFirstMove() async throws {
        let bench = try await served("grbl")
        defer { bench.discard() }
        let rig = try String(contentsOfFile: bench.directory + "/rig.conf", encoding: .utf8)
            .replacingOccurrences(of: "origin-y = 30", with: "origin-y = 150")
        try rig.write(toFile: scratch.file("far.conf"), atomically: true, encoding: .utf8)
        let r = try await BuiltBinary.run(
            runArguments(bench, rig: scratch.file("far.conf")) + ["--plan", "grid"], environment: bench.environment)
        #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
        #expect(
            r.stderr.contains("is out of reach: machine Y") && r.stderr.contains("outside travel-y 0...250 mm"), "\(r.stderr)")
        #expect(r.stderr.contains("Nothing moved."))
        #expect(!Self.log(bench).contains { $0.hasPrefix("move") || $0.hasPrefix("< ") }, "\(Self.log(bench))")
        let sessions = try await BuiltBinary.run(["sessions", "--db", scratch.file("bench.sqlite"), "--json"])
        #expect(sessions.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]", "\(sessions.stdout)")
        let check = try await BuiltBinary.run(
            [
                "rig", "check", "--model", "SM-S921B", "--plan", "grid", "--rig", scratch.file("far.conf"), "--offline",
                "--db", scratch.file("bench.sqlite"),
            ],
            environment: bench.environment)
        #expect(check.status == 1 && check.stderr.contains("is out of reach: machine Y"), "\(check.stderr)")
    }

    /// A phone whose field reaches past the safe height stops the run with that advice
    /// instead of waiting for a lift that never clears the field.
    @Test func aPhoneThatStillReadsAtTheSafeHeightStopsTheRun() async throws {
        let bench = try await served("marlin", ["--read-height", "80"])
        defer { bench.discard() }
        let r = try await BuiltBinary.run(runArguments(bench), environment: bench.environment)
        #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
        #expect(
            r.stderr.contains("still answers with the machine at its safe height") && r.stderr.contains("Raise safe-z"),
            "\(r.stderr)")
    }

    /// Jogging to the corners with keys, checked against the Galaxy S24's published
    /// 70.6 x 147.0 mm; a misaligned jig (corner 6 mm off) is refused and the file kept.
    @Test func calibrationChecksTheBodyAndSavesTheRig() async throws {
        let bench = try await served("grbl")
        defer { bench.discard() }
        let start = scratch.file("start.conf")
        try FileManager.default.copyItem(atPath: bench.directory + "/rig.conf", toPath: start)
        let (right, up, down) = ("\u{1B}[C", "\u{1B}[A", "\u{1B}[6~")
        func keys(height: Int) -> String {
            // From home (0, 0, 60): to X 40 Y 30, down to Z 2, mark; then across the body.
            "3" + String(repeating: right, count: 4) + String(repeating: up, count: 3) + String(repeating: down, count: 5)
                + "2" + String(repeating: down, count: 8) + "ta3" + String(repeating: right, count: 7) + "1"
                + String(repeating: right, count: 6) + "3" + String(repeating: up, count: height / 10) + "2"
                + String(repeating: up, count: height % 10) + "bs"
        }
        func calibrate(_ typed: String, to output: String) async throws -> (status: Int32, stdout: String, stderr: String) {
            try typed.write(toFile: scratch.file("keys"), atomically: true, encoding: .utf8)
            return try await ChildProcess.run(
                "/bin/sh",
                [
                    "-c", "exec \"$0\" rig calibrate --model SM-S921B --rig \"$1\" -o \"$2\" < \"$3\"", BuiltBinary.path, start,
                    output,
                    scratch.file("keys"),
                ],
                environment: ProcessInfo.processInfo.environment.merging(bench.environment) { $1 })
        }
        let good = try await calibrate(keys(height: 147), to: scratch.file("rig.conf"))
        #expect(good.status == 0, "\(good.stdout)\(good.stderr)")
        let saved = try String(contentsOfFile: scratch.file("rig.conf"), encoding: .utf8)
        #expect(
            saved.contains("origin-x = 40\n") && saved.contains("origin-y = 30\n") && saved.contains("tap-z = 2\n"), "\(saved)")

        try "keep me\n".write(toFile: scratch.file("kept.conf"), atomically: true, encoding: .utf8)
        let askew = try await calibrate(keys(height: 153), to: scratch.file("kept.conf"))
        #expect(askew.status == 1)
        #expect(askew.stderr.contains("70.6 x 153 mm") && askew.stderr.contains("misaligned"), "\(askew.stderr)")
        #expect(try String(contentsOfFile: scratch.file("kept.conf"), encoding: .utf8) == "keep me\n")
    }
}
