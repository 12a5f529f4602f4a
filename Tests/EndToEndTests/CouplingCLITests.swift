import Foundation
import NFCLocatorCore
import NFCReaders
import NFCTestSupport
import Testing

/// `run --coupling` through the built binary on the emulated PN532 (docs/coupling.md):
/// each HIT graded down the analog ladder, and the reader's analog settings put back on
/// every way out, checked on the emulated chip's own item 0x0A.
@Suite("Graded coupling through the CLI")
struct CouplingCLITests {
    let scratch: TemporaryDirectory
    init() throws { scratch = try TemporaryDirectory("coupling") }

    /// The phone's true coil.
    static let coil = (x: 0.2, y: 0.5, width: 0.6, height: 0.3)

    func runArguments(_ bench: TestBench, plan: String = "grid") -> [String] {
        [
            "run", "--model", "SM-S921B", "--reader", bench.spec, "--positioner", "sim", "--sim-bench", bench.directory,
            "--auto", "--tap-timeout", "0.4", "--plan", plan, "--coupling", "--db", scratch.file("bench.sqlite"),
            "--no-report",
        ]
    }

    var environment: [String: String] { ["NFCBENCH_STATE_DIR": scratch.file("state")] }

    /// Every HIT carries a grade and every MISS none; the grade is higher deep inside the
    /// coil than near its edge; and the chip ends the run with its default settings.
    @Test func eachHitIsGradedAndTheGradeFollowsTheCoil() async throws {
        let c = Self.coil
        let bench = try TestBench(antenna: (c.x, c.y, c.width, c.height))
        let r = try await BuiltBinary.run(runArguments(bench, plan: "raster") + ["--step-mm", "10"], environment: environment)
        #expect(r.status == 0, "\(r.stdout)\n\(r.stderr)")
        #expect(r.stdout.contains("coupling "), "\(r.stdout.suffix(500))")
        #expect(bench.bench.pn532AnalogSettings == AnalogProfile.pn532Default.settings)
        #expect(AnalogJournal(directory: URL(fileURLWithPath: scratch.file("state/analog"))).pending().isEmpty)

        let csv = try await BuiltBinary.run(["export", "--all", "--db", scratch.file("bench.sqlite")])
        let lines = csv.stdout.split(separator: "\r\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        let header = try #require(lines.first).map(String.init)
        let column = { (name: String) in header.firstIndex(of: name)! }
        let phone = SimulatedPhone(antenna: (c.x, c.y, c.width, c.height), aspectRatio: 70.6 / 147.0, missRate: 0)
        var inner: [Double] = [], outer: [Double] = []
        for row in lines.dropFirst() {
            let result = String(row[column("result")]), grade = String(row[column("coupling")])
            // Every grade names the ladder it is a share of; a MISS asked again names it too.
            let ladder = String(row[column("coupling_ladder")])
            guard result == "HIT" else {
                #expect(grade.isEmpty, "a \(result) has no grade")
                #expect(ladder.isEmpty || ladder == "pn53x-11", "\(row)")
                continue
            }
            #expect(ladder == "pn53x-11", "\(row)")
            let value = try #require(Double(grade), "a HIT is graded: \(row)")
            #expect((0...1).contains(value))
            let x = Double(row[column("probe_x")])!, y = Double(row[column("probe_y")])!
            (phone.coupling(x: x, y: y) > 0.5 ? { inner.append(value) } : { outer.append(value) })()
        }
        #expect(!inner.isEmpty && !outer.isEmpty, "inner \(inner), outer \(outer)")
        let mean = { (values: [Double]) in values.reduce(0, +) / Double(max(values.count, 1)) }
        #expect(mean(inner) > mean(outer) + 0.2, "inner \(inner), outer \(outer)")
        #expect((inner.max() ?? 0) >= 0.5)

        let id = try #require(
            r.stdout.range(of: #"S-\d{8}-\d{6}-[0-9a-f]{4}"#, options: .regularExpression).map { String(r.stdout[$0]) })
        let shown = try await BuiltBinary.run(["show", id, "--db", scratch.file("bench.sqlite"), "--json"])
        #expect(shown.stdout.contains("\"couplingTried\": \"default read, CWGsP 3B"), "\(shown.stdout.prefix(800))")

        // Refine fits the graded reads too, and says what the taps alone would have fitted.
        let refined = try await BuiltBinary.run([
            "refine", "--model", "SM-S921B", "--include-simulated", "--db", scratch.file("bench.sqlite"), "-o",
            scratch.file("patch.json"),
        ])
        #expect(refined.stdout.contains("read(s) graded (run --coupling); the taps alone fit"), "\(refined.stdout)")

        // The report draws the grades over the back, each in its cell.
        let html = scratch.file("report.html")
        let report = try await BuiltBinary.run(
            ["report", "--session", id, "--include-simulated", "--db", scratch.file("bench.sqlite"), "-o", html])
        #expect(report.status == 0, "\(report.stderr)")
        let page = try String(contentsOfFile: html, encoding: .utf8)
        #expect(page.contains("<h3>Coupling</h3>") && page.contains("coupling: darker couples more strongly"))
        let best = try #require(inner.max())
        #expect(page.contains(">\(String(format: "%.2f", best))<"), "the strongest grade is written in its cell")
        // The positions table has a coupling column: each HIT's grade, each MISS "no read".
        #expect(page.contains("<th scope=\"col\">coupling (0 to 1)</th>"))
        let rows = page.components(separatedBy: "<tr><td>").dropFirst().filter { $0.contains("class=\"mark-") }
        let cells = rows.map { $0.components(separatedBy: "</td><td>").last!.prefix { $0 != "<" } }
        #expect(cells.count == rows.count && !cells.isEmpty)
        let shownGrades = cells.compactMap { Double($0) }.sorted()
        #expect(shownGrades == (inner + outer).map { ($0 * 100).rounded() / 100 }.sorted(), "\(cells)")
        #expect(cells.filter { $0 == "no read" }.count == rows.filter { $0.contains("mark-miss") }.count)
    }

    /// The adaptive plan, graded: from its second position the grades choose where to tap
    /// (`GradedDesign`), twelve positions at most, and the zone the run measures is the
    /// fit of its reads and grades, close to the coil the emulated phone hides (the catalog
    /// predicts a zone twice its height, reaching far below it).
    @Test func aGradedAdaptiveRunPlacesTheCoilWithinTwelvePositions() async throws {
        let c = Self.coil
        let bench = try TestBench(antenna: (c.x, c.y, c.width, c.height))
        let r = try await BuiltBinary.run(runArguments(bench, plan: "adaptive"), environment: environment)
        #expect(r.status == 0, "\(r.stdout)\n\(r.stderr)")
        #expect(r.stdout.contains("Position 2 of at most 12"), "the operator is told the bound: \(r.stdout.prefix(600))")
        #expect(bench.bench.pn532AnalogSettings == AnalogProfile.pn532Default.settings)
        let id = try #require(
            r.stdout.range(of: #"S-\d{8}-\d{6}-[0-9a-f]{4}"#, options: .regularExpression).map { String(r.stdout[$0]) })
        let shown = try await BuiltBinary.run(["show", id, "--db", scratch.file("bench.sqlite"), "--json"])
        let summary = try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any] ?? [:]
        let taps = try #require(summary["taps"] as? Int)
        #expect((4...12).contains(taps), "\(taps) positions")
        let measured = try #require(summary["measuredZone"] as? [String: Double], "\(summary)")
        let zone = try NormalizedRect(
            x: measured["x"]!, y: measured["y"]!, width: measured["width"]!, height: measured["height"]!)
        let truth = try NormalizedRect(x: c.x, y: c.y, width: c.width, height: c.height)
        #expect(zone.iou(with: truth) > 0.8, "measured \(zone), \(taps) positions")
        let predicted = try #require(summary["predictedZone"] as? [String: Double])
        let prediction = try NormalizedRect(
            x: predicted["x"]!, y: predicted["y"]!, width: predicted["width"]!, height: predicted["height"]!)
        #expect(zone.iou(with: truth) > prediction.iou(with: truth) + 0.2, "the grades measured more than was predicted")
    }

    /// A phone whose front end saturates: the full field misses it deep over its coil. Each
    /// MISS is asked again at the ladder's middle profile; where that reads, the position is
    /// a HIT walked both ways, its tried profiles the range that worked; where it does not,
    /// the MISS stands with what was tried. The chip ends at its default settings.
    @Test func aSaturatedMissIsAskedAgainWithAWeakerFieldAndWalkedBothWays() async throws {
        let c = Self.coil
        let saturation = 0.5
        let bench = try TestBench(antenna: (c.x, c.y, c.width, c.height), saturation: saturation)
        let r = try await BuiltBinary.run(
            runArguments(bench, plan: "raster") + ["--step-mm", "15", "--json"], environment: environment)
        #expect(r.status == 0, "\(r.stdout)\n\(r.stderr)")
        #expect(bench.bench.pn532AnalogSettings == AnalogProfile.pn532Default.settings)
        let summary = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any] ?? [:]
        let id = try #require(summary["id"] as? String ?? summary["sessionId"] as? String, "\(summary.keys)")
        let shown = try await BuiltBinary.run(["show", id, "--db", scratch.file("bench.sqlite"), "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any] ?? [:]
        let taps = try #require(object["tapList"] as? [[String: Any]])
        let phone = SimulatedPhone(antenna: (c.x, c.y, c.width, c.height), aspectRatio: 70.6 / 147.0, missRate: 0)
        var rescued = 0, stood = 0, plain = 0
        for tap in taps {
            let depth = phone.coupling(x: tap["x"] as! Double, y: tap["y"] as! Double)
            let tried = tap["couplingTried"] as? String ?? ""
            let grade = tap["coupling"] as? Double
            #expect((tap["couplingLadder"] as? String) == (tried.isEmpty ? nil : "pn53x-11"), "\(tap)")
            switch tap["result"] as? String {
            case "HIT" where tried.hasPrefix("default no answer, CWGsP 1F read"):
                rescued += 1
                #expect(depth > saturation, "the full field really missed it: \(tap)")
                #expect((grade ?? 0) >= 0.5, "the middle profile read: \(tap)")
            case "HIT":
                plain += 1
                #expect(tried.hasPrefix("default read"), "\(tap)")
                #expect(depth <= saturation + 1e-9, "\(tap)")
            case "MISS" where tried.isEmpty:
                Issue.record("every MISS of a graded run is asked again: \(tap)")
            default:
                stood += 1
                #expect(tried == "default no answer, CWGsP 1F no answer" && grade == nil, "\(tap)")
            }
        }
        #expect(rescued > 0 && plain > 0 && stood > 0, "rescued \(rescued), plain \(plain), stood \(stood)")

        // The verdict the run stored is the one the filed report derives from the same taps,
        // grades and rescued reads included.
        let verdict = try #require(summary["verdict"] as? String)
        let junit = scratch.file("saturated.xml")
        let report = try await BuiltBinary.run([
            "report", "--session", id, "--format", "junit", "--include-simulated", "--db", scratch.file("bench.sqlite"),
            "-o", junit,
        ])
        #expect(report.status == 0, "\(report.stderr)")
        #expect(try String(contentsOfFile: junit, encoding: .utf8).contains("session verdict: \(verdict)"), "\(verdict)")
    }

    /// A graded run started and sent `signal` the moment the emulated chip is weakened. The
    /// chip is watched every half millisecond on a thread of its own, and the signal is sent
    /// from that thread: a cooperative thread held so for up to a minute stalled the pass,
    /// and a task resumed after the sighting came too late (the ladder had already put the
    /// chip back).
    func startUntilWeakened(thenSignal signal: Int32) async throws -> (TestBench, Process) {
        let c = Self.coil
        let bench = try TestBench(antenna: (c.x, c.y, c.width, c.height))
        let run = try BuiltBinary.start(runArguments(bench), environment: environment)
        try await offThePool { [virtual = bench.bench, run] in
            let deadline = ContinuousClock.now + .seconds(60)
            while virtual.pn532AnalogSettings == AnalogProfile.pn532Default.settings, run.isRunning {
                guard ContinuousClock.now < deadline else { throw CancellationError() }
                usleep(500)
            }
            kill(run.processIdentifier, signal)
        }
        return (bench, run)
    }

    /// A run killed while the chip is weakened leaves it weakened, with the journal that
    /// says so; `doctor` puts it back.
    @Test func aRunKilledMidLadderIsPutBackByDoctor() async throws {
        let (bench, run) = try await startUntilWeakened(thenSignal: SIGKILL)
        #expect(await run.endsOrIsKilled(within: 10), "still running after 10 s")
        #expect(bench.bench.pn532AnalogSettings != AnalogProfile.pn532Default.settings, "killed while weakened")
        let journal = AnalogJournal(directory: URL(fileURLWithPath: scratch.file("state/analog")))
        #expect(journal.pending() == [bench.connstring])
        let doctor = try await BuiltBinary.run(
            ["doctor", "--db", scratch.file("bench.sqlite"), "--json"], environment: environment)
        #expect(doctor.stdout.contains("put back the analog settings"), "\(doctor.stdout)")
        #expect(bench.bench.pn532AnalogSettings == AnalogProfile.pn532Default.settings)
        #expect(journal.pending().isEmpty)
    }

    /// Issue 49, L2: a graded run killed while the chip is weakened on the bench's link
    /// (`/dev/serial/by-id/...` on a real bench), then a plain run on the node the link
    /// points to (`/dev/ttyUSB0`): the chip is put back before any tap, the operator is
    /// told, and the session's trail says so. Before, the chip stayed weakened and the run
    /// recorded its taps as ordinary evidence.
    @Test func aReaderKilledWeakenedIsPutBackUnderAnotherName() async throws {
        let (bench, run) = try await startUntilWeakened(thenSignal: SIGKILL)
        #expect(await run.endsOrIsKilled(within: 10), "still running after 10 s")
        let weakened = bench.bench.pn532AnalogSettings
        #expect(weakened != AnalogProfile.pn532Default.settings, "killed while weakened")
        let link = try #require(ReaderDevice.serialPath(of: bench.connstring))
        let node = URL(fileURLWithPath: link).resolvingSymlinksInPath().path
        let db = scratch.file("plain.sqlite")
        let plain = try await BuiltBinary.run(
            [
                "run", "--model", "SM-S921B", "--reader", "libnfc:pn532_uart:" + node, "--positioner", "sim", "--sim-bench",
                bench.directory, "--auto", "--tap-timeout", "0.4", "--plan", "grid", "--db", db, "--no-report", "--json",
            ], environment: environment)
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(bench.bench.pn532AnalogSettings == AnalogProfile.pn532Default.settings)
        #expect(AnalogJournal(directory: URL(fileURLWithPath: scratch.file("state/analog"))).pending().isEmpty)
        let id = try #require(try jsonObject(plain.stdout)["sessionId"] as? String, "\(plain.stdout)")
        let shown = try jsonObject(try await BuiltBinary.run(["show", id, "--db", db, "--json"]).stdout)
        let events = try #require(shown["events"] as? [[String: Any]])
        let started = try #require(events.first { $0["kind"] as? String == "started" })
        #expect((started["readerRestored"] as? String)?.contains("put back to 59 F4 3F") == true, "\(started)")
        let trail = try await BuiltBinary.run(["show", id, "--db", db, "--events"])
        #expect(trail.stdout.contains("reader found weakened: analog settings"), "\(trail.stdout)")
        let text = try await BuiltBinary.run(
            [
                "run", "--model", "SM-S921B", "--reader", bench.spec, "--positioner", "sim", "--sim-bench", bench.directory,
                "--auto", "--tap-timeout", "0.4", "--plan", "grid", "--db", db, "--no-report",
            ], environment: environment)
        #expect(!text.stdout.contains("Reader found weakened"), "a reader found as it should be says nothing")
    }

    /// Ctrl-C while the chip is weakened: the run stops, saved, and the reader's close puts
    /// the default settings back and clears the journal.
    @Test func ctrlCMidLadderPutsTheSettingsBack() async throws {
        let (bench, run) = try await startUntilWeakened(thenSignal: SIGINT)
        #expect(await run.endsOrIsKilled(within: 30), "still running after 30 s")
        let output = String(decoding: (run.standardOutput as! Pipe).fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(run.terminationStatus == 130, "\(output.suffix(400))")
        #expect(bench.bench.pn532AnalogSettings == AnalogProfile.pn532Default.settings)
        #expect(AnalogJournal(directory: URL(fileURLWithPath: scratch.file("state/analog"))).pending().isEmpty)
    }

    /// A reader that cannot weaken its field (a replayed session: it answers as recorded)
    /// is refused before anything is stored.
    @Test func aReaderWithoutAnalogSettingsIsRefused() async throws {
        let recorded = scratch.file("recorded.sqlite")
        let first = try await BuiltBinary.run([
            "run", "--model", "SM-S921B", "--reader", "sim", "--auto", "--plan", "grid", "--tap-timeout", "0.1", "--db", recorded,
            "--json", "--no-report",
        ])
        let id = try #require((try JSONSerialization.jsonObject(with: Data(first.stdout.utf8)) as? [String: Any])?["sessionId"])
        let recording = scratch.file("recorded.json")
        try await BuiltBinary.run(["show", "\(id)", "--db", recorded, "--json"]).stdout.write(
            toFile: recording, atomically: true, encoding: .utf8)
        let r = try await BuiltBinary.run([
            "run", "--model", "SM-S921B", "--reader", "replay:\(recording)", "--positioner", "exec:true", "--auto", "--coupling",
            "--db", scratch.file("bench.sqlite"), "--no-report",
        ])
        #expect(r.status == 64, "\(r.stdout)\(r.stderr)")
        #expect(r.stderr.contains("--coupling cannot be used: reader") && r.stderr.contains("cannot weaken its field"))
        let sessions = try await BuiltBinary.run(["sessions", "--db", scratch.file("bench.sqlite"), "--json"])
        #expect(sessions.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]", "\(sessions.stdout)")
    }
}
