import Foundation
import NFCBenchStoreSQLite
import NFCLocatorCore
import NFCTestSupport
import Testing

@Suite("nfcbench refine, through the built binary")
struct RefineCLITests {
    let scratch: TemporaryDirectory
    init() throws { scratch = try TemporaryDirectory("e2e") }

    func object(_ text: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(text.utf8)) as! [String: Any]
    }

    func simulatedRun(_ model: String, antenna: String, unit: String?, db: String, extra: [String] = []) async throws -> [String:
        Any]
    {
        let r = try await BuiltBinary.run(
            [
                "run", "--plan", "grid", "--model", model, "--reader", "sim", "--auto", "--tap-timeout", "0.1",
                "--sim-antenna", antenna, "--sim-seed", "5", "--db", db, "--json", "--allow-unknown",
            ]
                + (unit.map { ["--unit", $0] } ?? []) + extra)
        #expect(r.status == 0, "\(r.stderr)")
        return try object(r.stdout)
    }

    @Test func sessionsToPatchToPrediction() async throws {
        let db = scratch.database()
        let directory = scratch.url
        let truth = try gematikS24()
        let antenna = [truth.x, truth.y, truth.width, truth.height].map { String($0) }.joined(separator: ",")
        var ids: [String] = []
        for (model, unit) in [("SM-S921B", "A"), ("SM-S921U", "B"), ("SM-S921B", "A")] {
            ids.append(try await simulatedRun(model, antenna: antenna, unit: unit, db: db)["sessionId"] as! String)
        }
        // Consecutive grid sessions interleave their cells instead of re-tapping the same
        // points; the predicted zone's own three probes open every session.
        var positions: [[String]] = []
        for id in ids {
            let shown = try object(try await BuiltBinary.run(["show", id, "--db", db, "--json"]).stdout)
            positions.append((shown["tapList"] as! [[String: Any]]).map { "\($0["x"]!),\($0["y"]!)" })
        }
        let taps = positions.map(\.count).reduce(0, +)
        #expect(positions[0].prefix(3) == positions[1].prefix(3))
        #expect(Set(positions[0].dropFirst(3)).isDisjoint(with: Set(positions[1].dropFirst(3))))

        // These are simulated sessions: refine leaves them out unless asked, and says why.
        let left = try await BuiltBinary.run(["refine", "--model", "SM-S921B", "--db", db])
        #expect(left.status == 1 && left.stderr.contains("Left out: 3 simulated session(s)"), "\(left.stderr)")

        let patch = directory.appendingPathComponent("patch.json").path
        let r = try await BuiltBinary.run([
            "refine", "--model", "SM-S921N", "--include-simulated", "--reach-mm", "2.94", "--db", db, "-o", patch, "--json",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let report = try object(r.stdout)
        let entry = try #require((report["entries"] as? [[String: Any]])?.first)
        #expect(
            entry["key"] as? String == "sm_s921b" && entry["outcome"] as? String == "refined"
                && entry["promoted"] as? Bool == false)
        #expect(
            (entry["sessionIds"] as? [String]) == ids && entry["taps"] as? Int == taps
                && entry["units"] as? [String] == ["A", "B"])
        let tallies = try #require(entry["positions"] as? [[String: Any]])
        #expect(
            tallies.count == Set(positions.joined()).count
                && tallies.allSatisfy {
                    ($0["low"] as! Double) <= ($0["rate"] as! Double) && ($0["rate"] as! Double) <= ($0["high"] as! Double)
                })
        let measured = try #require(entry["measuredZone"] as? [String: Double])
        let zone = try NormalizedRect(
            x: measured["zoneX"]!, y: measured["zoneY"]!, width: measured["zoneWidth"]!, height: measured["zoneHeight"]!)
        #expect(zone.iou(with: truth) > 0.5, "refined \(zone) vs truth \(truth)")
        #expect(report["patch"] as? String == patch)
        let written = try object(try String(contentsOfFile: patch, encoding: .utf8))
        let provenance = try #require((written["entries"] as? [[String: Any]])?.first?["refinement"] as? [String: Any])
        #expect(provenance["simulatedSessions"] as? Int == 3 && provenance["promoted"] as? Bool == false)
        #expect((provenance["promotionUnmet"] as? [String])?.first?.contains("simulated") == true)
        let text = try await BuiltBinary.run([
            "refine", "--model", "SM-S921B", "--include-simulated", "--reach-mm", "2.94", "--db", db,
        ])
        #expect(text.status == 0 && text.stdout.contains("▓ measured zone") && text.stdout.contains("3 session(s), \(taps) taps"))
        #expect(text.stdout.contains("No patch written"), "\(text.stdout)")

        // The patch is the remote layer: resolve and run now predict the refined zone; built
        // from simulated sessions only, it is still stale (only bench evidence verifies).
        let resolved = try object(
            try await BuiltBinary.run(["resolve", "--model", "SM-S921B", "--catalog", patch, "--json"]).stdout)
        #expect(resolved["source"] as? String == "remoteCatalog" && resolved["stale"] as? Bool == true)
        #expect((resolved["zone"] as? [String: Double])?["y"] == zone.y)
        let next = try await simulatedRun("SM-S921B", antenna: antenna, unit: "B", db: db, extra: ["--catalog", patch])
        #expect((next["predictedZone"] as? [String: Double])?["height"] == zone.height)
        // Models the patch does not name still resolve from the seed.
        let other = try object(try await BuiltBinary.run(["resolve", "--model", "Pixel 8", "--catalog", patch, "--json"]).stdout)
        #expect(other["source"] as? String == "seedCatalog")

        // Below --min-sessions nothing is patched, and refining against a patch carries its rows forward.
        let patch2 = directory.appendingPathComponent("patch2.json").path
        let again = try await BuiltBinary.run([
            "refine", "--all", "--include-simulated", "--min-sessions", "5", "--catalog", patch, "--db", db, "-o", patch2,
            "--json",
        ])
        #expect(again.status == 0, "\(again.stderr)")
        let second = try #require((try object(again.stdout)["entries"] as? [[String: Any]])?.first)
        #expect(second["outcome"] as? String == "tooFewSessions" && (second["sessionIds"] as? [String])?.count == 4)
        let carried = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: patch2))) as! [String: Any]
        let rows = try #require(carried["entries"] as? [[String: Any]])
        #expect(
            rows.count == 1 && rows[0]["zoneY"] as? Double == zone.y
                && (rows[0]["refinement"] as? [String: Any])?["sessionCount"] as? Int == 3)
    }

    @Test func verifiedEntriesAreReportedNotPatched() async throws {
        let db = scratch.database()
        _ = try await simulatedRun("SM-S911B", antenna: "0.05,0.05,0.5,0.15", unit: nil, db: db)
        _ = try await simulatedRun("Nokia-3310", antenna: "0.2,0.2,0.5,0.3", unit: nil, db: db)
        let patch = scratch.file("patch.json")
        let r = try await BuiltBinary.run(["refine", "--all", "--include-simulated", "--db", db, "-o", patch])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try await BuiltBinary.run(["catalog", "validate", patch]).status == 0, "every refined row validates")
        #expect(
            r.stderr.contains("Warning: SM-S911B (Galaxy S23) is verified and was not changed") && r.stderr.contains("IoU 0.00"))
        #expect(r.stdout.contains("VERIFIED, NOT CHANGED: the evidence DISAGREES"))
        #expect(r.stdout.contains("Nokia-3310: 1 session(s), no catalog entry to refine"))
        let written = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: patch))) as! [String: Any]
        #expect((written["entries"] as? [Any])?.isEmpty == true)
    }

    @Test func planShowsAGridPass() async throws {
        func probes(_ pass: String) async throws -> Set<String> {
            let r = try await BuiltBinary.run(["plan", "--plan", "grid", "--model", "SM-S921B", "--pass", pass, "--json"])
            #expect(r.status == 0, "\(r.stderr)")
            return Set((try object(r.stdout)["probes"] as! [[String: Double]]).map { "\($0["x"]!),\($0["y"]!)" })
        }
        let first = try await probes("0"), second = try await probes("1")
        // The predicted zone's own probes (centre 0.5, 0.55, and a quarter of its width either
        // side) open every pass; the cells of pass 1 all differ from pass 0's.
        let inner: Set<String> = ["0.5,0.55", "0.3,0.55", "0.7,0.55"]
        #expect(inner.isSubset(of: first) && inner.isSubset(of: second))
        #expect(first.subtracting(inner).isDisjoint(with: second.subtracting(inner)) && first.count >= 15)
        #expect(try await BuiltBinary.run(["plan", "--model", "SM-S921B", "--pass", "-1"]).status == 64)
    }

    @Test func badInvocationsSayWhatToDo() async throws {
        let db = scratch.database()
        let neither = try await BuiltBinary.run(["refine", "--db", db])
        #expect(neither.status == 64 && neither.stderr.contains("--model <id> or --all"))
        let both = try await BuiltBinary.run(["refine", "--all", "--model", "SM-S921B", "--db", db])
        #expect(both.status == 64)
        let since = try await BuiltBinary.run(["refine", "--all", "--since", "yesterday", "--db", db])
        #expect(since.status == 64 && since.stderr.contains("--since"))
        let unknown = try await BuiltBinary.run(["refine", "--model", "Nokia-3310", "--db", db])
        #expect(
            unknown.status == 1 && unknown.stderr.contains("No catalog entry for 'Nokia-3310'")
                && unknown.stderr.contains("Hint:"))
        let missing = try await BuiltBinary.run(["refine", "--model", "SM-S921B", "--db", db])
        #expect(missing.status == 1 && missing.stderr.contains("No session database at \(db)"), "\(missing.stderr)")
        _ = try await SQLiteBenchStore.open(path: db)  // a store with no sessions in it
        let empty = try await BuiltBinary.run(["refine", "--model", "SM-S921B", "--db", db])
        #expect(
            empty.status == 1 && empty.stderr.contains("No completed bench sessions of SM-S921B")
                && empty.stderr.contains("nfcbench run"))
        let help = try await BuiltBinary.run(["refine", "--help"])
        #expect(help.status == 0 && help.stdout.contains("Promotion policy") && help.stdout.contains("--min-sessions"))
    }
}
