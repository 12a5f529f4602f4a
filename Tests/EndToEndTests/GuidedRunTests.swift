import Foundation
import NFCBench
import NFCLocatorCore
import NFCReaders
import NFCStore
import Testing

func temporaryDatabase() -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("bench-\(UUID().uuidString).sqlite").path
}

@Suite("Plans and scoring")
struct PlanAndScoreTests {
    let s24 = try! NormalizedRect(x: 0.1, y: 0.36, width: 0.8, height: 0.38)

    @Test func gridStartsAtThePredictionAndCoversTheBack() {
        let plan = GridPlan(around: s24)
        #expect(plan.order.count == 15 && Set(plan.order).count == 15)
        #expect(plan.order[0] == Probe(x: 0.5, y: 0.5))  // the cell holding the predicted centre (0.5, 0.55)
        let top = GridPlan(around: try! NormalizedRect(x: 0.25, y: 0.04, width: 0.5, height: 0.24))
        #expect(top.order[0] == Probe(x: 0.5, y: 0.1))
    }

    @Test func adaptiveConfirmsARightPredictionInFewerTapsThanTheGrid() {
        let adaptive = AdaptivePlan(around: s24)
        let probes = adaptive.expectedProbes(for: s24)
        #expect(probes.count == 9 && probes.count < GridPlan(around: s24).order.count)
        #expect(probes[0] == Probe(x: 0.5, y: 0.55))
        let history = probes.map { (probe: $0, hit: s24.contains(x: $0.x, y: $0.y)) }
        let measured = try! #require(adaptive.measuredZone(from: history))
        #expect(measured.iou(with: s24) > 0.85)
    }

    @Test func adaptiveFindsAZoneFarFromThePrediction() {
        let truth = try! NormalizedRect(x: 0.03, y: 0.07, width: 0.67, height: 0.27)  // where Samsung draws the S24 coil
        let adaptive = AdaptivePlan(around: s24)
        var history: [(probe: Probe, hit: Bool)] = []
        while let p = adaptive.next(after: history), history.count < 40 {
            history.append((p, truth.contains(x: p.x, y: p.y)))
        }
        #expect(history.count < 40)
        #expect(adaptive.measuredZone(from: history)!.iou(with: truth) > 0.6)
    }

    @Test(arguments: [
        ("equal", SessionScore.Verdict.confirmed),
        ("shifted", .shifted),
        ("absent", .noField),
        ("tooFew", .inconclusive),
    ])
    func verdicts(case name: String, verdict: SessionScore.Verdict) {
        let plan = GridPlan(around: s24)
        let truth: NormalizedRect? = switch name {
        case "equal": s24
        case "shifted": try! NormalizedRect(x: 0.03, y: 0.03, width: 0.67, height: 0.3)
        default: nil
        }
        let probes = name == "tooFew" ? Array(plan.order.prefix(2)) : plan.order
        let history = probes.map { (probe: $0, hit: truth?.contains(x: $0.x, y: $0.y) ?? false) }
        let score = SessionScore(predicted: s24, history: history, strategy: plan, aspectRatio: 0.48)
        #expect(score.verdict == verdict)
        if name == "equal" { #expect(score.centreHit == true && (score.iou ?? 0) >= 0.5) }
        if name == "absent" { #expect(score.measured == nil && score.hits == 0) }
    }

    @Test func positionsInWords() {
        #expect(Probe(x: 0.2, y: 0.1).words == "upper third, left of centre")
        #expect(Probe(x: 0.5, y: 0.5).words == "middle third, centred")
        #expect(Probe(x: 0.9, y: 0.9).words == "lower third, right of centre")
    }
}

@Suite("Guided runs")
struct GuidedRunTests {
    func session(_ id: String, plan: PlanKind = .grid, predicted: NormalizedRect) -> SessionRecord {
        SessionRecord(id: id, modelInput: "SM-S921B", lookupKey: "sm_s921b", displayName: "Galaxy S24",
                      predicted: [predicted.x, predicted.y, predicted.width, predicted.height], confidence: "approximate",
                      source: "seedCatalog", stale: true, catalogVersion: "test", aspectRatio: 0.4803,
                      readerBackend: "sim", readerName: "sim", readerFirmware: nil, unit: "unit-1", operatorName: "t",
                      planKind: plan.rawValue, planJSON: "[]", repeats: 1, tapTimeout: 0.25, startedAt: Date())
    }

    @Test(arguments: [
        ((0.1, 0.36, 0.8, 0.38), "CONFIRMED"),
        ((0.03, 0.07, 0.67, 0.27), "SHIFTED"),
    ])
    func inProcessSessionScoresTheTruth(truth: (Double, Double, Double, Double), verdict: String) async throws {
        let predicted = try NormalizedRect(x: 0.1, y: 0.36, width: 0.8, height: 0.38)
        let store = try BenchStore(path: temporaryDatabase())
        let bench = PhoneOnBench(phone: SimulatedPhone(antenna: truth, aspectRatio: 0.4803, missRate: 0), seed: 4)
        var record = session("S-test", predicted: predicted)
        try await store.insert(record)
        record.readerName = "sim"
        let run = GuidedRun(session: record, strategy: GridPlan(around: predicted), reader: SimulatedReader(bench: bench),
                            positioner: SimulatedPositioner(bench: bench), store: store)
        let score = try #require(try await run.run { _ in })
        #expect(score.verdict.rawValue == verdict && score.taps == 15)
        let saved = try #require(try await store.session("S-test"))
        #expect(saved.status == .completed && saved.verdict == verdict && saved.endedAt != nil)
        #expect(try await store.taps("S-test").count == 15)
    }

    @Test func repeatsTapEachPositionNTimes() async throws {
        let predicted = try NormalizedRect(x: 0.1, y: 0.36, width: 0.8, height: 0.38)
        let store = try BenchStore(path: temporaryDatabase())
        let bench = PhoneOnBench(phone: SimulatedPhone(antenna: (0.1, 0.36, 0.8, 0.38), missRate: 0), seed: 9)
        var record = session("S-repeats", predicted: predicted)
        record.repeats = 2
        try await store.insert(record)
        let run = GuidedRun(session: record, strategy: GridPlan(around: predicted), reader: SimulatedReader(bench: bench),
                            positioner: SimulatedPositioner(bench: bench), store: store)
        let score = try #require(try await run.run { _ in })
        let taps = try await store.taps("S-repeats")
        #expect(taps.count == 30 && Set(taps.map { "\($0.step)-\($0.attempt)" }).count == 30)
        #expect(score.taps == 15 && score.verdict == .confirmed)
    }

    @Test func noFieldWhenThePhoneNeverAnswers() async throws {
        let predicted = try NormalizedRect(x: 0.1, y: 0.36, width: 0.8, height: 0.38)
        let store = try BenchStore(path: temporaryDatabase())
        let bench = PhoneOnBench(phone: SimulatedPhone(antenna: (0.1, 0.36, 0.8, 0.38), missRate: 1), seed: 1)
        let record = session("S-nofield", predicted: predicted)
        try await store.insert(record)
        let run = GuidedRun(session: record, strategy: GridPlan(around: predicted), reader: SimulatedReader(bench: bench),
                            positioner: SimulatedPositioner(bench: bench), store: store)
        #expect(try await run.run { _ in }?.verdict == .noField)
    }

    @Test func operatorSkipUndoAndQuit() async throws {
        let predicted = try NormalizedRect(x: 0.1, y: 0.36, width: 0.8, height: 0.38)
        let store = try BenchStore(path: temporaryDatabase())
        let bench = PhoneOnBench(phone: SimulatedPhone(antenna: (0.1, 0.36, 0.8, 0.38), missRate: 0), seed: 2)
        let record = session("S-keys", predicted: predicted)
        try await store.insert(record)
        // The manual operator never places the phone: every wait is ended by a key.
        let (stream, keys) = AsyncStream<OperatorCommand>.makeStream()
        for key in [OperatorCommand.skip, .skip, .undo, .retry, .quit] { keys.yield(key) }
        let run = GuidedRun(session: record, strategy: GridPlan(around: predicted), reader: SimulatedReader(bench: bench),
                            positioner: ManualPositioner(), store: store)
        let score = try await run.run(commands: stream) { _ in }
        #expect(score == nil)  // quit: saved, not scored
        let taps = try await store.taps("S-keys")
        #expect(taps.map(\.result) == [.skipped] && taps[0].step == 0)
        #expect(try await store.session("S-keys")?.status == .inProgress)
    }
}

@Suite("nfcbench run through the virtual bench")
struct RunEndToEndTests {
    func json(_ text: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(text.utf8)) as! [String: Any]
    }

    @Test func simulatedSessionJSONSummary() async throws {
        let db = temporaryDatabase()
        let r = try await BuiltBinary.run(["run", "--model", "SM-S921B", "--reader", "sim", "--auto", "--tap-timeout", "0.3",
                                           "--sim-antenna", "0.03,0.07,0.67,0.27", "--sim-seed", "3", "--db", db, "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let o = try json(r.stdout)
        for key in ["sessionId", "model", "lookupKey", "verdict", "predictedZone", "measuredZone", "iou", "taps", "hits"] {
            #expect(o[key] != nil, "\(key) missing")
        }
        #expect(o["verdict"] as? String == "SHIFTED" && o["taps"] as? Int == 15 && o["lookupKey"] as? String == "sm_s921b")
        #expect((o["predictedZone"] as? [String: Double])?["y"] == 0.36)
    }

    @Test func sessionsOfAModelIncludeEveryRegionalVariant() async throws {
        let db = temporaryDatabase()
        for model in ["SM-S921B", "SM-S921U2", "SM-S911B"] {
            let r = try await BuiltBinary.run(["run", "--model", model, "--reader", "sim", "--auto", "--tap-timeout", "0.05",
                                               "--plan", "adaptive", "--db", db, "--json"])
            #expect(r.status == 0, "\(r.stderr)")
        }
        let listed = try await BuiltBinary.run(["sessions", "--model", "SM-S921N", "--db", db, "--json"])
        let keys = (try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as! [[String: Any]]).map { $0["lookupKey"] as! String }
        #expect(keys.sorted() == ["sm_s921b", "sm_s921u2"])
        let csv = try await BuiltBinary.run(["export", "--model", "SM-S921B", "--db", db])
        #expect(csv.stdout.contains(",sm_s921u2,") && !csv.stdout.contains(",sm_s911b,"))
    }

    @Test func overLibnfcWithTheSimPositioner() async throws {
        let bench = try TestBench(antenna: (0.1, 0.36, 0.8, 0.38))
        let db = temporaryDatabase()
        let r = try await BuiltBinary.run(["run", "--model", "SM-S921B", "--reader", bench.spec, "--positioner", "sim",
                                           "--plan", "adaptive", "--auto", "--tap-timeout", "1", "--db", db, "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let o = try json(r.stdout)
        #expect(o["verdict"] as? String == "CONFIRMED" && (o["iou"] as? Double ?? 0) > 0.7)
        #expect((o["reader"] as? String)?.hasPrefix("libnfc:pn532_uart:") == true)
        let sessions = try await BuiltBinary.run(["sessions", "--db", db, "--json"])
        #expect(sessions.stdout.contains("\"status\": \"completed\""))
    }

    @Test func anExecPositionerDrivesTheVirtualBench() async throws {
        let bench = try TestBench(antenna: (0.1, 0.36, 0.8, 0.38))
        let db = temporaryDatabase()
        let log = bench.directory + "/moves.log"
        let template = "exec:echo {action} {index} {x} {y} >> \(log) && \(BuiltBinary.path) sim ctl --dir \(bench.directory) {action} {x} {y} > /dev/null"
        let r = try await BuiltBinary.run(["run", "--model", "SM-S921B", "--reader", bench.spec, "--positioner", template,
                                           "--auto", "--tap-timeout", "1", "--db", db, "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try json(r.stdout)["verdict"] as? String == "CONFIRMED")
        let moves = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        #expect(moves.first == "place 0 0.5000 0.5000" && moves.contains("lift 0"))
        #expect(moves.filter { $0.hasPrefix("place") }.count == 15)
    }

    @Test func aFailingPositionerStopsCleanlyAndTheSessionResumes() async throws {
        let db = temporaryDatabase()
        let r = try await BuiltBinary.run(["run", "--model", "SM-S921B", "--reader", "sim", "--positioner", "exec:test {index} -lt 3",
                                           "--auto", "--tap-timeout", "0.2", "--db", db])
        #expect(r.status == 1 && r.stderr.contains("Positioner failed") && r.stderr.contains("--resume"))
        let list = try json("{\"s\":" + (try await BuiltBinary.run(["sessions", "--db", db, "--json"])).stdout + "}")["s"] as! [[String: Any]]
        #expect(list.count == 1 && list[0]["status"] as? String == "in_progress" && list[0]["taps"] as? Int == 3)
        let id = list[0]["id"] as! String
        let resumed = try await BuiltBinary.run(["run", "--resume", id, "--reader", "sim", "--positioner", "sim", "--auto",
                                                 "--tap-timeout", "0.2", "--db", db, "--json"])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(try json(resumed.stdout)["taps"] as? Int == 15)
    }

    @Test func aReaderUnpluggedMidRunSavesTheSessionAsResumable() async throws {
        let bench = try TestBench(antenna: (0.1, 0.36, 0.8, 0.38))
        let db = temporaryDatabase()
        // The positioner pulls the cable at the fourth position.
        let unplug = "[ {index} -eq 3 ] && \(BuiltBinary.path) sim ctl --dir \(bench.directory) fault unplug > /dev/null; "
        let move = "\(BuiltBinary.path) sim ctl --dir \(bench.directory) {action} {x} {y} > /dev/null"
        let r = try await BuiltBinary.run(["run", "--model", "SM-S921B", "--reader", bench.spec, "--positioner", "exec:\(unplug)\(move)",
                                           "--auto", "--tap-timeout", "1", "--db", db])
        #expect(r.status == 1)
        #expect(r.stderr.contains("disappeared (unplugged or powered off)") && r.stderr.contains("is saved"), "\(r.stderr)")
        #expect(r.stderr.contains("nfcbench run --resume S-"))
        let store = try BenchStore(path: db)
        let s = try #require(try await store.sessions().first)
        let taps = try await store.taps(s.id)
        #expect(s.status == .inProgress && taps.count == 3)
    }

    @Test func ctrlCSavesTheSessionAndSaysHowToResume() async throws {
        let db = temporaryDatabase()
        let process = try BuiltBinary.start(["run", "--model", "SM-S921B", "--reader", "sim", "--positioner", "exec:sleep 0.1",
                                             "--auto", "--tap-timeout", "0.3", "--db", db])
        // Interrupt while it waits for the phone: after the session exists, before it ends.
        #expect(await ChildProcess.waitForText(process.standardOutput as! Pipe, "waiting up to"))
        process.interrupt()
        let stderr = String(decoding: await ChildProcess.drain(process.standardError as! Pipe), as: UTF8.self)
        await ChildProcess.exit(of: process)
        #expect(process.terminationStatus == 130)
        #expect(stderr.contains("saved (interrupted); resume with: nfcbench run --resume S-"), "\(stderr)")
        let store = try BenchStore(path: db)
        #expect(try await store.sessions().first?.status == .inProgress)
    }

    @Test(arguments: [2, 6, 11])
    func resumeAfterKill9LosesAndDuplicatesNothing(killAfter: Int) async throws {
        let db = temporaryDatabase()
        // Each move takes 0.3 s, so the run cannot finish between two looks at the store.
        let process = try BuiltBinary.start(["run", "--model", "SM-S921B", "--reader", "sim", "--positioner", "exec:sleep 0.3",
                                             "--auto", "--tap-timeout", "0.2", "--db", db])
        // Wait until `killAfter` taps are committed, then kill without warning.
        var committed = 0
        let deadline = Date().addingTimeInterval(60)
        while committed < killAfter && Date() < deadline {
            try await Task.sleep(for: .milliseconds(20))
            if FileManager.default.fileExists(atPath: db), let reader = try? BenchReader(path: db) {
                committed = 0
                try? reader.forEachTap(sessions: nil) { _ in committed += 1 }
            }
        }
        kill(process.processIdentifier, SIGKILL)
        await ChildProcess.exit(of: process)
        let store = try BenchStore(path: db)
        let session = try #require(try await store.sessions().first)
        let before = try await store.taps(session.id)
        #expect(before.count >= killAfter && session.status == .inProgress)
        let resumed = try await BuiltBinary.run(["run", "--resume", session.id, "--positioner", "sim", "--auto", "--db", db, "--json"])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        let after = try await store.taps(session.id)
        #expect(after.count == 15 && Set(after.map(\.step)) == Set(0..<15))
        for tap in before { #expect(after.contains(tap), "committed tap \(tap.step) changed or vanished") }
    }
}

@Suite("CSV export and the store's schema")
struct ExportAndSchemaTests {
    @Test func goldenHeaderAndInjectionNeutralised() async throws {
        let db = temporaryDatabase()
        let r = try await BuiltBinary.run(["run", "--model", "=HYPERLINK(\"x\")", "--reader", "sim", "--auto", "--tap-timeout", "0.1",
                                           "--unit", "+1,\"unit\"\nB", "--operator", "@ops", "--sim-antenna", "0.1,0.1,0.8,0.4",
                                           "--db", db, "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let id = try #require((try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])?["sessionId"] as? String)
        let csv = try await BuiltBinary.run(["export", "--session", id, "--format", "csv", "--db", db])
        let lines = csv.stdout.components(separatedBy: "\r\n")
        #expect(lines[0] == "session_id,session_status,model_input,lookup_key,display_name,unit,operator,reader,reader_firmware,plan,verdict,predicted_x,predicted_y,predicted_width,predicted_height,confidence,source,stale,catalog_version,session_started_at,session_ended_at,probe_index,attempt,probe_x,probe_y,inside_predicted,result,latency_ms,technology,uid,atqa,sak,ats,atr,timestamp")
        #expect(lines[1].hasPrefix("\(id),completed,\"'=HYPERLINK(\"\"x\"\")\",_hyperlink_x_,,\"'+1,\"\"unit\"\"\nB\",'@ops,sim,nfcbench-sim,grid,"))
        #expect(csv.stdout.components(separatedBy: "\r\n").count == 17)  // header, 15 taps, trailing empty
        let o = FileManager.default.temporaryDirectory.appendingPathComponent("\(UUID().uuidString).csv")
        #expect(try await BuiltBinary.run(["export", "--all", "-o", o.path, "--db", db]).status == 0)
        #expect(try String(contentsOf: o, encoding: .utf8) == csv.stdout)
    }

    @Test func exportSelectionIsAUsageError() async throws {
        let r = try await BuiltBinary.run(["export", "--db", temporaryDatabase()])
        #expect(r.status == 64 && r.stderr.contains("Choose what to export"))
    }

    @Test func migratesAnOlderSchemaKeepingItsRecords() async throws {
        let path = temporaryDatabase()
        // A database as the first release wrote it: only migration 001.
        let old = try SQLiteDatabase(path: path)
        try old.execute("CREATE TABLE schema_migration (id TEXT PRIMARY KEY, applied_at REAL NOT NULL)")
        try old.execute(BenchStoreFixture.migration001)
        try old.execute("INSERT INTO schema_migration VALUES ('001-sessions-and-taps', 0)")
        try old.execute("""
            INSERT INTO session (id, model_input, lookup_key, confidence, source, stale, aspect_ratio, reader_backend, reader_name,
                plan_kind, plan_json, repeats, tap_timeout, status, started_at)
            VALUES ('S-old', 'SM-S911B', 'sm_s911b', 'exact', 'seedCatalog', 0, 0.4846, 'pcsc', 'pcsc:ACR122', 'grid', '[]', 1, 5,
                'completed', 1700000000);
            INSERT INTO tap (session_id, step, attempt, probe_x, probe_y, inside_predicted, result, timestamp)
            VALUES ('S-old', 0, 0, 0.5, 0.5, 1, 'HIT', 1700000001);
            """)
        let store = try BenchStore(path: path)
        #expect(try await store.appliedMigrations() == ["001-sessions-and-taps", "002-session-score", "003-grid-pass"])
        let s = try #require(try await store.session("S-old"))
        let oldTaps = try await store.taps("S-old")
        #expect(s.modelInput == "SM-S911B" && s.verdict == nil && s.planPass == 0 && oldTaps.count == 1)
    }

    @Test func aNewerSchemaIsRefused() async throws {
        let path = temporaryDatabase()
        _ = try BenchStore(path: path)
        try SQLiteDatabase(path: path).execute("INSERT INTO schema_migration VALUES ('999-from-the-future', 0)")
        #expect(throws: BenchStoreError.self) { try BenchStore(path: path) }
    }
}

enum BenchStoreFixture {
    /// Migration 001's SQL, frozen here as the first release shipped it.
    static let migration001 = """
        CREATE TABLE session (id TEXT PRIMARY KEY, model_input TEXT NOT NULL, lookup_key TEXT NOT NULL, display_name TEXT,
            zone_x REAL, zone_y REAL, zone_width REAL, zone_height REAL, confidence TEXT NOT NULL, source TEXT NOT NULL,
            stale INTEGER NOT NULL, catalog_version TEXT, aspect_ratio REAL NOT NULL, reader_backend TEXT NOT NULL,
            reader_name TEXT NOT NULL, reader_firmware TEXT, unit TEXT, operator TEXT, plan_kind TEXT NOT NULL,
            plan_json TEXT NOT NULL, repeats INTEGER NOT NULL, tap_timeout REAL NOT NULL, status TEXT NOT NULL,
            started_at REAL NOT NULL, ended_at REAL);
        CREATE TABLE tap (session_id TEXT NOT NULL REFERENCES session(id) ON DELETE CASCADE, step INTEGER NOT NULL,
            attempt INTEGER NOT NULL, probe_x REAL NOT NULL, probe_y REAL NOT NULL, inside_predicted INTEGER NOT NULL,
            result TEXT NOT NULL, latency_ms REAL, technology TEXT, uid TEXT, atqa TEXT, sak TEXT, ats TEXT, atr TEXT,
            timestamp REAL NOT NULL, PRIMARY KEY (session_id, step, attempt));
        CREATE INDEX session_by_model ON session(lookup_key, started_at);
        """
}
