import Foundation
import NFCBench
import NFCLocatorCore
import NFCPhysics
import NFCReaders
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

    /// A machine run on `bench`. `plan`: the adaptive plan by default, whose positions cost
    /// no fitting, for the tests of the machine itself; `nil` for the run's own default (the
    /// coil plan, graded: the emulated PN532's antenna is known from its profile).
    func runArguments(_ bench: ServedBench, rig: String? = nil, plan: String? = "adaptive") -> [String] {
        [
            "run", "--model", "SM-S921B", "--reader", "libnfc:pn532_uart:\(bench.directory)/pn532", "--positioner", "gcode",
            "--rig", rig ?? bench.directory + "/rig.conf", "--auto", "--tap-timeout", "0.3", "--db", scratch.file("bench.sqlite"),
            "--no-report",
        ] + (plan.map { ["--plan", $0] } ?? [])
    }

    static func log(_ bench: ServedBench) -> [String] { GantryLog(directory: bench.directory).events }

    static func count(_ prefix: String, in bench: ServedBench) -> Int { GantryLog(directory: bench.directory).count(prefix) }

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

    /// A run with two-second windows (so it is still going when the machine is slowed),
    /// caught mid-move: a few positions done, the gantry slowed a hundredfold and moving.
    func runSlowedMidMove(_ bench: ServedBench) async throws -> Process {
        let run = try BuiltBinary.start(
            runArguments(bench).map { $0 == "0.3" ? "2" : $0 }, environment: bench.environment)
        try await Self.waitFor("barrier", count: 6, in: bench)
        _ = try await BuiltBinary.run(
            ["sim", "ctl", "--dir", bench.directory, "gantry", "slow", "100"], environment: bench.environment)
        let deadline = ContinuousClock.now + .seconds(30)
        while (try await Self.status(bench))["gantryState"] as? String != "Run" {
            guard ContinuousClock.now < deadline else { throw CancellationError() }
            try await Task.sleep(for: .milliseconds(10))
        }
        return run
    }

    static func sessionID(in text: String) -> String? {
        text.range(of: #"S-\d{8}-\d{6}-[0-9a-f]{4}"#, options: .regularExpression).map { String(text[$0]) }
    }

    /// Issue 52: without --tap-timeout a machine run takes its rig's tap window (one poll
    /// round, 0.4 s, unless the rig file sets `tap-window`), says so, and records it; a
    /// hand's 5 s made every miss on a rig cost 5 s.
    @Test func aMachineRunTakesTheRigsTapWindow() async throws {
        let bench = try await served("grbl")
        defer { bench.discard() }
        var arguments = runArguments(bench, plan: "grid")
        let at = try #require(arguments.firstIndex(of: "--tap-timeout"))
        arguments.removeSubrange(at...(at + 1))
        let db = try #require(arguments.firstIndex(of: "--db").map { arguments[$0 + 1] })
        let r = try await BuiltBinary.run(arguments, environment: bench.environment)
        #expect(r.status == 0, "\(r.stdout)\n\(r.stderr)")
        #expect(r.stderr.contains("Tap window 0.4 s, the rig's"), "\(r.stderr)")
        let id = try #require(Self.sessionID(in: r.stdout + r.stderr))
        let shown = try await BuiltBinary.run(["show", id, "--db", db, "--json"])
        let taps = try #require(
            (try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any])?["tapList"] as? [[String: Any]])
        #expect(!taps.isEmpty && taps.allSatisfy { $0["windowSeconds"] as? Double == 0.4 }, "\(taps.prefix(2))")
    }

    /// The bench's rig file without `clearance-z`: the machine crosses at the safe height.
    func safeHeightRig(_ bench: ServedBench) throws -> String {
        let rig = try String(contentsOfFile: bench.directory + "/rig.conf", encoding: .utf8)
            .split(separator: "\n").filter { !$0.hasPrefix("clearance-z") }.joined(separator: "\n")
        try rig.write(toFile: scratch.file("safe-height.conf"), atomically: true, encoding: .utf8)
        return scratch.file("safe-height.conf")
    }

    /// A whole unattended session on each dialect, and each way of crossing, finds the
    /// hidden coil; the machine's log shows Z at the crossing height for every XY move (and
    /// the reader's field off then, crossing at clearance-z) and a barrier after every
    /// descent, and the reader was never polled while the machine moved.
    @Test(arguments: ["grbl", "marlin"], [true, false])
    func anUnattendedSessionFindsAHiddenZone(_ dialect: String, fieldOff: Bool) async throws {
        let bench = try await served(dialect)
        defer { bench.discard() }
        let rig = fieldOff ? nil : try safeHeightRig(bench)
        let r = try await BuiltBinary.run(runArguments(bench, rig: rig, plan: nil) + ["--json"], environment: bench.environment)
        #expect(r.status == 0, "\(r.stdout)\n\(r.stderr)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], "\(r.stdout)")
        let m = try #require(summary["measuredZone"] as? [String: Double], "\(summary)")
        let measured = try NormalizedRect(x: m["x"]!, y: m["y"]!, width: m["width"]!, height: m["height"]!)
        // The run's default here is the coil plan, graded (the emulated PN532's antenna is
        // known): the measured zone is the coil fitted under the physics of two loops, not
        // the read region; the catalog's prediction is far off (IoU 0.42).
        let predicted = try #require(summary["predictedZone"] as? [String: Double])
        let prediction = try NormalizedRect(
            x: predicted["x"]!, y: predicted["y"]!, width: predicted["width"]!, height: predicted["height"]!)
        #expect(measured.iou(with: Self.hidden) > 0.65, "measured \(measured) vs hidden \(Self.hidden)")
        #expect(measured.iou(with: Self.hidden) > prediction.iou(with: Self.hidden) + 0.2)

        let status = try await Self.status(bench)
        #expect(status["pollsWhileMoving"] as? Int == 0)
        // The emulated rig: safe-z 32, clearance-z 4, tap-z 2 (sim serve's rig.conf).
        let log = GantryLog(directory: bench.directory)
        #expect(log.placementViolations(crossingZ: fieldOff ? 4 : 32, tapZ: 2, fieldOff: fieldOff) == [])
        let taps = try #require(summary["taps"] as? Int)
        #expect(Self.count("barrier", in: bench) >= 2 * taps)
        // Crossing low is what makes a machine fast: no move goes above the clearance then.
        let moves = log.moves
        let firstDescent = try #require(moves.firstIndex { abs($0.end[2] - 2) < 0.001 })
        let highest = moves[(firstDescent + 1)...].map { max($0.start[2], $0.end[2]) }.max() ?? 0
        #expect(fieldOff ? abs(highest - 4) < 0.001 : abs(highest - 32) < 0.001, "crossing height \(highest)")
        let id = try #require(summary["sessionId"] as? String)
        let audit = try await BuiltBinary.run(["show", id, "--db", scratch.file("bench.sqlite"), "--events"])
        #expect(audit.stdout.contains("crossing with the reader's field off") == fieldOff, "\(audit.stdout)")
    }

    /// An alarm mid-run stops it as "positioner failed" in words, saved; `rig unlock --yes`
    /// clears it, and the session resumes and completes.
    @Test func anAlarmMidRunStopsItAndTheSessionResumesAfterUnlock() async throws {
        let bench = try await served("grbl")
        defer { bench.discard() }
        // Armed before the run for its eighth move across, so it lands mid-run however
        // loaded the machine is (a command sent while the run went on sometimes came after its end).
        let armed = try await BuiltBinary.run(
            ["sim", "ctl", "--dir", bench.directory, "gantry", "alarm", "1", "during-move", "8"], environment: bench.environment)
        #expect(armed.status == 0, "\(armed.stdout)\(armed.stderr)")
        let run = try BuiltBinary.start(runArguments(bench), environment: bench.environment)
        #expect(await run.endsOrIsKilled(within: 60), "still running after 60 s")
        let output = String(decoding: (run.standardOutput as! Pipe).fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let errors = String(decoding: (run.standardError as! Pipe).fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(run.terminationStatus == 1, "\(output)\n\(errors)")
        #expect(errors.contains("ALARM:1, hard limit"), "\(errors)")
        let id = try #require(Self.sessionID(in: errors + output))
        let resume = [
            "run", "--resume", id, "--positioner", "gcode", "--rig", bench.directory + "/rig.conf", "--auto",
            "--db", scratch.file("bench.sqlite"), "--no-report", "--json",
        ]

        // Issue 52: a resume before the unlock reads the machine first. A hard limit leaves GRBL
        // reading no line until a reset, so a `$H` waited out its 60 s and blamed the cable.
        let early = ContinuousClock.now
        let refused = try await BuiltBinary.run(resume, environment: bench.environment)
        #expect(ContinuousClock.now - early < .seconds(20), "named at once, not after a homing timeout")
        #expect(refused.status == 1, "\(refused.stdout)\n\(refused.stderr)")
        #expect(refused.stderr.contains("ignores every command until it is reset"), "\(refused.stderr)")
        #expect(
            refused.stderr.contains("nfcbench rig unlock") && !refused.stderr.contains("check the cable"), "\(refused.stderr)")
        #expect(Self.count("< $H", in: bench) == 1, "no homing was tried in the alarm")

        let unlock = try await BuiltBinary.run(
            ["rig", "unlock", "--rig", bench.directory + "/rig.conf", "--yes"], environment: bench.environment)
        #expect(unlock.status == 0, "\(unlock.stdout)\(unlock.stderr)")
        // GRBL's status tells the state, not which alarm: the run that met it said that.
        #expect(unlock.stdout.contains("state Alarm") && unlock.stdout.contains("Unlocked: state Idle"), "\(unlock.stdout)")

        let resumed = try await BuiltBinary.run(resume, environment: bench.environment)
        #expect(resumed.status == 0, "\(resumed.stdout)\n\(resumed.stderr)")
        #expect(resumed.stdout.contains("\"sessionId\": \"\(id)\""), "\(resumed.stdout)")
        #expect(Self.count("< $H", in: bench) == 2, "the run and the resume each home first")
    }

    /// Issue 52: a resume right after a `kill -9` mid-move finds GRBL still carrying out the
    /// dead run's queued moves (state Run). It waits for them, says so, and continues; it
    /// was refused ("state Run, not idle") with a hint about alarms.
    @Test func aResumeAfterAKillWaitsForTheDeadRunsMoves() async throws {
        let bench = try await served("grbl")
        defer { bench.discard() }
        let run = try await runSlowedMidMove(bench)
        kill(run.processIdentifier, SIGKILL)
        run.waitUntilExit()
        let output = String(decoding: (run.standardOutput as! Pipe).fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let id = try #require(Self.sessionID(in: output), "\(output)")
        // The dead run's last moves, and one more long one as its planner might still hold:
        // slowed, they keep the machine moving however long a loaded machine takes to start
        // the resume. The machine stays slow until the resume has seen it moving.
        let port = try #require(FileHandle(forWritingAtPath: bench.directory + "/gantry"))
        try port.write(contentsOf: Data("G1 X150 Y200 F600\n".utf8))
        try port.close()
        let resumed = try BuiltBinary.start(
            [
                "run", "--resume", id, "--positioner", "gcode", "--rig", bench.directory + "/rig.conf", "--auto",
                "--db", scratch.file("bench.sqlite"), "--no-report", "--json",
            ],
            environment: bench.environment)
        let errors = OutputWatcher(resumed.standardError as! Pipe), out = OutputWatcher(resumed.standardOutput as! Pipe)
        let waiting = await errors.wait(for: "The machine is still moving (state Run)", timeout: .seconds(60))
        _ = try await BuiltBinary.run(
            ["sim", "ctl", "--dir", bench.directory, "gantry", "slow", "1"], environment: bench.environment)
        #expect(waiting, "\(errors.output)")
        #expect(await resumed.endsOrIsKilled(within: 90), "still running after 90 s")
        // Read to the pipes' end: the process may exit before its last lines are read.
        #expect(await out.wait(for: "\"sessionId\": \"\(id)\"", timeout: .seconds(10)), "\(out.output)")
        #expect(await errors.wait(for: "It stopped after", timeout: .seconds(10)), "\(errors.output)")
        #expect(resumed.terminationStatus == 0, "\(out.output)\n\(errors.output)")
    }

    /// Issue 49, L3: a machine that alarms (GRBL alarm 1 or 2), resets, or stops with an
    /// error (Marlin) inside a tap window voids that tap: the run stops, saved, saying the
    /// tap was not recorded, and nothing is stored at that position, so a resume taps it
    /// again. Before, the window committed a clean MISS and the run stopped only after it.
    @Test(arguments: [("grbl", ["alarm", "1"]), ("grbl", ["alarm", "2"]), ("grbl", ["reset"]), ("marlin", ["alarm", "1"])])
    func aMachineFaultInsideTheWindowVoidsItsTap(_ dialect: String, _ fault: [String]) async throws {
        // The phone never answers: every window runs its full thirty seconds, so the fault
        // lands inside the first one however slowly `sim ctl` starts on a loaded machine (with
        // ten, a reset sometimes landed after the window, among a dozen tests on two cores).
        let bench = try await ServedBench.start(
            registryIn: scratch,
            arguments: ["--gantry", dialect, "--gantry-speed", "50", "--miss-rate", "1", "--antenna", "0.2,0.5,0.6,0.3"])
        defer { bench.discard() }
        let arguments = runArguments(bench).map { $0 == "0.3" ? "30" : $0 }
        let run = try BuiltBinary.start(arguments, environment: bench.environment)
        let output = OutputWatcher(run.standardOutput as! Pipe)
        #expect(await output.wait(for: "waiting up to 30 s for the phone", timeout: .seconds(60)), "\(output.output)")
        let injected = try await BuiltBinary.run(
            ["sim", "ctl", "--dir", bench.directory, "gantry"] + fault, environment: bench.environment)
        #expect(injected.status == 0, "\(injected.stderr)")
        #expect(await run.endsOrIsKilled(within: 90), "still running after 90 s")
        let errors = String(decoding: (run.standardError as! Pipe).fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(run.terminationStatus == 1, "\(output.output)\n\(errors)")
        #expect(errors.contains("the tap at position 1 was not recorded"), "\(errors)")
        #expect(!output.output.contains("MISS"), "\(output.output)")
        let id = try #require(Self.sessionID(in: errors + output.output))
        let shown = try await BuiltBinary.run(["show", id, "--db", scratch.file("bench.sqlite"), "--json"])
        let session = try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any]
        #expect((session?["tapList"] as? [Any])?.isEmpty == true, "\(shown.stdout)")
        let failed = (session?["events"] as? [[String: Any]])?.first { $0["kind"] as? String == "positioner-failed" }
        #expect((failed?["reason"] as? String)?.contains("was not recorded") == true, "\(shown.stdout)")
    }

    /// Ctrl-C while the machine moves: feed hold, then soft reset, and the session saved.
    @Test func ctrlCMidMoveHoldsAndResetsTheMachineAndSavesTheSession() async throws {
        let bench = try await served("grbl")
        defer { bench.discard() }
        let run = try await runSlowedMidMove(bench)
        run.interrupt()
        #expect(await run.endsOrIsKilled(within: 30), "still running after 30 s")
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
            runArguments(bench, rig: scratch.file("far.conf"), plan: "grid"), environment: bench.environment)
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

    /// `rig check` times a plan's moves both ways of crossing: at the safe height, 30 mm
    /// above the tap height on the emulated rig, and at clearance-z, 2 mm above it.
    @Test func rigCheckTimesTheMovesBothWaysOfCrossing() async throws {
        let bench = try await served("grbl")
        defer { bench.discard() }
        let check = try await BuiltBinary.run(
            [
                "rig", "check", "--model", "SM-S921B", "--plan", "grid", "--rig", bench.directory + "/rig.conf", "--offline",
                "--db", scratch.file("bench.sqlite"),
            ],
            environment: bench.environment)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        func verticalMm(after marker: String) -> Int? {
            guard let line = check.stdout.split(separator: "\n").first(where: { $0.hasPrefix(marker) }),
                let range = line.range(of: #"(\d+) mm up and down"#, options: .regularExpression)
            else { return nil }
            return Int(line[range].split(separator: " ")[0])
        }
        let high = try #require(verticalMm(after: "Moves:"), "\(check.stdout)")
        let low = try #require(verticalMm(after: "Crossing at clearance-z 4 mm"), "\(check.stdout)")
        let positions = try #require(
            check.stdout.range(of: #"grid plan: (\d+) positions"#, options: .regularExpression).map {
                Int(check.stdout[$0].split(separator: " ")[2])
            } ?? nil)
        #expect(high == 60 * positions && low == 4 * positions, "\(check.stdout)")
    }

    /// `rig check` asks the machine as a run does and holds it to the run's rule: an idle
    /// machine passes and `--move` runs the plan's moves on it, each one logged by the
    /// machine; a machine in feed hold (its hold button, a door switch) is refused in the
    /// words a run refuses it with, and so is the run.
    @Test func rigCheckAsksTheMachineByTheRunsRule() async throws {
        let bench = try await served("grbl")
        defer { bench.discard() }
        let check = [
            "rig", "check", "--model", "SM-S921B", "--plan", "grid", "--rig", bench.directory + "/rig.conf",
            "--db", scratch.file("bench.sqlite"),
        ]
        let moved = try await BuiltBinary.run(check + ["--move"], environment: bench.environment)
        #expect(moved.status == 0, "\(moved.stdout)\(moved.stderr)")
        // The emulated GRBL powers up locked, as a GRBL with homing enabled does; the rig homes.
        #expect(moved.stdout.contains("Machine: answers, state Alarm (the run homes first, which clears it)"), "\(moved.stdout)")
        let positions = try #require(
            moved.stdout.range(of: #"grid plan: (\d+) positions"#, options: .regularExpression).map {
                Int(moved.stdout[$0].split(separator: " ")[2])
            } ?? nil)
        #expect(moved.stdout.contains("Moved through \(positions) positions in "), "\(moved.stdout)")
        #expect(Self.count("move", in: bench) >= positions, "every position is a move the machine made")

        let hold = try await BuiltBinary.run(
            ["sim", "ctl", "--dir", bench.directory, "gantry", "hold"], environment: bench.environment)
        #expect(hold.status == 0, "\(hold.stderr)")
        let held = try await BuiltBinary.run(check, environment: bench.environment)
        #expect(held.status == 1, "\(held.stdout)\(held.stderr)")
        #expect(held.stdout.contains("Machine: answers, state Hold"), "\(held.stdout)")
        #expect(held.stderr.contains("state 'Hold', not idle: a run would refuse it"), "\(held.stderr)")
        let run = try await BuiltBinary.run(runArguments(bench), environment: bench.environment)
        #expect(run.status != 0 && run.stderr.contains("the machine is in state 'Hold', not idle"), "\(run.stdout)\(run.stderr)")
    }

    /// A phone whose field reaches past the safe height stops the run with that advice
    /// instead of waiting for a lift that never clears the field.
    @Test func aPhoneThatStillReadsAtTheSafeHeightStopsTheRun() async throws {
        let bench = try await served("marlin", ["--read-height", "80"])
        defer { bench.discard() }
        let r = try await BuiltBinary.run(runArguments(bench, rig: try safeHeightRig(bench)), environment: bench.environment)
        #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
        #expect(
            r.stderr.contains("still answers with the machine at its safe height") && r.stderr.contains("Raise safe-z"),
            "\(r.stderr)")
    }

    /// Jogging to the corners with keys, checked against the Galaxy S24's published
    /// 70.6 x 147.0 mm; a misaligned jig (corner 6 mm off) is refused and the file kept, and
    /// the operator jogs on from the refusal and saves once the corner is right.
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
        #expect(
            askew.stdout.contains("Not saved:") && askew.stdout.contains("70.6 x 153 mm")
                && askew.stdout.contains("misaligned") && askew.stdout.contains("keyboard closed before the rig was saved"),
            "\(askew.stdout)")
        #expect(try String(contentsOfFile: scratch.file("kept.conf"), encoding: .utf8) == "keep me\n")

        // A refused save keeps the session: jog the corner 6 mm back, mark it again, save.
        let corrected = try await calibrate(
            keys(height: 153) + "2" + String(repeating: "\u{1B}[B", count: 6) + "bs", to: scratch.file("kept.conf"))
        #expect(corrected.status == 0, "\(corrected.stdout)\(corrected.stderr)")
        #expect(corrected.stdout.contains("Not saved:") && corrected.stdout.contains("Saved "), "\(corrected.stdout)")
        let resaved = try String(contentsOfFile: scratch.file("kept.conf"), encoding: .utf8)
        #expect(resaved.contains("origin-x = 40\n") && resaved.contains("origin-y = 30\n"), "\(resaved)")
    }
}

/// The operating volume on the emulated GRBL: a raster tapped at several heights maps
/// how high each position reads, as the documented coupling model says it should.
@Suite("The operating volume through the CLI")
struct OperatingVolumeCLITests {
    let scratch: TemporaryDirectory
    init() throws { scratch = try TemporaryDirectory("volume") }

    @Test func theReadHeightMapFollowsThePhonesReach() async throws {
        let coil = (x: 0.2, y: 0.5, width: 0.6, height: 0.3)
        let bench = try await ServedBench.start(
            registryIn: scratch,
            arguments: [
                "--gantry", "grbl", "--gantry-speed", "200", "--miss-rate", "0", "--read-height", "16",
                "--antenna", "\(coil.x),\(coil.y),\(coil.width),\(coil.height)",
            ])
        defer { bench.discard() }
        let db = scratch.file("bench.sqlite")
        let run = try await BuiltBinary.run(
            [
                "run", "--model", "SM-S921B", "--reader", "libnfc:pn532_uart:\(bench.directory)/pn532", "--positioner", "gcode",
                "--rig", bench.directory + "/rig.conf", "--auto", "--tap-timeout", "0.1", "--db", db, "--report",
                scratch.file("volume.html"), "--plan", "raster", "--step-mm", "14", "--heights", "0,4,8,12,16", "--json",
            ],
            environment: bench.environment)
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])

        let csv = try await BuiltBinary.run(["export", "--all", "--format", "csv", "--db", db])
        let lines = csv.stdout.split(separator: "\r\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        let header = lines[0].map(String.init)
        func column(_ name: String) -> Int { header.firstIndex(of: name)! }
        let (x, y, h, result) = (column("probe_x"), column("probe_y"), column("height_mm"), column("result"))
        // The world `sim serve` runs by default: two loops, the emulated PN532 module's
        // antenna under the phone's coil (docs/physics.md); a sure read where |M| clears the
        // threshold by far more than its spread at that height, none where it falls far short.
        var phone = SimulatedPhone(antenna: coil, aspectRatio: 70.6 / 147, missRate: 0)
        phone.readHeightMm = 16
        let module = ReaderAntennaProfile.pn532Module
        phone.couplingModel = .mutualInductance(
            PhysicalBench(
                reader: ReaderAntenna(widthMm: module.antennaWidthMm, heightMm: module.antennaHeightMm), bodyHeightMm: 147,
                gapMm: module.gapMm))
        var tapped: [String: [(height: Double, read: Bool)]] = [:]
        var checked = (sure: 0, never: 0)
        for row in lines.dropFirst() where row.count == header.count {
            let px = Double(row[x])!, py = Double(row[y])!, height = Double(row[h])!
            let read = row[result] == "HIT"
            tapped["\(row[x]),\(row[y])", default: []].append((height, read))
            // Sure and never within 1e-4 a tap: |M| clears the threshold, or falls short of it,
            // by more than 3.7 of its placement-to-placement spreads.
            let p = phone.detectionProbability(x: px, y: py, heightMm: height)
            if p >= 1 - 1e-4 {
                #expect(read, "(\(px), \(py)) at \(height) mm should read (p = \(p))")
                checked.sure += 1
            } else if p <= 1e-4 {
                #expect(!read, "(\(px), \(py)) at \(height) mm should not read (p = \(p))")
                checked.never += 1
            }
        }
        #expect(checked.sure > 10 && checked.never > 25, "\(checked)")
        #expect(summary["taps"] as? Int == lines.count - 1, "every tap, at every height, is in the summary's count")
        // A position that missed was not tapped higher; every one was tapped on the back.
        let raster = try #require(RasterPlan(stepMm: 14, bodyWidthMm: 70.6, bodyHeightMm: 147))
        #expect(tapped.count == raster.order.count)
        for (point, taps) in tapped {
            #expect(taps.first?.height == 0, "\(point)")
            let firstMiss = taps.firstIndex { !$0.read } ?? taps.count
            #expect(firstMiss >= taps.count - 1, "\(point) was tapped higher after a miss: \(taps)")
        }
        // The middle of the coil reads up to the top of its reach and no higher.
        let report = try String(contentsOfFile: scratch.file("volume.html"), encoding: .utf8)
        #expect(report.contains("<h3>Operating volume</h3>") && report.contains("read height: darker reads higher"))
        // Refine uses the taps on the back; --at-height refines a layer above, which reads
        // over a smaller area (the field's reach shrinks with height).
        func refinedArea(_ extra: [String]) async throws -> Double {
            let r = try await BuiltBinary.run(
                ["refine", "--model", "SM-S921B", "--include-simulated", "--json", "--db", db] + extra)
            #expect(r.status == 0, "\(r.stderr)")
            let report = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
            let entry = try #require((report["entries"] as? [[String: Any]])?.first)
            let zone = try #require(entry["measuredZone"] as? [String: Double])
            return zone["zoneWidth"]! * zone["zoneHeight"]!
        }
        let onBack = try await refinedArea([])
        let above = try await refinedArea(["--at-height", "8"])
        #expect(above < onBack * 0.8, "at 8 mm \(above) vs on the back \(onBack)")
    }

    /// Heights need a positioner that can hold the reader above the back, and a plan
    /// whose positions are fixed; both refused before anything is stored.
    @Test func heightsAreRefusedWithoutAMachineOrWithAnAdaptivePlan() async throws {
        let db = scratch.file("refused.sqlite")
        let common = ["run", "--model", "SM-S921B", "--reader", "sim", "--auto", "--db", db, "--no-report"]
        let exec = try await BuiltBinary.run(common + ["--positioner", "exec:true", "--plan", "grid", "--heights", "0,5"])
        #expect(
            exec.status == 64 && exec.stderr.contains("--heights needs a positioner that can hold the reader"), "\(exec.stderr)")
        let adaptive = try await BuiltBinary.run(common + ["--heights", "0,5"])
        #expect(adaptive.status == 64 && adaptive.stderr.contains("--plan grid or --plan raster"), "\(adaptive.stderr)")
        for bad in ["5,10", "0,10,5", "0,inf", "0,1e309", "0,,5"] {
            let r = try await BuiltBinary.run(common + ["--plan", "grid", "--heights", bad])
            #expect(r.status == 64 && r.stderr.contains("Invalid value"), "\(bad): \(r.stderr)")
        }
        let sessions = try await BuiltBinary.run(["sessions", "--db", db, "--json"])
        #expect(sessions.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]", "\(sessions.stdout)")
    }

    /// The in-process simulated phone takes heights too (demos and studies): the layers
    /// above the back are tapped, stored and exported, and the verdict's count is the back's.
    @Test func theSimulatedReaderTapsAtHeights() async throws {
        let db = scratch.file("sim.sqlite")
        let r = try await BuiltBinary.run(
            [
                "run", "--model", "SM-S921B", "--reader", "sim", "--auto", "--db", db, "--no-report", "--plan", "grid",
                "--heights", "0,5", "--tap-timeout", "0.1", "--json",
            ])
        #expect(r.status == 0, "\(r.stderr)")
        let csv = try await BuiltBinary.run(["export", "--all", "--format", "csv", "--db", db])
        let rows = csv.stdout.split(separator: "\r\n").dropFirst()
        // height_mm, then an empty coupling and ladder (no --coupling), and no room given.
        let above = rows.filter { $0.hasSuffix(",5.000,,,,") }.count
        let onBack = rows.filter { $0.hasSuffix(",0.000,,,,") }.count
        #expect(onBack >= 15, "\(onBack) taps on the back")
        #expect(above > 0 && above < onBack, "\(above) taps at 5 mm")
    }
}
