import Foundation
import NFCBenchStoreSQLite
import NFCTestSupport
import Testing

/// The replay reader backend through the binary: a recorded session answered again.
@Suite("Replaying a recorded session")
struct ReplayCLITests {
    let scratch: TemporaryDirectory
    init() throws { scratch = try TemporaryDirectory("replay") }

    @Test func aReplayedSessionSeesWhatTheRecordedOneSawAndIsNeverEvidence() async throws {
        let recorded = scratch.database()
        let first = try await BuiltBinary.run([
            "run", "--model", "SM-S921B", "--reader", "sim", "--sim-antenna", "0.05,0.1,0.5,0.3", "--auto", "--plan", "grid",
            "--tap-timeout", "0.1", "--db", recorded, "--json", "--no-report",
        ])
        #expect(first.status == 0, "\(first.stderr)")
        let original = try jsonObject(first.stdout)
        let id = try #require(original["sessionId"] as? String)
        let shown = try await BuiltBinary.run(["show", id, "--db", recorded, "--json"])
        let recording = scratch.file("recorded.json")
        try shown.stdout.write(toFile: recording, atomically: true, encoding: .utf8)

        let replayed = scratch.database()
        let again = try await BuiltBinary.run([
            "run", "--model", "SM-S921B", "--reader", "replay:\(recording)", "--positioner", "exec:true", "--auto",
            "--plan", "grid", "--db", replayed, "--json", "--no-report",
        ])
        #expect(again.status == 0, "\(again.stderr)")
        let summary = try jsonObject(again.stdout)
        #expect(summary["simulated"] as? Bool == true, "a replay is never bench evidence")
        #expect(summary["reader"] as? String == "replay:\(recording)")
        for key in ["verdict", "taps", "hits"] {
            #expect("\(summary[key] ?? "nil")" == "\(original[key] ?? "nil")", "\(key)")
        }
        let before = try await SQLiteBenchStore.openForReading(path: recorded).taps(id)
        #expect(before.contains { $0.result == .hit } && before.contains { $0.result == .miss }, "a recording worth replaying")
        let after = try await SQLiteBenchStore.openForReading(path: replayed)
            .taps(try #require(summary["sessionId"] as? String))
        #expect(after.map(\.result) == before.map(\.result) && after.map(\.uid) == before.map(\.uid))
        #expect(after.map(\.probe) == before.map(\.probe))
    }

    @Test func aRecordingThatIsNotACardSessionIsRefusedWithWhatToDo() async throws {
        let notJSON = scratch.file("garbage.json")
        try "not json".write(toFile: notJSON, atomically: true, encoding: .utf8)
        let tagSession = scratch.file("tag.json")
        try #"{"sessionId": "S-1", "mode": "tag", "tapList": []}"#.write(toFile: tagSession, atomically: true, encoding: .utf8)
        for (spec, words) in [
            ("replay:\(notJSON)", "is not a recorded session"), ("replay:\(tagSession)", "card-mode sessions only"),
            ("replay:\(scratch.file("missing.json"))", "No recorded session"), ("replay:", "needs the file"),
        ] {
            let r = try await BuiltBinary.run([
                "run", "--model", "SM-S921B", "--reader", spec, "--positioner", "exec:true", "--auto", "--db", scratch.database(),
            ])
            #expect(r.status != 0 && r.stderr.contains(words), "\(spec): \(r.status) \(r.stderr)")
        }
    }
}
