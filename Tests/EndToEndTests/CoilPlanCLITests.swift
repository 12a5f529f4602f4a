import Foundation
import NFCBenchStoreSQLite
import NFCTestSupport
import Testing

/// `run --plan coil`: at most sixteen positions, each chosen by what it tells about the coil
/// under the physics of two loops, from the reader's antenna; refused, with what to give,
/// where the antenna or the body is unknown, and by the commands that print a plan ahead.
@Suite("Coil plan through the CLI")
struct CoilPlanCLITests {
    let scratch: TemporaryDirectory
    init() throws { scratch = try TemporaryDirectory("coil-plan-cli") }

    /// The simulated phone's coil at 0.2,0.2,0.5,0.2 of a Galaxy S24's 70.6 x 147.0 mm back:
    /// centred 31.8 mm from the left and 44.1 mm from the top. The prediction (the seed
    /// catalog's) is elsewhere, so the plan must find it.
    @Test func aCoilSessionFindsTheCoilCentreInSixteenPositions() async throws {
        let db = scratch.database()
        let r = try await BuiltBinary.run([
            "run", "--model", "SM-S921B", "--reader", "sim", "--positioner", "sim", "--auto", "--plan", "coil",
            "--reader-antenna", "40x40", "--gap-mm", "3", "--sim-antenna", "0.2,0.2,0.5,0.2", "--sim-seed", "1",
            "--tap-timeout", "0.1", "--db", db, "--json", "--no-report", "--no-coupling",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let run = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(run["plan"] as? String == "coil")
        let taps = try #require(run["taps"] as? Int)
        #expect((8...16).contains(taps), "\(taps) taps")
        let id = try #require(run["sessionId"] as? String)
        let shown = try await BuiltBinary.run(["show", id, "--db", db, "--json"])
        let o = try #require(try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any])
        let coil = try #require((o["coil"] as? [String: Any])?["estimate"] as? [String: Any], "\(o["coil"] ?? "none")")
        let x = try #require((coil["centreXMm"] as? [String: Any])?["value"] as? Double)
        let y = try #require((coil["centreYMm"] as? [String: Any])?["value"] as? Double)
        #expect(hypot(x - 31.8, y - 44.1) < 4, "coil centre (\(x), \(y))")
        // The zone the session measured is the coil the plan fitted, not the read region.
        let measured = try #require(run["measuredZone"] as? [String: Any])
        let mx = try #require(measured["x"] as? Double), mw = try #require(measured["width"] as? Double)
        #expect(abs((mx + mw / 2) * 70.6 - 31.8) < 5, "\(measured)")
        // One story: the run's zone and `show`'s coil are one fit, seeded alike.
        #expect(abs((mx + mw / 2) * 70.6 - x) < 0.1, "run \((mx + mw / 2) * 70.6), show \(x)")
    }

    /// The simulated reader weakens its field as the emulated PN532 does, so a run that
    /// knows the reader's antenna and the body takes the coil plan and grades every read,
    /// with neither named; the same coil as above, found closer.
    @Test func theSimulatedReaderGradesTheCoilSessionARunTakesByDefault() async throws {
        let db = scratch.database()
        let r = try await BuiltBinary.run([
            "run", "--model", "SM-S921B", "--reader", "sim", "--positioner", "sim", "--auto", "--reader-antenna", "40x40",
            "--gap-mm", "3", "--sim-antenna", "0.2,0.2,0.5,0.2", "--sim-seed", "1", "--tap-timeout", "0.1", "--db", db,
            "--json", "--no-report",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let run = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(run["plan"] as? String == "coil")
        let id = try #require(run["sessionId"] as? String)
        let taps = try await SQLiteBenchStore.openForReading(path: db).taps(id)
        let hits = taps.filter { $0.result == .hit }
        #expect(hits.count >= 3 && hits.allSatisfy { $0.coupling != nil }, "\(taps.map { ($0.result, $0.coupling) })")
        #expect(Set(hits.compactMap(\.coupling)).count > 1, "grades that tell the reads apart")
        let shown = try await BuiltBinary.run(["show", id, "--db", db, "--json"])
        let o = try #require(try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any])
        let coil = try #require((o["coil"] as? [String: Any])?["estimate"] as? [String: Any], "\(o["coil"] ?? "none")")
        let x = try #require((coil["centreXMm"] as? [String: Any])?["value"] as? Double)
        let y = try #require((coil["centreYMm"] as? [String: Any])?["value"] as? Double)
        let width = try #require((coil["widthMm"] as? [String: Any])?["value"] as? Double)
        // The coil is 35.3 x 29.4 mm, centred at (31.8, 44.1).
        #expect(hypot(x - 31.8, y - 44.1) < 2, "coil centre (\(x), \(y))")
        #expect(abs(width - 35.3) < 6, "coil width \(width)")
    }

    @Test func withoutTheReadersAntennaTheRunIsRefusedBeforeAnyTap() async throws {
        let db = scratch.database()
        let r = try await BuiltBinary.run([
            "run", "--model", "SM-S921B", "--reader", "sim", "--positioner", "sim", "--auto", "--plan", "coil", "--db", db,
            "--no-report",
        ])
        #expect(r.status == 64, "\(r.stdout)\(r.stderr)")
        #expect(r.stderr.contains("--reader-antenna WxH"), "\(r.stderr)")
        if FileManager.default.fileExists(atPath: db) {
            let sessions = try await BuiltBinary.run(["sessions", "--db", db])
            #expect(!sessions.stdout.contains("S-"), "a refused run stored a session: \(sessions.stdout)")
        }
    }

    @Test(arguments: [["plan"], ["template"]])
    func commandsThatPrintAPlanAheadRefuseIt(_ command: [String]) async throws {
        let r = try await BuiltBinary.run(command + ["--model", "SM-S921B", "--plan", "coil", "--db", scratch.database()])
        #expect(r.status == 64, "\(r.stdout)\(r.stderr)")
        #expect(r.stderr.contains("--plan coil has no list of positions ahead"), "\(r.stderr)")
    }
}
