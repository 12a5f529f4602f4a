import Foundation
import NFCTestSupport
import Testing

/// The virtual bench in the physical world (`sim serve --reader-antenna --coil`): the
/// emulated PN532, driven through libnfc, answers where two loops couple, and `show` fits
/// the coil in millimetres from a graded session, not the read region.
@Suite("The physical virtual bench through the CLI")
struct PhysicalBenchCLITests {
    let scratch: TemporaryDirectory
    init() throws { scratch = try TemporaryDirectory("physical-bench") }

    @Test func aGradedSessionOnThePhysicalBenchFindsTheCoil() async throws {
        // A 40 x 30 mm coil centred 35 mm from the top of a Galaxy S24, a 40 mm reader, 3 mm apart.
        let served = try await ServedBench.start(
            registryIn: scratch, arguments: ["--reader-antenna", "40x40", "--gap-mm", "3", "--coil", "15.3,20,40,30"])
        defer { served.discard() }
        let db = scratch.file("bench.sqlite")
        let r = try await BuiltBinary.run(
            [
                "run", "--model", "SM-S921B", "--reader", "libnfc:pn532_uart:\(served.directory)/pn532", "--positioner", "sim",
                "--sim-bench", served.directory, "--auto", "--tap-timeout", "0.2", "--plan", "raster", "--step-mm", "10",
                "--coupling", "--reader-antenna", "40x40", "--gap-mm", "3", "--db", db, "--json", "--no-report",
            ], environment: served.environment)
        #expect(r.status == 0, "\(r.stdout)\n\(r.stderr)")
        let run = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [String: Any]
        let id = try #require(run["sessionId"] as? String)
        let shown = try await BuiltBinary.run(["show", id, "--db", db, "--json"], environment: served.environment)
        let o = try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as! [String: Any]
        let coil = try #require((o["coil"] as? [String: Any])?["estimate"] as? [String: Any], "\(o["coil"] ?? "")")
        func value(_ key: String) throws -> Double { try #require((coil[key] as? [String: Any])?["value"] as? Double) }
        let (x, y, w, h) = (try value("centreXMm"), try value("centreYMm"), try value("widthMm"), try value("heightMm"))
        #expect(hypot(x - 35.3, y - 35) < 3, "centre \(x), \(y) mm")
        #expect(abs(w - 40) < 10 && abs(h - 30) < 10, "size \(w) x \(h) mm")
        // The read region the bench measured is larger than the coil: what the fit undoes.
        let measured = try #require(o["measuredZone"] as? [String: Any])
        let measuredHeightMm = try #require(measured["height"] as? Double) * 147
        #expect(measuredHeightMm > 30 * 1.2, "read region \(measuredHeightMm) mm tall")
        await served.stop()
    }

    @Test(arguments: [
        ["--coil", "50,20,40,30"], ["--coil", "15,20,40"], ["--coil", "15,20,2,30"], ["--gap-mm", "3"],
        ["--rung-law", "1.5"], ["--coil", "15,20,40,30", "--antenna", "0.1,0.1,0.5,0.2"],
        ["--reader-antenna", "40x40", "--aspect-ratio", "0.5"], ["--body", "70x150"],
    ])
    func inconsistentWorldsAreRefused(arguments: [String]) async throws {
        let r = try await BuiltBinary.run(
            ["sim", "serve", "--dir", scratch.file("never")] + arguments,
            environment: ["NFCBENCH_STATE_DIR": scratch.file("state")])
        #expect(r.status == 64, "\(r.stdout)\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.file("never") + "/ready"))
    }
}
