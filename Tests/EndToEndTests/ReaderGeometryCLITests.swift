import Foundation
import NFCTestSupport
import Testing

/// The reader's antenna and gap: given to `run`, stored with the session, shown by `show`
/// with the coil the physical model fits; unknown, and said so, where nothing gave them.
@Suite("Reader geometry through the CLI")
struct ReaderGeometryCLITests {
    let scratch: TemporaryDirectory
    init() throws { scratch = try TemporaryDirectory("geometry-cli") }

    func show(_ id: String, _ db: String) async throws -> [String: Any] {
        let r = try await BuiltBinary.run(["show", id, "--db", db, "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        return try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [String: Any]
    }

    @Test func aGivenAntennaIsStoredAndTheCoilIsFittedInMillimetres() async throws {
        let db = scratch.database()
        let r = try await BuiltBinary.run([
            "run", "--model", "SM-S921B", "--reader", "sim", "--positioner", "sim", "--auto", "--plan", "grid",
            "--sim-antenna", "0.2,0.1,0.6,0.25", "--reader-antenna", "46x64", "--gap-mm", "2.5", "--db", db, "--json",
            "--no-report",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let id = try #require(
            (try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])?["sessionId"] as? String)
        let o = try await show(id, db)
        let geometry = try #require(o["readerGeometry"] as? [String: Any], "\(o)")
        #expect(geometry["antennaWidthMm"] as? Double == 46 && geometry["antennaHeightMm"] as? Double == 64)
        #expect(geometry["gapMm"] as? Double == 2.5 && geometry["source"] as? String == "operator")
        let coil = try #require((o["coil"] as? [String: Any])?["estimate"] as? [String: Any], "\(o["coil"] ?? "none")")
        let x = try #require(coil["centreXMm"] as? [String: Any]), width = try #require(coil["widthMm"] as? [String: Any])
        let value = try #require(x["value"] as? Double), low = try #require(x["low"] as? Double)
        let high = try #require(x["high"] as? Double)
        // Inside the Galaxy S24's 70.6 mm width, with an interval around it.
        #expect(low <= value && value <= high && 0 < low && high < 70.6, "\(x)")
        #expect((width["value"] as? Double).map { (12...70.6).contains($0) } == true, "\(width)")
        let text = try await BuiltBinary.run(["show", id, "--db", db])
        #expect(text.stdout.contains("reader: 46 x 64 mm antenna, gap 2.5 mm (operator)"), "\(text.stdout)")
        #expect(text.stdout.contains("coil (physical model, 95% intervals): centre "), "\(text.stdout)")

        let csv = try await BuiltBinary.run(["report", "--session", id, "--format", "csv-sessions", "--db", db])
        let lines = csv.stdout.split(separator: "\r\n")
        #expect(
            lines.first?.contains(",reader_antenna_width_mm,reader_antenna_height_mm,reader_gap_mm,reader_geometry_source,")
                == true, "\(csv.stdout)")
        #expect(lines.last?.contains(",46.0,64.0,2.5,operator,") == true, "\(csv.stdout)")
    }

    /// The simulated reader has no profile: without `--reader-antenna` the session says its
    /// reader's antenna is unknown, and no coil is made up.
    @Test func noAntennaMeansUnknownAndNoCoil() async throws {
        let db = scratch.database()
        let r = try await BuiltBinary.run([
            "run", "--model", "SM-S921B", "--reader", "sim", "--auto", "--tap-timeout", "0.1", "--plan", "grid", "--db", db,
            "--json", "--no-report",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let run = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [String: Any]
        #expect(run["readerGeometry"] is NSNull, "\(r.stdout)")
        let id = try #require(run["sessionId"] as? String)
        let coil = try #require(try await show(id, db)["coil"] as? [String: Any])
        #expect(coil["estimate"] is NSNull)
        #expect((coil["unavailable"] as? String)?.hasPrefix("reader's antenna unknown") == true, "\(coil)")
        let text = try await BuiltBinary.run(["show", id, "--db", db])
        #expect(text.stdout.contains("reader: antenna unknown"), "\(text.stdout)")
        #expect(text.stdout.contains("coil: not estimated, reader's antenna unknown"))
    }

    @Test(arguments: [
        ["--reader-antenna", "0x10"], ["--reader-antenna", "46x"], ["--reader-antenna", "46x64x3"],
        ["--reader-antenna", "inf x 40"], ["--reader-antenna", "1e309x40"], ["--reader-antenna", "4x40"],
        ["--gap-mm", "1e309"], ["--gap-mm", "nan"], ["--gap-mm", "0"], ["--gap-mm", "0x10"],
    ])
    func badFiguresAreRefusedBeforeTheRun(option: [String]) async throws {
        let db = scratch.database()
        let r = try await BuiltBinary.run(
            ["run", "--model", "SM-S921B", "--reader", "sim", "--auto", "--db", db, "--no-report"] + option)
        #expect(r.status == 64, "\(r.stdout)\(r.stderr)")
        #expect(r.stderr.contains(option[0]), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: db), "nothing is written before the arguments hold")
    }
}
