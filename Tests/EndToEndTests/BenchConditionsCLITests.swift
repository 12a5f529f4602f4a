import Foundation
import NFCTestSupport
import Testing

/// Issue 52: the room a session was taken in, for an accredited lab's record (ISO/IEC
/// 17025 §7.8.2): `run --temperature-c T --humidity-pct H`, checked before anything is
/// stored, fixed for the session, and in `show`, its JSON, the session CSV, the HTML and JUnit.
@Suite("Bench conditions through the CLI")
struct BenchConditionsCLITests {
    let scratch: TemporaryDirectory
    init() throws { scratch = try TemporaryDirectory("conditions-cli") }

    func run(_ db: String, _ extra: [String]) async throws -> BuiltBinary.Result {
        try await BuiltBinary.run(
            [
                "run", "--model", "SM-S921B", "--reader", "sim", "--positioner", "sim", "--auto", "--plan", "grid",
                "--tap-timeout", "0.1", "--db", db, "--json", "--no-report",
            ] + extra)
    }

    @Test func theConditionsAreRecordedAndShownOnEverySurface() async throws {
        let db = scratch.database()
        let ran = try await run(db, ["--temperature-c=-4.5", "--humidity-pct", "61.25", "--station", "bench-9"])
        #expect(ran.status == 0, "\(ran.stderr)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(ran.stdout.utf8)) as? [String: Any])
        let id = try #require(summary["sessionId"] as? String)
        let conditions = try #require(summary["conditions"] as? [String: Any])
        #expect(conditions["temperatureC"] as? Double == -4.5 && conditions["humidityPct"] as? Double == 61.25)

        let shown = try await BuiltBinary.run(["show", id, "--db", db])
        #expect(shown.stdout.contains("conditions: -4.5 °C, 61.25 % RH"), "\(shown.stdout)")
        let csvPath = scratch.file("sessions.csv")
        _ = try await BuiltBinary.run(
            ["report", "--session", id, "--format", "csv-sessions", "--db", db, "-o", csvPath])
        let lines = try String(contentsOfFile: csvPath, encoding: .utf8).split(separator: "\r\n")
        #expect(lines.first?.hasSuffix(",temperature_c,humidity_pct") == true && lines.last?.hasSuffix(",-4.5,61.25") == true)
        // And the tap CSV, on every row of the session (issue 52: it lacked them).
        let taps = try await BuiltBinary.run(["export", "--session", id, "--db", db])
        let rows = taps.stdout.split(separator: "\r\n")
        #expect(rows.first?.hasSuffix(",temperature_c,humidity_pct") == true, "\(rows.first ?? "")")
        #expect(rows.count > 2 && rows.dropFirst().allSatisfy { $0.hasSuffix(",-4.5,61.25") }, "\(rows.prefix(3))")
        let html = scratch.file("r.html")
        _ = try await BuiltBinary.run(["report", "--session", id, "--db", db, "-o", html])
        let page = try String(contentsOfFile: html, encoding: .utf8)
        #expect(page.contains("<dt>Station, room</dt><dd>bench-9; -4.5 °C, 61.25 % RH</dd>"))
        // The record a lab files states the decision rule the verdict applied, with its risks.
        #expect(page.contains("<p class=\"decision-rule\">Decision rule: "), "\(page.suffix(3000))")
        #expect(page.contains("(false reject)") && page.contains("(false accept)"))
        let junit = scratch.file("r.xml")
        _ = try await BuiltBinary.run(["report", "--session", id, "--format", "junit", "--db", db, "-o", junit])
        #expect(
            try String(contentsOfFile: junit, encoding: .utf8).contains(
                "<property name=\"nfcbench.conditions\" value=\"-4.5 °C, 61.25 % RH\"/>"))

    }

    /// Fixed for the session: a resume may not change what the record says the room was.
    @Test func aResumeCannotChangeThem() async throws {
        let db = scratch.database()
        // Quit at the ready gate: the session is saved unfinished.
        let quit = try await ChildProcess.run(
            "/bin/sh",
            [
                "-c",
                "printf 'q\\n' | \"$0\" run --model SM-S921B --reader sim --positioner manual --plan grid --db \"$1\""
                    + " --no-report --temperature-c 20", BuiltBinary.path, db,
            ], environment: [:])
        #expect(quit.status == 75, "\(quit.stderr)")
        let listed = try await BuiltBinary.run(["sessions", "--db", db, "--json"])
        let id = try #require(
            (try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])?.first?["sessionId"]
                as? String)
        let resumed = try await BuiltBinary.run([
            "run", "--resume", id, "--reader", "sim", "--positioner", "sim", "--auto", "--db", db, "--temperature-c", "30",
        ])
        #expect(resumed.status == 64 && resumed.stderr.contains("--temperature-c cannot change"), "\(resumed.stderr)")
        let shown = try await BuiltBinary.run(["show", id, "--db", db])
        #expect(shown.stdout.contains("conditions: 20 °C"), "\(shown.stdout)")
    }

    /// Not given: "not recorded", nulls and empty cells, never a made-up figure.
    @Test func withoutThemTheRecordSaysNotRecorded() async throws {
        let db = scratch.database()
        let ran = try await run(db, [])
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(ran.stdout.utf8)) as? [String: Any])
        let conditions = try #require(summary["conditions"] as? [String: Any])
        #expect(conditions["temperatureC"] is NSNull && conditions["humidityPct"] is NSNull)
        let id = try #require(summary["sessionId"] as? String)
        let html = scratch.file("r.html")
        _ = try await BuiltBinary.run(["report", "--session", id, "--db", db, "-o", html])
        #expect(try String(contentsOfFile: html, encoding: .utf8).contains("; room not recorded</dd>"))
    }

    /// Hostile figures are usage errors naming the range; nothing is stored.
    @Test(arguments: [
        ["--temperature-c", "inf"], ["--temperature-c", "1e309"], ["--temperature-c", "75"], ["--temperature-c", "22,5"],
        ["--humidity-pct", "101"], ["--humidity-pct", "nan"], ["--humidity-pct=-3"],
    ])
    func aFigureOutOfItsRangeIsRefusedBeforeAnythingIsStored(_ bad: [String]) async throws {
        let db = scratch.database()
        let refused = try await run(db, bad)
        #expect(refused.status == 64, "\(refused.stdout)\(refused.stderr)")
        #expect(refused.stderr.contains("degrees Celsius in") || refused.stderr.contains("percent in"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: db), "a refused run made \(db)")
    }
}
