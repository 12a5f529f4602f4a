import Foundation
import NFCTestSupport
import NFCVirtualBench
import Testing

/// The emulated machines against a G-code sender nfcbench did not write: a pyserial
/// script (`Tests/Fixtures/gcode-sender/stream.py`) that follows GRBL's documented
/// send-response streaming and Marlin's ok-per-line protocol.
@Suite("The emulated gantries against an outside G-code sender", .serialized)
struct OutsideSenderTests {
    static func stream(_ dialect: GantryDialect, _ lines: [String]) async throws -> [String: Any] {
        let bench = try TestBench(
            gantry: GantryConfiguration(dialect: dialect, bodyWidthMm: 70.6, bodyHeightMm: 147, speed: 50))
        let script = Checkout.root.appendingPathComponent("Tests/Fixtures/gcode-sender/stream.py").path
        let (status, output) = try await runTool(
            "/usr/bin/python3", [script, dialect.rawValue, bench.directory + "/gantry"] + lines, timeout: 60)
        #expect(status == 0, "\(output)")
        let json = output.split(separator: "\n").last.map(String.init) ?? ""
        return try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any], "\(output)")
    }

    static func ends(_ result: [String: Any]) -> [String] {
        (result["replies"] as? [[String: Any]] ?? []).compactMap { $0["end"] as? String }
    }

    @Test func grblHomesUnlocksMovesAndReportsItsPosition() async throws {
        let result = try await Self.stream(
            .grbl, ["G1 X10 F1000", "$H", "G21", "G90", "G1 Z20 F600", "G1 X55.5 Y80.25 F3000", "G4 P0", "$I", "$Q"])
        // Locked at power-up (homing enabled): motion is refused until $H, as GRBL does.
        #expect(Self.ends(result) == ["error:9", "ok", "ok", "ok", "ok", "ok", "ok", "ok", "error:3"])
        #expect(result["state"] as? String == "Idle")
        #expect(result["position"] as? [Double] == [55.5, 80.25, 20])
        let replies = result["replies"] as? [[String: Any]] ?? []
        #expect((replies[7]["said"] as? [String])?.first?.hasPrefix("[VER:1.1h") == true)
    }

    @Test func marlinHomesMovesAndReportsItsPosition() async throws {
        let result = try await Self.stream(
            .marlin, ["G28", "G90", "N5 G1 Z15 F600*33", "G1 X30 Y40.5 F3000", "M115", "M999", "G999"])
        #expect(Self.ends(result) == ["ok", "ok", "ok", "ok", "ok", "ok", "ok"])
        #expect(result["position"] as? [Double] == [30, 40.5, 15])
        let replies = result["replies"] as? [[String: Any]] ?? []
        #expect((replies[6]["said"] as? [String])?.first?.hasPrefix("echo:Unknown command") == true)
    }
}
