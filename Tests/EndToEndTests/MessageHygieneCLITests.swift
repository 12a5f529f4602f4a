import Foundation
import NFCTestSupport
import Testing

/// Issue 49's smaller findings, each through the built binary: what a name or a file holds
/// is shown as it is, on every surface, and messages say one thing once.
@Suite("Messages and names through the CLI")
struct MessageHygieneCLITests {
    let scratch = try! TemporaryDirectory("hygiene")

    /// A catalog whose display name holds a line break, a bidirectional override and a C1
    /// control: the text output starts no line of its own, and `--json` gives back the
    /// very name the catalog holds.
    @Test func aCatalogNameStartsNoLineAndItsJSONRoundTrips() async throws {
        let name = "Galaxy\nCatalog entry: forged\u{202E}\u{9B}31m"
        let catalog = scratch.file("names.json")
        let entry: [String: Any] = [
            "modelIdentifier": "SM-S921B", "manufacturer": "samsung", "displayName": name, "formFactor": "phone",
            "aspectRatio": 0.4803, "zoneX": 0.1, "zoneY": 0.36, "zoneWidth": 0.8, "zoneHeight": 0.38,
            "silhouetteTemplateId": "t",
        ]
        try JSONSerialization.data(withJSONObject: ["version": "v1", "entries": [entry]]).write(
            to: URL(fileURLWithPath: catalog))
        let text = try await BuiltBinary.run(["resolve", "--model", "SM-S921B", "--catalog", catalog])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(!text.stdout.split(separator: "\n").contains { $0.hasPrefix("Catalog entry: forged") }, "\(text.stdout)")
        #expect(text.stdout.contains("Galaxy^JCatalog entry: forged<U+202E>"), "\(text.stdout)")
        for arguments in [["resolve", "--model", "SM-S921B", "--json"], ["catalog", "list", "--json"]] {
            let json = try await BuiltBinary.run(arguments + ["--catalog", catalog])
            #expect(json.status == 0, "\(json.stderr)")
            #expect(!json.stdout.contains("<U+"), "the JSON was rewritten: \(json.stdout.prefix(300))")
            let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8))
            #expect(Self.strings(in: object).contains(name), "\(arguments): the name did not round-trip")
        }
    }

    static func strings(in object: Any) -> [String] {
        if let s = object as? String { return [s] }
        if let a = object as? [Any] { return a.flatMap(strings) }
        if let d = object as? [String: Any] { return d.values.flatMap(strings) }
        return []
    }

    /// Stored escapes are shown in reports (caret notation), not dropped.
    @Test func reportsShowStoredControlCharacters() async throws {
        let db = scratch.database()
        let run = try await BuiltBinary.run([
            "run", "--model", "SM-S921B", "--reader", "sim", "--auto", "--plan", "grid", "--tap-timeout", "0.1", "--db", db,
            "--unit", "unit\u{1B}]0;owned\u{07}", "--no-report", "--json",
        ])
        let id = try #require(run.stdout.firstMatch(of: /"sessionId" *: *"([^"]+)"/)?.1).description
        for format in ["html", "junit"] {
            let report = try await BuiltBinary.run(["report", "--session", id, "--format", format, "--db", db])
            #expect(report.status == 0, "\(report.stderr)")
            #expect(report.stdout.contains("unit^[]0;owned^G"), "\(format): \(report.stdout.prefix(400))")
        }
    }

    /// Every number option reads plain decimals only: `0x10`, `inf` and `nan` are usage
    /// errors everywhere (`--tap-timeout 0x10` was taken as 16 s).
    @Test(arguments: ["0x10", "inf", "nan", "1e309", "0x1p4", ""])
    func numbersAreDecimalsOnly(value: String) async throws {
        let r = try await BuiltBinary.run([
            "run", "--model", "SM-S921B", "--reader", "sim", "--auto", "--db", scratch.database(), "--tap-timeout", value,
        ])
        #expect(r.status == 64, "--tap-timeout \(value): \(r.stderr)")
    }

    /// A 250-byte file name is a legal destination: its temporary stays within NAME_MAX.
    /// A second void names the reason it replaces. Messages end with one full stop.
    @Test func longNamesSecondVoidsAndOneFullStop() async throws {
        let db = scratch.database()
        let run = try await BuiltBinary.run([
            "run", "--model", "SM-S921B", "--reader", "sim", "--auto", "--plan", "grid", "--tap-timeout", "0.1", "--db", db,
            "--no-report", "--json",
        ])
        let id = try #require(run.stdout.firstMatch(of: /"sessionId" *: *"([^"]+)"/)?.1).description
        let long = scratch.file(String(repeating: "e", count: 246) + ".csv")
        let export = try await BuiltBinary.run(["export", "--all", "--db", db, "-o", long])
        #expect(export.status == 0 && FileManager.default.fileExists(atPath: long), "\(export.stderr)")
        let first = try await BuiltBinary.run(["void", id, "--reason", "phone case left on", "--db", db])
        #expect(first.status == 0 && !first.stdout.contains("void already"))
        let second = try await BuiltBinary.run(["void", id, "--reason", "wrong unit", "--db", db])
        #expect(second.stdout.contains("was void already (phone case left on); that reason is replaced"), "\(second.stdout)")
        let refused = try await BuiltBinary.run(["sessions", "--db", "/dev/null"])
        #expect(!refused.stderr.contains(".."), "\(refused.stderr)")
    }

    /// A catalog that is not JSON is said in words, never as Foundation's error type.
    @Test func aFileThatIsNotJSONIsSaidInWords() async throws {
        let broken = scratch.file("broken.json")
        try Data("{\"entries\": [".utf8).write(to: URL(fileURLWithPath: broken))
        for arguments in [
            ["catalog", "validate", broken], ["resolve", "--model", "SM-S921B", "--catalog", broken],
            ["refine", "--all", "--catalog", broken, "-o", scratch.file("patch.json"), "--db", scratch.database()],
        ] {
            let r = try await BuiltBinary.run(arguments)
            #expect(
                !(r.stdout + r.stderr).contains("JSONError") && !(r.stdout + r.stderr).contains("FoundationEssentials"),
                "\(arguments): \(r.stderr)")
        }
    }
}
