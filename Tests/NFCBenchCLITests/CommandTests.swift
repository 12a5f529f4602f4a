import Foundation
import NFCTestSupport
import Testing

@testable import NFCBenchCLI

/// Runs commands in process with captured output.
struct Harness {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    var environment = ["NFCBENCH_RESOURCES": root.appendingPathComponent("Resources").path]
    let output: CapturedOutput
    let errors = CapturedOutput()

    init(terminal: Bool = false) { output = CapturedOutput(isTerminal: terminal) }

    func run(_ args: String...) async -> Int32 { await run(args) }

    func run(_ args: [String]) async -> Int32 {
        await CommandLineTool.main(
            arguments: args,
            context: CommandContext(
                environment: environment, output: output, errors: errors))
    }

    /// A scratch folder; callers remove it when done (`defer`).
    static func temporaryDirectory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("nfcbench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }
}

@Suite("Commands in process")
struct CommandTests {
    @Test func usageErrorsExit64WithUsageAndHint() async {
        let h = Harness()
        #expect(await h.run("resolve", "--modle", "x") == 64)
        let lines = h.errors.text.split(separator: "\n").map(String.init)
        #expect(lines[0] == "Error: Unknown option '--modle'. Did you mean '--model'?")
        #expect(lines[1].hasPrefix("Usage: nfcbench resolve --model <id|name>"))
        #expect(lines[2] == "  See 'nfcbench resolve --help' for more information.")
        #expect(h.output.text.isEmpty)
    }

    @Test func invalidEnumValueIsAUsageError() async {
        let h = Harness()
        #expect(await h.run("resolve", "-m", "x", "--form-factor", "brick") == 64)
        #expect(h.errors.text.contains("Invalid value 'brick' for '--form-factor'"))
    }

    @Test func helpGoesToStdoutAndExits0() async {
        let h = Harness()
        #expect(await h.run("catalog", "--help") == 0)
        #expect(h.output.text.contains("SUBCOMMANDS:") && h.errors.text.isEmpty)
    }

    @Test func colourOnlyOnATerminalWithoutNoColor() async {
        let tty = Harness(terminal: true)
        _ = await tty.run("resolve", "-m", "iPhone15,2")
        #expect(tty.output.text.contains("\u{1B}["))
        var noColor = Harness(terminal: true)
        noColor.environment["NO_COLOR"] = "1"
        _ = await noColor.run("resolve", "-m", "iPhone15,2")
        #expect(!noColor.output.text.contains("\u{1B}["))
        let flag = Harness(terminal: true)
        _ = await flag.run("resolve", "-m", "iPhone15,2", "--no-color")
        #expect(!flag.output.text.contains("\u{1B}["))
        let pipe = Harness()
        _ = await pipe.run("resolve", "-m", "iPhone15,2")
        #expect(!pipe.output.text.contains("\u{1B}[") && pipe.output.text.contains("[EXACT]"))
        var dumb = Harness(terminal: true)
        dumb.environment["TERM"] = "dumb"
        _ = await dumb.run("resolve", "-m", "iPhone15,2")
        #expect(!dumb.output.text.contains("\u{1B}[") && dumb.output.text.contains("[EXACT]"))
        // Global options work before the command's name too.
        let before = Harness(terminal: true)
        #expect(await before.run("--no-color", "resolve", "-m", "iPhone15,2") == 0)
        #expect(!before.output.text.contains("\u{1B}[") && before.output.text.contains("[EXACT]"))
    }

    @Test func validateExitCodes() async throws {
        let dir = try Harness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let seed = Harness.root.appendingPathComponent("Resources/seed_catalog.json").path
        let good = Harness()
        #expect(await good.run("catalog", "validate", seed) == 0)
        #expect(good.output.text.contains("37 good row(s), 0 bad row(s)"))

        let bad = dir.appendingPathComponent("bad.json")
        try Data(
            """
            {"version":"x","entries":[{"modelIdentifier":"A","manufacturer":"m","displayName":"d","formFactor":"phone",
            "aspectRatio":0.5,"zoneX":0.1,"zoneY":0.1,"zoneWidth":0,"zoneHeight":0.2,"silhouetteTemplateId":"t"},
            {"modelIdentifier":"B"}]}
            """.utf8
        ).write(to: bad)
        let h = Harness()
        #expect(await h.run("catalog", "validate", bad.path) == 1)
        #expect(h.output.text.contains("row 0 (a): zoneWidth is 0.0; it must be greater than 0"))
        #expect(h.output.text.contains("row 1: field 'entries[1].manufacturer' is missing"))

        let json = Harness()
        #expect(await json.run("catalog", "validate", bad.path, "--json") == 1)
        let report = try JSONSerialization.jsonObject(with: Data(json.output.text.utf8)) as! [String: Any]
        #expect((report["badRows"] as! [[String: Any]]).map { $0["index"] as! Int } == [0, 1])

        let tall = dir.appendingPathComponent("tall.json")
        try Data(
            """
            {"version":"x","entries":[{"modelIdentifier":"A","manufacturer":"m","displayName":"d","formFactor":"phone",
            "aspectRatio":0.5,"zoneX":0.1,"zoneY":0.1,"zoneWidth":0.2,"zoneHeight":0.2,"silhouetteTemplateId":"t",
            "bodyWidthMm":70,"bodyHeightMm":5000},
            {"modelIdentifier":"B","manufacturer":"m","displayName":"d","formFactor":"phone",
            "aspectRatio":0.5,"zoneX":0.1,"zoneY":0.1,"zoneWidth":0.2,"zoneHeight":0.2,"silhouetteTemplateId":"t",
            "bodyWidthMm":-10}]}
            """.utf8
        ).write(to: tall)
        let sizes = Harness()
        #expect(await sizes.run("catalog", "validate", tall.path) == 1)
        #expect(sizes.output.text.contains("bodyHeightMm 5000.0 is not a plausible body size"), "\(sizes.output.text)")
        #expect(sizes.output.text.contains("bodyWidthMm -10.0 is not a plausible body size"), "\(sizes.output.text)")

        let twice = dir.appendingPathComponent("twice.json")
        try Data(
            """
            {"version":"x","entries":[{"modelIdentifier":"A","manufacturer":"m","displayName":"d","formFactor":"phone",
            "aspectRatio":0.5,"zoneX":0.1,"zoneY":0.1,"zoneWidth":0.2,"zoneHeight":0.2,"silhouetteTemplateId":"t",
            "zoneX":0.6}]}
            """.utf8
        ).write(to: twice)
        let dup = Harness()
        #expect(await dup.run("catalog", "validate", twice.path) == 1)
        #expect(dup.errors.text.contains("line 3, column 1: the member name \"zoneX\" appears twice"), "\(dup.errors.text)")

        let notJSON = dir.appendingPathComponent("n.json")
        try Data("version: 1\n".utf8).write(to: notJSON)
        let nj = Harness()
        #expect(await nj.run("catalog", "validate", notJSON.path) == 2)
        #expect(nj.errors.text.contains("is not JSON"))

        let missing = Harness()
        #expect(await missing.run("catalog", "validate", dir.appendingPathComponent("none.json").path) == 1)
        #expect(missing.errors.text.contains("Hint:"))
    }

    @Test func catalogListJSONIsACatalogDocument() async throws {
        let h = Harness()
        #expect(await h.run("catalog", "list", "--json") == 0)
        let doc = try JSONSerialization.jsonObject(with: Data(h.output.text.utf8)) as! [String: Any]
        #expect((doc["entries"] as! [Any]).count == 37 && doc["version"] as? String == "seed-2026.11.1")
    }

    @Test func catalogFileIsLaidOverTheSeed() async throws {
        let dir = try Harness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let patch = dir.appendingPathComponent("patch.json")
        try Data(
            """
            {"version":"lab-1","entries":[{"modelIdentifier":"SM-S921B","manufacturer":"Samsung","displayName":"Galaxy S24",
            "formFactor":"phone","aspectRatio":0.4803,"zoneX":0.05,"zoneY":0.05,"zoneWidth":0.65,"zoneHeight":0.3,
            "silhouetteTemplateId":"samsung.galaxy.s","lastVerifiedAt":"2099-01-01T00:00:00Z"}]}
            """.utf8
        ).write(to: patch)
        let list = Harness()
        #expect(await list.run("catalog", "list", "--json", "--catalog", patch.path) == 0)
        let doc = try JSONSerialization.jsonObject(with: Data(list.output.text.utf8)) as! [String: Any]
        let entries = doc["entries"] as! [[String: Any]]
        #expect(entries.count == 37)
        #expect(entries.first { $0["modelIdentifier"] as? String == "SM-S921B" }?["zoneY"] as? Double == 0.05)

        let missing = Harness()
        #expect(await missing.run("resolve", "-m", "SM-S921B", "--json", "--catalog", "/nonexistent.json") == 0)
        #expect(missing.errors.text.contains("Warning: remoteCatalog unusable, falling through"))
        #expect(missing.output.text.contains("\"source\": \"seedCatalog\""))
    }

    @Test func svgIsWritten() async throws {
        let dir = try Harness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("s24.svg")
        #expect(await Harness().run("resolve", "-m", "SM-S921B", "--svg", file.path) == 0)
        let svg = try String(contentsOf: file, encoding: .utf8)
        #expect(svg.contains("class=\"nfc-zone nfc-zone-stale\"") && svg.contains(">Galaxy S24</title>"))
        #expect(!svg.contains("var(") && svg.contains("back of the phone, top edge up"))
    }

    @Test func missingResourcesSayWhatToDo() async {
        var h = Harness()
        h.environment["NFCBENCH_RESOURCES"] = "/nonexistent"
        #expect(await h.run("resolve", "-m", "x") == 0)  // heuristic still answers
        #expect(h.errors.text.contains("seedCatalog unusable"))
    }
}

/// A long push says how far it has got; a short one stays silent.
@Suite("Sync progress")
struct SyncProgressTests {
    @Test func aLongPushReportsWhereItIsInLines() {
        let output = CapturedOutput()
        let progress = SyncProgress(output: output, interactive: false, every: .zero)
        for done in 0...60 { progress.update(done: done, total: 60, destination: "lab@127.0.0.1:5432/lab") }
        progress.finish()
        let lines = output.text.split(separator: "\n")
        #expect(lines.first == "Pushing 60 sessions to lab@127.0.0.1:5432/lab...")
        #expect(lines.contains("  30 of 60 sessions pushed (50%)") && lines.count == 60, "\(lines.suffix(3))")
        #expect(!output.text.contains("\u{1B}"))
    }

    @Test func aShortPushIsSilent() {
        let output = CapturedOutput()
        let progress = SyncProgress(output: output, interactive: false, every: .zero)
        for done in 0...3 { progress.update(done: done, total: 3, destination: "lab") }
        #expect(output.text.isEmpty)
    }

    /// On a terminal one line is redrawn, and cleared when the push ends or stops part way.
    @Test func onATerminalOneLineIsRedrawnAndCleared() {
        let output = CapturedOutput(isTerminal: true)
        let progress = SyncProgress(output: output, interactive: true)
        progress.update(done: 0, total: 100, destination: "lab")
        progress.update(done: 1, total: 100, destination: "lab")  // within 100 ms: not redrawn
        progress.finish()
        #expect(output.text == "\r\u{1B}[2KPushing to lab: 0 of 100 sessions (0%)\r\u{1B}[2K")
    }
}

/// The top-level listing repeats each command's abstract so that `nfcbench --help` builds
/// no command's spec; the two copies must say the same (the listing's `report` once left
/// out PDF while `report --help` named it).
@Suite("The command listing")
struct CommandListingTests {
    @Test func everyListedAbstractIsTheCommandsOwn() {
        func walk(_ spec: CommandSpec) {
            for sub in spec.subcommands {
                let own = sub.spec
                #expect(sub.abstract == own.abstract, "\(spec.name) \(sub.name)")
                #expect(sub.name == own.name)
                walk(own)
            }
        }
        walk(CommandLineTool.root)
        #expect(CommandLineTool.root.subcommands.count >= 18)
    }
}

/// The resume hint is a command a shell reads back word for word.
@Suite("The resume hint")
struct ResumeHintTests {
    @Test func everyWordComesBackFromTheShellAsItWas() async throws {
        let words = ["exec:test {index} -lt 3", "it's", "/tmp/a b/c.sqlite", "plain-word_1.0", "", "$(touch x)", "a\"b"]
        let line = words.map(ResumeHint.shellWord).joined(separator: " ")
        #expect(ResumeHint.shellWord("plain-word_1.0") == "plain-word_1.0")
        let printed = try await ChildProcess.run(
            "/bin/sh", ["-c", "for w in " + line + "; do printf '%s\\n' \"$w\"; done"], environment: [:]
        ).stdout
        #expect(printed == words.map { $0 + "\n" }.joined(), "\(printed)")
    }
}
