import Foundation
import NFCBenchRecords
import NFCLocatorCore
import NFCReaders
import NFCTestSupport
import Testing

/// Issue 52: the machine-readable record follows a published JSON Schema
/// (`docs/schema/session.schema.json`), checked by a validator nfcbench did not write
/// (Debian's python3-jsonschema) against real `show --json` output of sessions of every
/// kind, and its lists of values held to the code's own.
@Suite("The session record's JSON Schema")
struct SessionSchemaCLITests {
    let scratch: TemporaryDirectory
    init() throws { scratch = try TemporaryDirectory("schema-cli") }

    static let schema = Checkout.root.appendingPathComponent("docs/schema/session.schema.json").path
    static let validator = Checkout.fixtures.appendingPathComponent("schema/validate.py").path

    func validate(_ files: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
        try await ChildProcess.run("/usr/bin/python3", [Self.validator, Self.schema] + files, environment: [:], timeout: 60)
    }

    func sessionID(_ ran: BuiltBinary.Result) throws -> String {
        let o = try #require(try JSONSerialization.jsonObject(with: Data(ran.stdout.utf8)) as? [String: Any], "\(ran.stderr)")
        return try #require(o["sessionId"] as? String)
    }

    @Test func everyKindOfSessionValidatesAndADriftedRecordDoesNot() async throws {
        let db = scratch.database()
        let common = [
            "--reader", "sim", "--positioner", "sim", "--auto", "--tap-timeout", "0.1", "--db", db, "--json", "--no-report",
        ]
        var ids: [String] = []
        // The coil, its reader's geometry, the room and the phone.
        ids.append(
            try sessionID(
                try await BuiltBinary.run(
                    [
                        "run", "--model", "SM-S921B", "--plan", "grid", "--reader-antenna", "40x40", "--gap-mm", "3",
                        "--sim-antenna", "0.2,0.2,0.5,0.2", "--temperature-c", "21.5", "--phone-os", "Android 15",
                    ] + common)))
        // Layers above the back.
        ids.append(
            try sessionID(
                try await BuiltBinary.run(
                    ["run", "--model", "SM-S921B", "--plan", "raster", "--step-mm", "14", "--heights", "0,10"] + common)))
        // Tag mode: the phone reads an emulated tag.
        ids.append(try sessionID(try await BuiltBinary.run(["run", "--model", "Pixel 8", "--mode", "tag"] + common)))
        // A model the catalog does not know, voided and annotated afterwards.
        let unknown = try sessionID(
            try await BuiltBinary.run(["run", "--model", "XQ-ZZ99", "--allow-unknown", "--plan", "grid"] + common))
        _ = try await BuiltBinary.run(["void", unknown, "--reason", "wrong phone", "--by", "Ana", "--db", db])
        _ = try await BuiltBinary.run(["annotate", unknown, "--note", "re-run as S24", "--by", "Ana", "--db", db])
        ids.append(unknown)
        // Unfinished: quit at the ready gate, so its verdict and figures are null.
        let quit = try await ChildProcess.run(
            "/bin/sh",
            [
                "-c", "printf 'q\\n' | \"$0\" run --model SM-S921B --reader sim --positioner manual --db \"$1\" --no-report",
                BuiltBinary.path, db,
            ], environment: [:])
        #expect(quit.status == 75, "\(quit.stderr)")
        let listed = try await BuiltBinary.run(["sessions", "--db", db, "--json"])
        let all = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        ids += all.compactMap { $0["sessionId"] as? String }.filter { !ids.contains($0) }
        #expect(ids.count == 5, "\(ids)")

        var files: [String] = []
        for id in ids {
            let shown = try await BuiltBinary.run(["show", id, "--db", db, "--json"])
            #expect(shown.status == 0, "\(shown.stderr)")
            let file = scratch.file("\(id).json")
            try shown.stdout.write(toFile: file, atomically: true, encoding: .utf8)
            files.append(file)
        }
        let checked = try await validate(files)
        #expect(checked.status == 0 && checked.stdout.contains("5 valid"), "\(checked.stdout)\(checked.stderr)")

        // report --format json tells each session as show --json does, under the same schema.
        let reported = try await BuiltBinary.run(
            ["report", "--format", "json", "--all", "--include-simulated", "--include-void", "--db", db])
        #expect(reported.status == 0, "\(reported.stderr)")
        let records = try #require(try JSONSerialization.jsonObject(with: Data(reported.stdout.utf8)) as? [[String: Any]])
        #expect(Set(records.compactMap { $0["sessionId"] as? String }) == Set(ids))
        var reportedFiles: [String] = []
        for record in records {
            let id = try #require(record["sessionId"] as? String)
            let shown = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: scratch.file("\(id).json"))))
            // Compared as data, keys sorted: the same members with the same values.
            let canonical = { (object: Any) throws -> Data in
                try JSONSerialization.data(withJSONObject: object, options: .sortedKeys)
            }
            #expect(try canonical(record) == canonical(shown), "\(id)")
            let file = scratch.file("reported-\(id).json")
            try JSONSerialization.data(withJSONObject: record).write(to: URL(fileURLWithPath: file))
            reportedFiles.append(file)
        }
        let reportedChecked = try await validate(reportedFiles)
        #expect(reportedChecked.status == 0 && reportedChecked.stdout.contains("5 valid"), "\(reportedChecked.stdout)")

        // The validator is not vacuous: a member the schema does not know, a verdict it does
        // not list and a tap result out of the code's set are each named.
        var drifted = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: files[0]))) as? [String: Any])
        drifted["surprise"] = 1
        drifted["verdict"] = "MAYBE"
        var taps = try #require(drifted["tapList"] as? [[String: Any]])
        taps[0]["result"] = "PERHAPS"
        drifted["tapList"] = taps
        let bad = scratch.file("drifted.json")
        try JSONSerialization.data(withJSONObject: drifted).write(to: URL(fileURLWithPath: bad))
        let refused = try await validate([bad])
        #expect(refused.status == 1, "\(refused.stdout)")
        for named in ["'surprise' was unexpected", "/verdict: 'MAYBE'", "/tapList/0/result: 'PERHAPS'"] {
            #expect(refused.stdout.contains(named), "\(named) not named: \(refused.stdout)")
        }
    }

    /// The schema's lists of values are the code's: a value added to an enum without the
    /// schema (or the other way round) fails here, not in a lab's pipeline.
    @Test func theSchemasValuesAreTheCodes() throws {
        let schema = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: Self.schema))) as? [String: Any])
        let properties = try #require(schema["properties"] as? [String: Any])
        let defs = try #require(schema["$defs"] as? [String: Any])
        let tap = try #require((defs["tap"] as? [String: Any])?["properties"] as? [String: Any])
        let event = try #require((defs["event"] as? [String: Any])?["properties"] as? [String: Any])
        func values(_ object: [String: Any], _ key: String) -> Set<String> {
            var node = object[key] as? [String: Any]
            if let items = (node?["anyOf"] as? [[String: Any]])?.first?["items"] as? [String: Any] { node = items }
            return Set((node?["enum"] as? [Any] ?? []).compactMap { $0 as? String })
        }
        #expect(values(properties, "status") == Set(SessionRecord.Status.allCases.map(\.rawValue)))
        #expect(values(properties, "verdict") == Set(SessionVerdict.allCases.map(\.rawValue)))
        #expect(values(properties, "plan") == Set(PlanKind.allCases.map(\.rawValue)))
        #expect(values(properties, "mode") == Set(TapMode.allCases.map(\.rawValue)))
        #expect(values(properties, "confidence") == Set(Confidence.allCases.map(\.rawValue)))
        #expect(values(properties, "source") == Set(DataSource.allCases.map(\.rawValue)))
        #expect(values(properties, "openEdges") == Set(ZoneEdge.allCases.map(\.rawValue)))
        #expect(values(tap, "result") == Set(TapRecord.Result.allCases.map(\.rawValue)))
        #expect(values(tap, "placement") == Set(TapPlacement.allCases.map(\.rawValue)))
        #expect(values(tap, "tagProgress") == Set(TagProgress.allCases.map(\.rawValue)))
        #expect(values(tap, "platformProbe") == Set(PlatformProbe.allCases.map(\.rawValue)))
        #expect(values(event, "kind") == Set(SessionEvent.Kind.allCases.map(\.rawValue)))
    }
}
