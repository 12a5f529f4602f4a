import Foundation
import NFCBenchRecords
import NFCBenchStoreSQLite
import NFCTestSupport
import Testing

/// `run --mode tag` through the real libnfc on a virtual bench: the bench's PN532
/// emulates a Type 4 tag (libnfc's target API) and the simulated phone, whose true coil
/// the run does not know, reads it.
@Suite("Tag mode through nfcbench")
struct TagModeCLITests {
    let scratch = try! TemporaryDirectory()

    @Test(arguments: [
        ((0.1, 0.36, 0.8, 0.38), "CONFIRMED"),  // the catalog's S24 zone
        ((0.03, 0.07, 0.67, 0.27), "SHIFTED"),  // where Samsung draws the S24 coil
    ])
    func aTagModeSessionFindsTheHiddenZone(antenna: (Double, Double, Double, Double), verdict: String) async throws {
        let bench = try TestBench(antenna: antenna)
        let db = scratch.database()
        let r = try await BuiltBinary.run([
            "run", "--model", "SM-S921B", "--mode", "tag", "--reader", bench.spec, "--positioner", "sim", "--sim-bench",
            bench.directory, "--auto", "--tap-timeout", "0.5", "--db", db, "--no-report", "--json",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let o = try jsonObject(r.stdout)
        #expect(o["verdict"] as? String == verdict, "\(o)")
        let store = try await SQLiteBenchStore.openForReading(path: db)
        let session = try #require(try await store.sessions().first)
        #expect(session.mode == .tag)
        let taps = try await store.taps(session.id)
        // Every read was a complete NDEF read with its time to read; misses have no progress.
        for tap in taps where tap.result == .hit {
            #expect(tap.tagProgress == .ndefRead && (tap.latencyMs ?? 0) > 0, "\(tap)")
        }
        #expect(taps.filter { $0.result == .miss }.allSatisfy { $0.tagProgress == nil })
        // The phone read the default message naming the session and the position.
        let reads = bench.bench.bench.snapshot.tagReads
        #expect(!reads.isEmpty)
        let csv = try await BuiltBinary.run(["export", "--session", session.id, "--db", db])
        // ... the height, no coupling or ladder, and no room given.
        #expect(csv.stdout.contains(",tag,ndef-read,positioner,0.500,,0.000,,,,\r\n"), "\(csv.stdout.prefix(400))")
    }

    /// A phone that stops mid-read is recorded PARTIAL with how far it got, never HIT or MISS.
    @Test func aPhoneThatStopsMidReadIsPartialEvidence() async throws {
        let bench = try TestBench(antenna: (0.1, 0.36, 0.8, 0.38))
        bench.bench.bench.tagReaderAbortAfter = 3
        let db = scratch.database()
        let r = try await BuiltBinary.run([
            "run", "--model", "SM-S921B", "--mode", "tag", "--reader", bench.spec, "--positioner", "sim", "--sim-bench",
            bench.directory, "--auto", "--tap-timeout", "0.5", "--db", db, "--no-report",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("PARTIAL") && r.stdout.contains("got as far as capabilities"), "\(r.stdout)")
        let store = try await SQLiteBenchStore.openForReading(path: db)
        let taps = try await store.taps(try #require(try await store.sessions().first).id)
        #expect(!taps.isEmpty && !taps.contains { $0.result == .hit })
        #expect(taps.filter { $0.result == .partial }.allSatisfy { $0.tagProgress == .capabilitiesRead })
        // One count everywhere: a partial read is a read, never a hit, in `sessions` and `show` alike.
        let partial = taps.filter { $0.result == .partial }.count
        let observed = taps.filter { $0.result != .skipped }.count
        #expect(partial > 0)
        let id = taps[0].sessionID
        let listed =
            try jsonObject(
                "{\"s\":" + (try await BuiltBinary.run(["sessions", "--db", db, "--json"])).stdout + "}")["s"] as? [[String: Any]]
        let shown = try jsonObject(try await BuiltBinary.run(["show", id, "--db", db, "--json"]).stdout)
        for counts in [try #require(listed?.first), shown] {
            #expect(counts["hits"] as? Int == 0 && counts["partialReads"] as? Int == partial, "\(counts)")
            #expect(counts["reads"] as? Int == partial && counts["taps"] as? Int == observed, "\(counts)")
        }
        let table = try await BuiltBinary.run(["sessions", "--db", db])
        #expect(table.stdout.contains("0/\(observed) +\(partial) partial"), "\(table.stdout)")
        let text = try await BuiltBinary.run(["show", id, "--db", db])
        #expect(text.stdout.contains("taps \(observed), hits 0, partial reads \(partial)"), "\(text.stdout)")
        #expect(text.stdout.contains("stopped early (PARTIAL)"), "\(text.stdout)")
        // PARTIAL is named everywhere a result appears: the JSON tap list, the HTML table
        // and drawing, JUnit (a failure saying how far the read got).
        let tapList = try #require(shown["tapList"] as? [[String: Any]])
        #expect(tapList.filter { $0["result"] as? String == "PARTIAL" }.count == partial)
        #expect(tapList.allSatisfy { ($0["result"] as? String) != "HIT" } && shown["sessionId"] as? String == id)
        let html = scratch.file("partial.html"), junit = scratch.file("partial.xml")
        #expect(try await BuiltBinary.run(["report", "--session", id, "--db", db, "-o", html]).status == 0)
        let page = try String(contentsOfFile: html, encoding: .utf8)
        #expect(
            page.contains("class=\"mark-partial\">PARTIAL") && page.contains("stopped after reading the capability container"))
        #expect(page.contains("class=\"nfc-partial\"") && page.contains("partial: the phone began reading and stopped"))
        #expect(!page.contains("class=\"mark-hit\">HIT"))
        #expect(page.contains("stopped early (PARTIAL)"))
        let xml = try await BuiltBinary.run([
            "report", "--session", id, "--format", "junit", "--db", db, "-o", junit,
        ])
        #expect(xml.status == 0, "\(xml.stderr)")
        let cases = try String(contentsOfFile: junit, encoding: .utf8)
        let partialCases = cases.components(separatedBy: "type=\"partial-read\"").count - 1
        let partialPositions = Set(taps.filter { $0.result == .partial }.map(\.step)).count
        #expect(partialCases == partialPositions && cases.contains("PARTIAL read: the phone began reading the tag and stopped"))
    }

    /// Refine pools both modes by default; --mode takes one.
    @Test func refineFiltersByMode() async throws {
        let db = scratch.database()
        for mode in ["tag", "card", "tag"] {
            let r = try await BuiltBinary.run([
                "run", "--model", "SM-S921B", "--mode", mode, "--reader", "sim", "--auto", "--tap-timeout", "0.2", "--db", db,
                "--no-report",
            ])
            #expect(r.status == 0, "\(r.stderr)")
        }
        func sessions(_ extra: [String]) async throws -> Int {
            let r = try await BuiltBinary.run(
                ["refine", "--model", "SM-S921B", "--include-simulated", "--min-sessions", "1", "--db", db, "--json"] + extra)
            let o = try jsonObject(r.stdout)
            return ((o["entries"] as? [[String: Any]])?.first?["sessionIds"] as? [String])?.count ?? -1
        }
        #expect(try await sessions([]) == 3)
        let all = try jsonObject(
            try await BuiltBinary.run(
                ["refine", "--model", "SM-S921B", "--include-simulated", "--min-sessions", "1", "--db", db, "--json"]
            ).stdout)
        #expect((all["entries"] as? [[String: Any]])?.first?["tagSessions"] as? Int == 2)
        let listed = try await BuiltBinary.run(["sessions", "--db", db])
        #expect(listed.stdout.components(separatedBy: "[tag mode]").count == 3, "\(listed.stdout)")
        #expect(try await sessions(["--mode", "tag"]) == 2)
        #expect(try await sessions(["--mode", "card"]) == 1)
    }

    /// A session keeps its mode: resuming it in the other one is refused.
    @Test func aResumedSessionKeepsItsMode() async throws {
        let db = scratch.database()
        let first = try await BuiltBinary.run([
            "run", "--model", "SM-S921B", "--reader", "sim", "--positioner", "exec:test {index} -lt 2", "--auto",
            "--tap-timeout", "0.2", "--db", db, "--no-report",
        ])
        #expect(first.status == 1)
        let store = try await SQLiteBenchStore.openForReading(path: db)
        let id = try #require(try await store.sessions().first?.id)
        let resumed = try await BuiltBinary.run([
            "run", "--resume", id, "--mode", "tag", "--reader", "sim", "--positioner", "sim", "--auto", "--db", db,
        ])
        #expect(resumed.status == 64 && resumed.stderr.contains("recorded in card mode"), "\(resumed.stderr)")
    }
}

@Suite(
    "Tag mode refused on PC/SC", .serialized,
    .enabled(if: SharedVirtualReader.isAvailable, "needs pcscd and the virtual bench: run scripts/test.sh"))
struct TagModePCSCTests {
    @Test func pcscReadersCannotEmulateATag() async throws {
        let scratch = try TemporaryDirectory()
        try await SharedVirtualReader.exclusive {
            let r = try await BuiltBinary.run([
                "run", "--model", "SM-S921B", "--mode", "tag", "--reader", "pcsc:\(SharedVirtualReader.readerName)", "--auto",
                "--positioner", "sim", "--sim-bench", SharedVirtualReader.benchDirectory, "--db", scratch.database(),
            ])
            #expect(r.status == 1 && r.stderr.contains("PC/SC, which has no target mode"), "\(r.stderr)")
            #expect(r.stderr.contains("libnfc:pn532_uart"))
        }
    }
}
