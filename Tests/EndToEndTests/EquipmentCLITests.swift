import Foundation
import NFCTestSupport
import Testing

/// Issue 52: the station's equipment register through the binary. A run records it, warns
/// about an item past its due date and its report says "out of calibration";
/// `--require-calibrated` refuses such a run, or a station without a register, before
/// anything is written.
@Suite("The equipment register through the CLI")
struct EquipmentCLITests {
    let scratch: TemporaryDirectory
    init() throws { scratch = try TemporaryDirectory("equipment-cli") }

    func register(due: String) throws -> String {
        let path = scratch.file("equipment-\(due).conf")
        try """
        [reader]
        maker = ACS
        model = ACR122U
        identity = RR554-012345
        calibrated = 2020-01-01
        due = \(due)

        [spacer]
        maker = Lab workshop
        model = PMMA 3 mm
        identity = SP-07
        """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// `run` on the simulated bench with a config folder of this test's own.
    func run(_ db: String, _ extra: [String]) async throws -> BuiltBinary.Result {
        try await BuiltBinary.run(
            ["run", "--model", "SM-S921B", "--reader", "sim", "--auto", "--tap-timeout", "0.1", "--db", db, "--no-report"]
                + extra, environment: ["XDG_CONFIG_HOME": scratch.file("config"), "NFCBENCH_EQUIPMENT": ""])
    }

    func sessions(_ db: String) async throws -> [[String: Any]] {
        guard FileManager.default.fileExists(atPath: db) else { return [] }
        let listed = try await BuiltBinary.run(["sessions", "--db", db, "--json"])
        return try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
    }

    @Test func anOverdueItemIsRecordedWarnedAndReported() async throws {
        let db = scratch.database()
        let r = try await run(db, ["--equipment", try register(due: "2021-01-01")])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("Warning: out of calibration: reader ACS ACR122U RR554-012345 (due 2021-01-01)"), "\(r.stderr)")
        let id = try #require(try await sessions(db).first?["sessionId"] as? String)
        let shown = try await BuiltBinary.run(["show", id, "--db", db, "--json"])
        let record = try #require(try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any])
        let events = try #require(record["events"] as? [[String: Any]])
        let equipment = try #require(events.first { $0["kind"] as? String == "equipment" })
        #expect(equipment["reader"] as? String == "ACS ACR122U RR554-012345; calibrated 2020-01-01, due 2021-01-01")
        #expect(equipment["spacer"] as? String == "Lab workshop PMMA 3 mm SP-07")
        #expect(equipment["outOfCalibration"] as? String == "reader")
        // Recorded as the run started, before any position.
        #expect(events.firstIndex { $0["kind"] as? String == "equipment" } == 1)
        let html = scratch.file("report.html")
        let reported = try await BuiltBinary.run(["report", "--session", id, "--db", db, "-o", html])
        #expect(reported.status == 0, "\(reported.stderr)")
        let page = try String(contentsOfFile: html, encoding: .utf8)
        #expect(
            page.contains("<dt>Equipment</dt>")
                && page.contains("RR554-012345; calibrated 2020-01-01, due 2021-01-01 <strong>(out of calibration)</strong>"))
        #expect(!page.contains("SP-07 <strong>"), "the spacer has no due date, so it is never out of calibration")
    }

    @Test func requireCalibratedRefusesAnOverdueItemAndWritesNothing() async throws {
        let db = scratch.database()
        let r = try await run(db, ["--equipment", try register(due: "2021-01-01"), "--require-calibrated"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("Out of calibration: reader ACS ACR122U RR554-012345 (due 2021-01-01)"), "\(r.stderr)")
        #expect(r.stderr.contains("nothing was written") && r.stderr.contains("Hint: Calibrate the item"))
        #expect(try await sessions(db).isEmpty)
    }

    @Test func requireCalibratedRefusesAStationWithoutARegister() async throws {
        let db = scratch.database()
        let r = try await run(db, ["--require-calibrated"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("this station has no equipment register"), "\(r.stderr)")
        #expect(r.stderr.contains(scratch.file("config") + "/nfcbench/equipment.conf"))
        #expect(try await sessions(db).isEmpty)
    }

    /// The station's own file, found beside lab.conf, in date: the run goes ahead quietly.
    @Test func anInDateRegisterBesideLabConfIsUsedWithoutAWord() async throws {
        let db = scratch.database()
        try FileManager.default.createDirectory(atPath: scratch.file("config/nfcbench"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: try register(due: "2099-12-31"), toPath: scratch.file("config/nfcbench/equipment.conf"))
        let r = try await run(db, ["--require-calibrated"])
        #expect(r.status == 0 && !r.stderr.contains("calibration"), "\(r.stderr)")
        let id = try #require(try await sessions(db).first?["sessionId"] as? String)
        let trail = try await BuiltBinary.run(["show", id, "--db", db, "--events"])
        #expect(trail.stdout.contains("equipment: reader: ACS ACR122U RR554-012345; calibrated 2020-01-01, due 2099-12-31"))
        #expect(!trail.stdout.contains("OUT OF CALIBRATION"))
    }

    /// doctor says what the station's register holds, and names an item past its due date.
    @Test func doctorLooksAtTheRegister() async throws {
        func check(_ register: String?) async throws -> [String: Any] {
            let r = try await BuiltBinary.run(
                ["doctor", "--json"],
                environment: ["XDG_CONFIG_HOME": scratch.file("config"), "NFCBENCH_EQUIPMENT": register ?? ""])
            let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
            let checks = try #require(object["checks"] as? [[String: Any]])
            return try #require(checks.first { $0["id"] as? String == "equipment" })
        }
        let none = try await check(nil)
        #expect(none["verdict"] as? String == "OK" && (none["detail"] as? String)?.contains("no equipment register") == true)
        let overdue = try await check(try register(due: "2021-01-01"))
        #expect(overdue["verdict"] as? String == "WARN")
        #expect((overdue["detail"] as? String)?.contains("reader ACS ACR122U RR554-012345 (due 2021-01-01)") == true)
        let fine = try await check(try register(due: "2099-12-31"))
        #expect(fine["verdict"] as? String == "OK" && (fine["detail"] as? String)?.contains("reader, spacer") == true)
    }

    @Test func aBadRegisterIsRefusedByLineAndNothingIsWritten() async throws {
        let db = scratch.database()
        let path = scratch.file("bad.conf")
        try "[reader]\nmaker = ACS\nmodle = ACR122U\n".write(toFile: path, atomically: true, encoding: .utf8)
        let r = try await run(db, ["--equipment", path])
        #expect(r.status == 1)
        #expect(r.stderr.contains("line 3: unknown key 'modle'"), "\(r.stderr)")
        #expect(try await sessions(db).isEmpty)
        let missing = try await run(db, ["--equipment", scratch.file("none.conf")])
        #expect(missing.status == 1 && missing.stderr.contains("none.conf"), "\(missing.stderr)")
    }
}
