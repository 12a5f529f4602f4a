import Foundation
import Glibc
import NFCBench
import NFCBenchRecords
import NFCBenchSeams
import NFCBenchStoreSQLite
import NFCLocatorCore
import NFCStore
import NFCTestSupport
import Testing

@Suite("nfcbench run through the virtual bench")
struct RunEndToEndTests {
    let scratch: TemporaryDirectory
    init() throws { scratch = try TemporaryDirectory("e2e") }

    /// Positions of the S24's first grid pass: its predicted zone's own probes, then the cells.
    static let s24GridPositions = GridPlan(
        around: try! NormalizedRect(x: 0.1, y: 0.36, width: 0.8, height: 0.38), aspectRatio: 0.4803
    ).order.count

    @Test func simulatedSessionJSONSummary() async throws {
        let db = scratch.database()
        let r = try await BuiltBinary.run([
            "run", "--plan", "grid", "--model", "SM-S921B", "--reader", "sim", "--auto", "--tap-timeout", "0.3",
            "--sim-antenna", "0.03,0.07,0.67,0.27", "--sim-seed", "3", "--db", db, "--json",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let o = try jsonObject(r.stdout)
        for key in ["sessionId", "model", "lookupKey", "verdict", "predictedZone", "measuredZone", "iou", "taps", "hits"] {
            #expect(o[key] != nil, "\(key) missing")
        }
        #expect(o["verdict"] as? String == "SHIFTED" && o["taps"] as? Int == Self.s24GridPositions)
        #expect(o["lookupKey"] as? String == "sm_s921b" && o["simulated"] as? Bool == true)
        #expect((o["verdictReason"] as? String)?.contains("predicted zone") == true, "\(o)")
        #expect((o["predictedZone"] as? [String: Double])?["y"] == 0.36)
    }

    /// A mistyped `--db` on a command that reads the store is an error naming the path,
    /// never a new empty database that hides where the sessions are.
    @Test(arguments: [
        ["sessions"], ["show", "S-1"], ["export", "--all"], ["refine", "--all"], ["void", "S-1", "--reason", "x"],
    ])
    func readingCommandsNeverCreateADatabase(_ command: [String]) async throws {
        let missing = scratch.file("typo.sqlite")
        let r = try await BuiltBinary.run(command + ["--db", missing])
        #expect(r.status == 1 && r.stderr.contains("No session database at \(missing)"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: missing))
    }

    /// The operator is told, before the first position, that nothing here is bench evidence.
    @Test func aSimulatedRunSaysSoUpFront() async throws {
        let r = try await BuiltBinary.run([
            "run", "--model", "SM-S921B", "--reader", "sim", "--auto", "--tap-timeout", "0.1", "--plan", "adaptive",
            "--db", scratch.database(),
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let warning = try #require(r.stdout.range(of: "SIMULATED reader"), "\(r.stdout)")
        let firstPosition = try #require(r.stdout.range(of: "Position 1 of "))
        #expect(warning.lowerBound < firstPosition.lowerBound)
        // An adaptive run counts with its bounds, places in millimetres on the back, and
        // an --auto run shows no key help (no keys are read).
        #expect(
            r.stdout.range(
                of: "Position 1 of \\d+\u{2013}\\d+ \\(\\d+ if the prediction is right\\)", options: .regularExpression) != nil,
            "\(r.stdout)")
        #expect(r.stdout.contains("measured on the back of the phone facing you, top edge up"))
        #expect(r.stdout.contains(": reader centre ") && r.stdout.contains(" mm "))
        #expect(!r.stdout.contains("r retry"), "\(r.stdout)")
        // The seed's S24 zone is stale: the bench says what its plan does, not a phone app's "sweep slowly".
        #expect(r.stdout.contains("the plan also taps around it") && !r.stdout.lowercased().contains("sweep"), "\(r.stdout)")
    }

    /// Issue 52: nobody watches an unattended run, so each position says the pace and the time
    /// left; an adaptive run past the count a right prediction needs says only its bound
    /// ("Position 141 of 135-210 (135 if the prediction is right)" had gone stale).
    @Test func anUnattendedRunSaysItsPaceAndNeverAStaleCount() async throws {
        // The phone's coil far from the seed's prediction: the plan runs past its likely count.
        let r = try await BuiltBinary.run([
            "run", "--model", "SM-S921B", "--reader", "sim", "--auto", "--tap-timeout", "0.1", "--plan", "adaptive",
            "--sim-antenna", "0.05,0.05,0.3,0.12", "--db", scratch.database(), "--no-report",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n").map(String.init).filter { $0.hasPrefix("Position ") }
        #expect(lines.count > 6, "\(r.stdout)")
        #expect(lines.dropFirst(4).allSatisfy { $0.contains(" positions/min, ") && $0.contains(" left)") }, "\(lines)")
        let likely = try #require(
            lines.first.flatMap { $0.firstMatch(of: /of (\d+)–/) }.flatMap { Int($0.1) }, "\(lines.first ?? "")")
        #expect(lines.count > likely, "the run stopped at the likely count; pick a coil further off")
        for line in lines.dropFirst(likely) {
            #expect(!line.contains("if the prediction is right") && line.contains(" of at most "), "\(line)")
        }
    }

    /// An iPhone presents its Wallet card for about a minute: the run reminds the operator,
    /// and says how to avoid a MISS for a card that was not presenting.
    @Test func iPhoneRunsRemindToPresentTheCard() async throws {
        let r = try await BuiltBinary.run([
            "run", "--model", "iPhone 14 Pro", "--reader", "sim", "--auto", "--tap-timeout", "0.1", "--db", scratch.database(),
            "--no-report",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("iPhone: present the card again now") && r.stdout.contains("press r"), "\(r.stdout)")
        let android = try await BuiltBinary.run([
            "run", "--model", "SM-S921B", "--reader", "sim", "--auto", "--tap-timeout", "0.1", "--db", scratch.database(),
            "--no-report",
        ])
        #expect(!android.stdout.contains("iPhone: present"))
    }

    @Test func sessionsOfAModelIncludeEveryRegionalVariant() async throws {
        let db = scratch.database()
        for model in ["SM-S921B", "SM-S921U2", "SM-S911B"] {
            let r = try await BuiltBinary.run([
                "run", "--model", model, "--reader", "sim", "--auto", "--tap-timeout", "0.1",
                "--plan", "adaptive", "--db", db, "--json",
            ])
            #expect(r.status == 0, "\(r.stderr)")
        }
        let listed = try await BuiltBinary.run(["sessions", "--model", "SM-S921N", "--db", db, "--json"])
        let keys = (try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as! [[String: Any]]).map {
            $0["lookupKey"] as! String
        }
        #expect(keys.sorted() == ["sm_s921b", "sm_s921u2"])
        let csv = try await BuiltBinary.run(["export", "--model", "SM-S921B", "--db", db])
        #expect(csv.stdout.contains(",sm_s921u2,") && !csv.stdout.contains(",sm_s911b,"))
    }

    @Test func overLibnfcWithTheSimPositioner() async throws {
        let bench = try TestBench(antenna: (0.1, 0.36, 0.8, 0.38))
        let db = scratch.database()
        let r = try await BuiltBinary.run([
            "run", "--model", "SM-S921B", "--reader", bench.spec, "--positioner", "sim",
            "--plan", "adaptive", "--auto", "--tap-timeout", "1", "--db", db, "--json",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let o = try jsonObject(r.stdout)
        #expect(o["verdict"] as? String == "CONFIRMED" && (o["iou"] as? Double ?? 0) > 0.7)
        #expect((o["reader"] as? String)?.hasPrefix("libnfc:pn532_uart:") == true)
        let sessions = try await BuiltBinary.run(["sessions", "--db", db, "--json"])
        #expect(sessions.stdout.contains("\"status\": \"completed\""))
    }

    @Test func anExecPositionerDrivesTheVirtualBench() async throws {
        let bench = try TestBench(antenna: (0.1, 0.36, 0.8, 0.38))
        let db = scratch.database()
        let log = bench.directory + "/moves.log"
        let template =
            "exec:echo {action} {index} {x} {y} >> \(log) && \(BuiltBinary.path) sim ctl --dir \(bench.directory) {action} {x} {y} > /dev/null"
        let r = try await BuiltBinary.run([
            "run", "--plan", "grid", "--model", "SM-S921B", "--reader", bench.spec, "--positioner", template,
            "--auto", "--tap-timeout", "1", "--db", db, "--json",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try jsonObject(r.stdout)["verdict"] as? String == "CONFIRMED")
        let moves = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        #expect(moves.first == "place 0 0.5000 0.5500" && moves.contains("lift 0"))  // the predicted centre first
        // Every position of the pass was placed (a window the loaded machine made slow is a
        // fault, and its position is placed again: counted once).
        let placed = Set(moves.filter { $0.hasPrefix("place") }.map { $0.split(separator: " ")[1] })
        #expect(placed.count == Self.s24GridPositions, "\(moves)")
    }

    @Test func aFailingPositionerStopsCleanlyAndTheSessionResumes() async throws {
        let db = scratch.database()
        let r = try await BuiltBinary.run([
            "run", "--model", "SM-S921B", "--reader", "sim", "--positioner", "exec:test {index} -lt 3",
            "--auto", "--tap-timeout", "0.2", "--db", db,
        ])
        #expect(r.status == 1 && r.stderr.contains("Positioner failed") && r.stderr.contains("--resume"))
        // The hint resumes the session as it ran: its reader, its positioner and --auto.
        #expect(
            r.stderr.contains("--db \(db) --reader sim --positioner 'exec:test {index} -lt 3' --auto"), "\(r.stderr)")
        let list =
            try jsonObject("{\"s\":" + (try await BuiltBinary.run(["sessions", "--db", db, "--json"])).stdout + "}")["s"]
            as! [[String: Any]]
        #expect(list.count == 1 && list[0]["status"] as? String == "in_progress" && list[0]["taps"] as? Int == 3)
        let id = try #require(list[0]["sessionId"] as? String)
        let resumed = try await BuiltBinary.run([
            "run", "--resume", id, "--reader", "sim", "--positioner", "sim", "--auto",
            "--tap-timeout", "0.2", "--db", db, "--json",
        ])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        let summary = try jsonObject(resumed.stdout)
        #expect(summary["status"] as? String == "completed" && summary["sessionId"] as? String == id)
        // The three taps taken before the failure count once, followed by the rest of the plan.
        let store = try await SQLiteBenchStore.open(path: db)
        let stored = try await store.taps(id)
        #expect(summary["taps"] as? Int == stored.count && stored.count > 3)
        #expect(stored.map(\.step) == Array(0..<stored.count), "\(stored.map(\.step))")
    }

    /// The cable is pulled at the fourth position and plugged back a second later: the
    /// run says so, records nothing while the reader is gone, reopens it and goes on.
    @Test func aReaderUnpluggedMidRunPausesAndContinuesWhenItIsBack() async throws {
        let bench = try TestBench(antenna: (0.1, 0.36, 0.8, 0.38))
        let db = scratch.database()
        let ctl = "\(BuiltBinary.path) sim ctl --dir \(bench.directory)"
        let once = bench.directory + "/unplugged"
        let unplug =
            "if [ {index} -eq 3 ] && [ ! -e \(once) ]; then touch \(once); \(ctl) fault unplug > /dev/null;"
            + " (sleep 1; \(ctl) fault none) > /dev/null 2>&1 & fi; "
        let r = try await BuiltBinary.run([
            "run", "--plan", "grid", "--model", "SM-S921B", "--reader", bench.spec, "--positioner",
            "exec:\(unplug)\(ctl) {action} {x} {y} > /dev/null",
            // Long enough to outlast a loaded runner: the emulated PN532 is a thread of the
            // test process, and when the parallel suite starves it, polls exceed the 900 ms
            // a clean one takes and the run (rightly) waits as for a faulty reader.
            "--auto", "--tap-timeout", "1", "--fault-timeout", "180", "--db", db,
        ])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("READER LOST") && r.stdout.contains("position 4 is tapped again"), "\(r.stdout)")
        let store = try await SQLiteBenchStore.open(path: db)
        let s = try #require(try await store.sessions().first)
        let taps = try await store.taps(s.id)
        #expect(s.status == .completed && taps.count == Self.s24GridPositions && Set(taps.map(\.step)).count == taps.count)
        #expect(s.verdict == .confirmed, "\(s.verdictReason ?? "")")
    }

    /// A reader that stays gone: after --fault-timeout the session is saved, resumable,
    /// with only the taps taken before.
    @Test func aReaderThatStaysUnpluggedStopsTheRunResumable() async throws {
        let bench = try TestBench(antenna: (0.1, 0.36, 0.8, 0.38))
        let db = scratch.database()
        let ctl = "\(BuiltBinary.path) sim ctl --dir \(bench.directory)"
        let r = try await BuiltBinary.run([
            "run", "--plan", "grid", "--model", "SM-S921B", "--reader", bench.spec,
            "--positioner", "exec:[ {index} -eq 3 ] && \(ctl) fault unplug > /dev/null; \(ctl) {action} {x} {y} > /dev/null",
            "--auto", "--tap-timeout", "1", "--fault-timeout", "2", "--db", db,
        ])
        #expect(r.status == 1)
        #expect(r.stderr.contains("did not answer properly for 2 s") && r.stderr.contains("is saved"), "\(r.stderr)")
        #expect(r.stderr.contains("nfcbench run --resume S-"))
        let store = try await SQLiteBenchStore.open(path: db)
        let s = try #require(try await store.sessions().first)
        let taps = try await store.taps(s.id)
        #expect(s.status == .inProgress && taps.count == 3)
    }

    @Test func ctrlCSavesTheSessionAndSaysHowToResume() async throws {
        let db = scratch.database()
        let process = try BuiltBinary.start([
            "run", "--model", "SM-S921B", "--reader", "sim", "--positioner", "exec:sleep 0.1",
            "--auto", "--tap-timeout", "0.3", "--db", db,
        ])
        // Interrupt while it waits for the phone: after the session exists, before it ends.
        #expect(await ChildProcess.waitForText(process.standardOutput as! Pipe, "waiting up to"))
        process.interrupt()
        let stderr = String(decoding: await ChildProcess.drain(process.standardError as! Pipe), as: UTF8.self)
        await ChildProcess.exit(of: process)
        #expect(process.terminationStatus == 130)
        #expect(stderr.contains("saved (interrupted); resume with: nfcbench run --resume S-"), "\(stderr)")
        #expect(stderr.contains("--reader sim --positioner 'exec:sleep 0.1' --auto"), "\(stderr)")
        let store = try await SQLiteBenchStore.open(path: db)
        #expect(try await store.sessions().first?.status == .inProgress)
    }

    @Test(arguments: [2, 6, 11])
    func resumeAfterKill9LosesAndDuplicatesNothing(killAfter: Int) async throws {
        let db = scratch.database()
        // The positioner holds the move to position `killAfter` (every earlier tap is
        // committed by then) until the test has killed the run: however slowly the test
        // is scheduled, the run cannot finish first.
        let held = scratch.file("held"), release = scratch.file("release")
        let process = try BuiltBinary.start([
            "run", "--plan", "grid", "--model", "SM-S921B", "--reader", "sim", "--positioner",
            "exec:if [ {action} = place ] && [ {index} -eq \(killAfter) ]; then touch \(held);"
                + " while [ ! -e \(release) ]; do sleep 0.05; done; fi",
            "--auto", "--tap-timeout", "0.2", "--db", db,
        ])
        let deadline = Date().addingTimeInterval(60)
        while !FileManager.default.fileExists(atPath: held) && Date() < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(FileManager.default.fileExists(atPath: held), "the run never reached position \(killAfter)")
        kill(process.processIdentifier, SIGKILL)
        // The orphaned mover holds the run's output pipes: let it end before waiting for EOF.
        _ = FileManager.default.createFile(atPath: release, contents: nil)
        await ChildProcess.exit(of: process)
        let store = try await SQLiteBenchStore.open(path: db)
        let session = try #require(try await store.sessions().first)
        let before = try await store.taps(session.id)
        #expect(before.count >= killAfter && session.status == .inProgress)
        let resumed = try await BuiltBinary.run([
            "run", "--resume", session.id, "--positioner", "sim", "--auto", "--db", db, "--json",
        ])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        let after = try await store.taps(session.id)
        #expect(after.count == Self.s24GridPositions && Set(after.map(\.step)) == Set(0..<Self.s24GridPositions))
        for tap in before { #expect(after.contains(tap), "committed tap \(tap.step) changed or vanished") }
    }
}

@Suite("CSV export and the store's schema")
struct ExportAndSchemaTests {
    let scratch: TemporaryDirectory
    init() throws { scratch = try TemporaryDirectory("e2e") }

    @Test func goldenHeaderAndInjectionNeutralised() async throws {
        let db = scratch.database()
        let r = try await BuiltBinary.run([
            "run", "--plan", "grid", "--model", "=HYPERLINK(\"x\")", "--allow-unknown", "--reader", "sim", "--auto",
            "--tap-timeout", "0.1",
            "--unit", "+1,\"unit\"\nB", "--operator", "@ops", "--sim-antenna", "0.1,0.1,0.8,0.4", "--station", "bench-9",
            "--db", db, "--json",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let id = try #require(
            (try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])?["sessionId"] as? String)
        let csv = try await BuiltBinary.run(["export", "--session", id, "--format", "csv", "--db", db])
        let lines = csv.stdout.components(separatedBy: "\r\n")
        #expect(
            lines[0]
                == "session_id,session_status,model_input,lookup_key,display_name,unit,operator,reader,reader_firmware,plan,verdict,predicted_x,predicted_y,predicted_width,predicted_height,confidence,source,stale,catalog_version,session_started_at,session_ended_at,probe_index,attempt,probe_x,probe_y,inside_predicted,result,latency_ms,technology,uid,atqa,sak,ats,atr,timestamp,simulated,void_reason,station,mode,tag_progress,placement,window_s,platform_probe,height_mm,coupling,coupling_ladder,temperature_c,humidity_pct"
        )
        #expect(
            lines[1].hasPrefix(
                "\(id),completed,\"'=HYPERLINK(\"\"x\"\")\",_hyperlink_x_,,\"'+1,\"\"unit\"\"\nB\",'@ops,sim,nfcbench-sim,grid,"))
        // Simulated, not void, its station, card mode, no tag progress, placed by the sim positioner.
        #expect(lines[1].hasSuffix(",true,,bench-9,card,,positioner,0.100,android,0.000,,,,"), "\(lines[1])")
        // Header, one row per grid cell (an unknown model has no predicted zone), trailing empty.
        #expect(lines.count == 1 + GridPlan(around: nil).order.count + 1)
        let o = scratch.url.appendingPathComponent("export.csv")
        #expect(try await BuiltBinary.run(["export", "--all", "-o", o.path, "--db", db]).status == 0)
        #expect(try String(contentsOf: o, encoding: .utf8) == csv.stdout)
    }

    /// `-o` replaces a report only with a complete one, and never writes over the store.
    @Test func exportNeverDestroysAFile() async throws {
        let db = scratch.database()
        let run = try await BuiltBinary.run([
            "run", "--model", "SM-S921B", "--reader", "sim", "--auto", "--tap-timeout", "0.1", "--plan", "adaptive",
            "--db", db,
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let report = scratch.file("report.csv")
        #expect(try await BuiltBinary.run(["export", "--all", "-o", report, "--db", db]).status == 0)
        let good = try String(contentsOfFile: report, encoding: .utf8)
        #expect(chmod(report, 0o640) == 0)
        #expect(try await BuiltBinary.run(["export", "--all", "-o", report, "--db", db]).status == 0)
        #expect(try String(contentsOfFile: report, encoding: .utf8) == good)
        let mode = try FileManager.default.attributesOfItem(atPath: report)[.posixPermissions] as? Int
        #expect(mode == 0o640, "the replaced report keeps its permissions")
        // The database and its journal are refused before anything is opened for writing.
        for target in [db, db + "-wal"] {
            let r = try await BuiltBinary.run(["export", "--all", "-o", target, "--db", db])
            #expect(r.status == 1 && r.stderr.contains("is the session database"), "\(r.stderr)")
        }
        #expect(try await BuiltBinary.run(["sessions", "--db", db]).stdout.contains("SM-S921B"))
        // A device is written in place, never renamed over; its write errors are reported.
        let full = try await BuiltBinary.run(["export", "--all", "-o", "/dev/full", "--db", db])
        #expect(full.status == 1 && full.stderr.contains("No space left on device"), "\(full.stderr)")
        var device = stat()
        #expect(stat("/dev/full", &device) == 0 && device.st_mode & S_IFMT == S_IFCHR)
        // A damaged tap row leaves its session out, whole, and says so; the export goes on,
        // and exits 4: partial (issue 49, F14).
        try SQLiteDatabase(path: db).execute("UPDATE tap SET probe_x = 1e20 WHERE step = (SELECT MAX(step) FROM tap)")
        let partial = try await BuiltBinary.run(["export", "--all", "-o", report, "--db", db])
        #expect(
            partial.status == 4 && partial.stderr.contains("1 damaged session(s) left out") && partial.stderr.contains("probe_x"),
            "\(partial.stderr)")
        #expect(try String(contentsOfFile: report, encoding: .utf8) == CSVFormat.header, "no row of the damaged session")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).filter { $0.hasPrefix(".report") }
        #expect(leftovers.isEmpty, "temporary files left: \(leftovers)")
        let nowhere = try await BuiltBinary.run(["export", "--all", "-o", scratch.file("no/such/folder.csv"), "--db", db])
        #expect(nowhere.status == 1 && nowhere.stderr.contains("Check that the folder exists"), "\(nowhere.stderr)")
    }

    @Test func exportSelectionIsAUsageError() async throws {
        let r = try await BuiltBinary.run(["export", "--db", scratch.database()])
        #expect(r.status == 64 && r.stderr.contains("Choose what to export"))
    }
}
