import Foundation
import NFCTestSupport
import Testing

/// `refine` with sessions that record their reader's antenna: their coil fits pool into
/// one, in millimetres, and the zone compared and written is that coil, not the read
/// region; sessions without it refine as before.
@Suite("Refine writes the coil")
struct RefineCoilCLITests {
    let scratch: TemporaryDirectory
    init() throws { scratch = try TemporaryDirectory("refine-coil-cli") }

    /// The simulated coil at 0.2,0.2,0.5,0.2 of the Galaxy S24's 70.6 x 147.0 mm back:
    /// centred 31.8 mm from the left and 44.1 mm from the top.
    static let body = (width: 70.6, height: 147.0)
    static let coilCentre = (x: 31.8, y: 44.1)

    /// `reader`: the antenna and gap given to `run` (`nil`: none given).
    func session(_ db: String, reader: (antenna: String, gapMm: String)?, seed: Int, plan: String) async throws {
        var arguments = [
            "run", "--model", "SM-S921B", "--reader", "sim", "--positioner", "sim", "--auto", "--plan", plan,
            "--sim-antenna", "0.2,0.2,0.5,0.2", "--sim-seed", "\(seed)", "--tap-timeout", "0.1", "--db", db, "--no-report",
        ]
        if let reader { arguments += ["--reader-antenna", reader.antenna, "--gap-mm", reader.gapMm] }
        let r = try await BuiltBinary.run(arguments)
        #expect(r.status == 0, "\(r.stderr)")
    }

    func refine(_ db: String, patch: String, promote: Bool = false) async throws -> [String: Any] {
        let r = try await BuiltBinary.run(
            ["refine", "--model", "SM-S921B", "--include-simulated", "--db", db, "-o", patch, "--json"]
                + (promote ? ["--promote"] : []))
        #expect(r.status == 0, "\(r.stderr)")
        let o = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], "\(r.stdout)")
        return try #require((o["entries"] as? [[String: Any]])?.first, "\(o)")
    }

    static func value(_ coil: [String: Any], _ key: String) -> Double? {
        (coil[key] as? [String: Any])?["value"] as? Double
    }

    @Test func twoReadersSessionsPoolIntoOneCoilAndThePatchIsTheCoil() async throws {
        let db = scratch.database(), patch = scratch.file("patch.json")
        // The two readers' profiles' figures: a PN532 module and an ACR122U.
        try await session(db, reader: ("35x30", "1.5"), seed: 1, plan: "coil")
        try await session(db, reader: ("46x64", "3"), seed: 2, plan: "coil")
        let entry = try await refine(db, patch: patch)
        #expect(entry["coilSessions"] as? Int == 2, "\(entry)")
        let coil = try #require(entry["coil"] as? [String: Any], "\(entry)")
        let x = try #require(Self.value(coil, "centreXMm")), y = try #require(Self.value(coil, "centreYMm"))
        #expect(hypot(x - Self.coilCentre.x, y - Self.coilCentre.y) < 4, "pooled coil centre (\(x), \(y))")
        // What is written is the coil, as a share of the back.
        let zone = try #require(entry["zone"] as? [String: Any])
        let zx = try #require(zone["zoneX"] as? Double), zw = try #require(zone["zoneWidth"] as? Double)
        let zy = try #require(zone["zoneY"] as? Double), zh = try #require(zone["zoneHeight"] as? Double)
        #expect(abs((zx + zw / 2) * Self.body.width - x) < 0.2 && abs((zy + zh / 2) * Self.body.height - y) < 0.2)
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: patch))) as? [String: Any])
        let row = try #require((document["entries"] as? [[String: Any]])?.first)
        #expect(abs((row["zoneX"] as? Double ?? -1) - zx) < 1e-3 && abs((row["zoneWidth"] as? Double ?? -1) - zw) < 1e-3)
        let refinement = try #require(row["refinement"] as? [String: Any])
        #expect(refinement["coilSessions"] as? Int == 2)
        #expect((refinement["method"] as? String)?.hasPrefix("the coil: maximum-likelihood rectangle in mm") == true)
        let written = try #require(refinement["coil"] as? [String: Any])
        #expect(abs((Self.value(written, "centreXMm") ?? -1) - x) < 0.11)

        // --promote asks the policy of the coil, as `catalog publish` does: its words, not
        // the read region's (and simulated sessions are never promoted at all).
        let promoted = try await refine(db, patch: scratch.file("promoted.json"), promote: true)
        let unmet = try #require(promoted["promotionUnmet"] as? [String], "\(promoted)")
        #expect(unmet.contains("2 bench session(s), needs 3"), "\(unmet)")
        #expect(!unmet.contains("2 session(s), needs 3"), "\(unmet)")
        #expect(unmet.contains { $0.contains("simulated") } && promoted["promoted"] as? Bool == false, "\(unmet)")
    }

    /// Without the reader's antenna no coil is made up: the read region is written, as before.
    @Test func sessionsWithoutTheAntennaWriteTheReadRegion() async throws {
        let db = scratch.database(), patch = scratch.file("patch.json")
        try await session(db, reader: nil, seed: 3, plan: "grid")
        let entry = try await refine(db, patch: patch)
        #expect(entry["coil"] is NSNull && entry["coilSessions"] as? Int == 0, "\(entry)")
        let zone = try #require(entry["zone"] as? [String: Any]), measured = try #require(entry["measuredZone"] as? [String: Any])
        #expect(
            zone["zoneX"] as? Double == measured["zoneX"] as? Double
                && zone["zoneWidth"] as? Double == measured["zoneWidth"] as? Double)
    }
}
