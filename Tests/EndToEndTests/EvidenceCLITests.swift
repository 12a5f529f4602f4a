import Foundation
import NFCBench
import NFCBenchRecords
import NFCBenchStoreSQLite
import NFCLocatorCore
import NFCTestSupport
import Testing

/// The evidence rules through the built binary: simulated sessions say so and never
/// promote, void sessions are kept but left out, a resumed session keeps its settings.
@Suite("Evidence through the CLI")
struct EvidenceCLITests {
    let scratch: TemporaryDirectory
    init() throws { scratch = try TemporaryDirectory("evidence") }

    func object(_ text: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] ?? [:]
    }

    func simulatedRun(_ db: String, unit: String, extra: [String] = []) async throws -> [String: Any] {
        let r = try await BuiltBinary.run(
            [
                "run", "--model", "SM-S921B", "--reader", "sim", "--auto", "--tap-timeout", "0.1", "--unit", unit, "--db", db,
                "--json",
            ]
                + extra)
        #expect(r.status == 0, "\(r.stderr)")
        return try object(r.stdout)
    }

    /// The issue's first case: a right prediction of a small coil on a later grid pass
    /// gave NO_FIELD ("probably not emulating a card") with 0 hits.
    @Test(arguments: [1, 2, 3])
    func aRightPredictionOfASmallCoilIsConfirmed(seed: Int) async throws {
        let db = scratch.database()
        for pass in 0..<3 {  // later sessions of the model take later grid passes
            let r = try await BuiltBinary.run([
                "run", "--model", "Pixel 7", "--reader", "sim", "--auto", "--plan", "grid", "--sim-seed", String(seed + pass),
                "--tap-timeout", "0.1", "--db", db, "--json",
            ])
            #expect(r.status == 0, "\(r.stderr)")
            let o = try object(r.stdout)
            #expect(o["verdict"] as? String == "CONFIRMED", "pass \(pass): \(o["verdictReason"] ?? "")")
        }
    }

    /// Simulated sessions never promote an entry, even when the policy would be met.
    @Test func refinePromoteRefusesSimulatedEvidence() async throws {
        let db = scratch.database()
        for unit in ["A", "B", "A", "B"] { _ = try await simulatedRun(db, unit: unit, extra: ["--plan", "adaptive"]) }
        let refused = try await BuiltBinary.run(["refine", "--model", "SM-S921B", "--promote", "--db", db])
        #expect(refused.status == 1 && refused.stderr.contains("Left out: 4 simulated session(s)"), "\(refused.stderr)")
        let patch = scratch.file("patch.json")
        let counted = try await BuiltBinary.run([
            "refine", "--model", "SM-S921B", "--promote", "--include-simulated", "--db", db, "-o", patch, "--json",
        ])
        #expect(counted.status == 0, "\(counted.stderr)")
        let entry = try #require((try object(counted.stdout)["entries"] as? [[String: Any]])?.first)
        #expect(entry["promoted"] as? Bool == false, "\(entry)")
        let written = try object(try String(contentsOfFile: patch, encoding: .utf8))
        let row = try #require((written["entries"] as? [[String: Any]])?.first)
        #expect(row["verified"] as? Bool != true)
        #expect((row["zoneProvenance"] as? String)?.contains("SIMULATED evidence") == true)
        // Nor do they make the entry look freshly verified: staleness is the seed's.
        let seed = try object(try await BuiltBinary.run(["resolve", "--model", "SM-S921B", "--json"]).stdout)
        let patched = try object(
            try await BuiltBinary.run(["resolve", "--model", "SM-S921B", "--catalog", patch, "--json"]).stdout)
        #expect(patched["source"] as? String != seed["source"] as? String, "the patch is what resolves")
        #expect(patched["lastVerifiedAt"] as? String == seed["lastVerifiedAt"] as? String)
        #expect(patched["stale"] as? Bool == seed["stale"] as? Bool)
    }

    @Test func voidKeepsTheSessionButLeavesItOut() async throws {
        let db = scratch.database()
        let first = try await simulatedRun(db, unit: "A")["sessionId"] as? String ?? ""
        let second = try await simulatedRun(db, unit: "B")["sessionId"] as? String ?? ""
        let voided = try await BuiltBinary.run(["void", first, "--reason", "wrong phone on the bench", "--db", db])
        #expect(voided.status == 0 && voided.stdout.contains("is void: wrong phone on the bench"), "\(voided.stderr)")
        #expect(try await BuiltBinary.run(["void", first, "--db", db]).status == 64)  // a reason is required
        #expect(try await BuiltBinary.run(["void", "S-nope", "--reason", "x", "--db", db]).status == 1)
        let listed = try await BuiltBinary.run(["sessions", "--db", db])
        #expect(listed.stdout.contains("[VOID: wrong phone on the bench]") && listed.stdout.contains(second))
        let shown = try await BuiltBinary.run(["show", first, "--db", db])
        #expect(shown.stdout.contains("VOID: wrong phone on the bench"))
        let exported = try await BuiltBinary.run(["export", "--all", "--db", db])
        #expect(!exported.stdout.contains(first) && exported.stdout.contains(second))
        let withVoid = try await BuiltBinary.run(["export", "--all", "--include-void", "--db", db])
        #expect(withVoid.stdout.contains(first) && withVoid.stdout.contains("wrong phone on the bench"))
        let refined = try await BuiltBinary.run(["refine", "--model", "SM-S921B", "--include-simulated", "--db", db, "--json"])
        let entry = try #require((try object(refined.stdout)["entries"] as? [[String: Any]])?.first)
        #expect(entry["sessionIds"] as? [String] == [second])
        // Kept, never deleted.
        let store = try await SQLiteBenchStore.open(path: db)
        #expect(try await store.session(first)?.voidReason == "wrong phone on the bench")
    }

    /// `--resume` applies a new tap window and records it; it refuses what would change
    /// the session's meaning.
    @Test func resumeSettingsAreAppliedOrRefused() async throws {
        let db = scratch.database()
        let stop = try await BuiltBinary.run([
            "run", "--model", "SM-S921B", "--reader", "sim", "--positioner", "exec:test {index} -lt 2", "--auto",
            "--tap-timeout", "0.2", "--db", db,
        ])
        #expect(stop.status == 1)
        let store = try await SQLiteBenchStore.open(path: db)
        let id = try #require(try await store.sessions().first?.id)
        let refused = try await BuiltBinary.run(["run", "--resume", id, "--repeats", "3", "--reader", "sim", "--db", db])
        #expect(refused.status == 64 && refused.stderr.contains("--repeats cannot change when resuming"), "\(refused.stderr)")
        let resumed = try await BuiltBinary.run([
            "run", "--resume", id, "--reader", "sim", "--positioner", "sim", "--auto", "--tap-timeout", "0.3", "--db", db,
        ])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stderr.contains("Tap window changed from 0.2 s to 0.3 s"))
        #expect(try await store.session(id)?.tapTimeout == 0.3)
    }

    /// An adaptive session plans from the pooled evidence of earlier ones, says so, keeps
    /// that focus across `--resume`, and a bench run never plans from simulated sessions.
    @Test func adaptiveSessionsLearnFromEarlierOnes() async throws {
        let db = scratch.database()
        let first = try await simulatedRun(db, unit: "A", extra: ["--plan", "adaptive"])
        #expect(first["planFocus"] is NSNull, "nothing to learn from yet: \(first)")
        // Simulated sessions teach nothing unless asked for.
        let untaught = try await simulatedRun(db, unit: "A", extra: ["--plan", "adaptive"])
        #expect(untaught["planFocus"] is NSNull, "\(untaught)")
        let second = try await BuiltBinary.run([
            "run", "--model", "SM-S921B", "--reader", "sim", "--auto", "--plan", "adaptive", "--tap-timeout", "0.1",
            "--db", db, "--include-simulated",
        ])
        #expect(
            second.status == 0 && second.stdout.contains("Plan learns from 2 earlier sessions: spare taps go to"),
            "\(second.stdout)")
        // Stopped after two positions, then resumed: the stored focus plans every tap.
        let stop = try await BuiltBinary.run([
            "run", "--model", "SM-S921B", "--reader", "sim", "--plan", "adaptive", "--positioner", "exec:test {index} -lt 2",
            "--auto", "--tap-timeout", "0.1", "--db", db, "--include-simulated",
        ])
        #expect(stop.status == 1)
        let store = try await SQLiteBenchStore.open(path: db)
        let stopped = try #require(try await store.sessions().first { $0.status == .inProgress })
        let focus = try #require(stopped.planFocus)
        #expect(focus.sessions == 3)
        let resumed = try await BuiltBinary.run([
            "run", "--resume", stopped.id, "--reader", "sim", "--positioner", "sim", "--auto", "--db", db,
        ])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        let done = try #require(try await store.session(stopped.id))
        #expect(done.planFocus == focus && done.status == .completed)
        let taps = try await store.taps(stopped.id).filter { $0.attempt == 0 }
        let strategy = done.strategy
        for n in taps.indices {
            let history = taps.prefix(n).map { (probe: Probe(x: $0.probeX, y: $0.probeY), hit: $0.result == .hit) }
            #expect(strategy.next(after: Array(history)) == Probe(x: taps[n].probeX, y: taps[n].probeY), "tap \(n)")
        }
        // Every session here is simulated: a bench session would have nothing to learn from.
        let resolver = AntennaZoneResolver(
            remote: nil, seed: Catalog(document: try CatalogDocumentDecoder.load(contentsOf: Checkout.seedCatalog)))
        let earlier = SessionSelection.sessions(of: "SM-S921B", in: try await store.sessions())
        #expect(
            try await PlanLearning.focus(
                for: "SM-S921B", earlier: earlier, resolver: resolver, store: store, includeSimulated: false) == nil)
        #expect(
            try await PlanLearning.focus(
                for: "SM-S921B", earlier: earlier, resolver: resolver, store: store, includeSimulated: true) != nil)
    }

    /// What is printed is what is tapped: after learning, `plan` and `template` give the
    /// positions `run` asks for, with the same database, naming what they learned from.
    @Test func planAndTemplateShowTheRunsPositionsAfterLearning() async throws {
        let db = scratch.database()
        for unit in ["A", "B", "C"] {
            _ = try await simulatedRun(db, unit: unit, extra: ["--plan", "adaptive", "--include-simulated"])
        }
        let plan = try object(
            try await BuiltBinary.run([
                "plan", "--model", "SM-S921B", "--plan", "adaptive", "--db", db, "--include-simulated", "--json",
            ]).stdout)
        #expect((plan["learnedFromSessionIds"] as? [String])?.count == 3 && plan["planFocus"] is String, "\(plan)")
        let probes = try #require(plan["probes"] as? [[String: Double]]).map { Probe(x: $0["x"]!, y: $0["y"]!) }
        // The run with the truth at the prediction and a phone that always answers over
        // its coil: its positions are the plan's.
        let run = try object(
            try await BuiltBinary.run([
                "run", "--model", "SM-S921B", "--reader", "sim", "--auto", "--plan", "adaptive", "--tap-timeout", "0.1",
                "--db", db, "--include-simulated", "--json", "--no-report",
            ]).stdout)
        let id = try #require(run["sessionId"] as? String)
        let store = try await SQLiteBenchStore.openForReading(path: db)
        let tapped = try await store.taps(id).map(\.probe)
        #expect(run["planFocus"] as? String == plan["planFocus"] as? String)
        #expect(Array(tapped.prefix(2)) == Array(probes.prefix(2)), "\(tapped) vs \(probes)")
        // Without --include-simulated nothing is learned from these simulated sessions.
        let bench = try object(
            try await BuiltBinary.run(["plan", "--model", "SM-S921B", "--plan", "adaptive", "--db", db, "--json"]).stdout)
        #expect((bench["learnedFromSessionIds"] as? [String]) == [] && bench["planFocus"] is NSNull)
        let words = try await BuiltBinary.run([
            "plan", "--model", "SM-S921B", "--plan", "adaptive", "--db", db, "--include-simulated",
        ])
        #expect(words.stdout.contains("Plan learns from 4 earlier sessions") && words.stdout.contains("Learned from: S-"))
        let svg = scratch.file("template.svg")
        let template = try await BuiltBinary.run([
            "template", "--model", "SM-S921B", "--plan", "adaptive", "--db", db, "--include-simulated", "-o", svg,
        ])
        #expect(template.status == 0, "\(template.stderr)")
        #expect(try String(contentsOfFile: svg, encoding: .utf8).contains("learned from 4 session(s)"))
    }
}
