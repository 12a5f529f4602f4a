import Testing
@testable import NFCBenchCLI

@Suite("Argument parsing")
struct ArgumentParserTests {
    let parser = ArgumentParser(root: NFCBench.root)

    func run(_ args: [String]) throws -> ParsedInvocation {
        guard case .run(let invocation) = try parser.parse(args) else {
            Issue.record("expected a command for \(args)")
            throw UsageError("not a run", path: [])
        }
        return invocation
    }

    func usageError(_ args: [String]) -> UsageError? {
        do { _ = try parser.parse(args) } catch { return error }
        return nil
    }

    @Test(arguments: [
        ["resolve", "--model", "SM-S921B", "--json"],
        ["resolve", "--model=SM-S921B", "--json"],
        ["resolve", "-m", "SM-S921B", "--json"],
        ["resolve", "--json", "-m", "SM-S921B"],
    ])
    func spellingsOfTheSameCall(args: [String]) throws {
        let inv = try run(args)
        #expect(inv.path == ["nfcbench", "resolve"])
        #expect(inv.value("--model") == "SM-S921B")
        #expect(inv.flag("--json"))
    }

    @Test func modelWithSpacesAndNegativeLookingValues() throws {
        #expect(try run(["resolve", "--model", "Pixel 8 Pro"]).value("--model") == "Pixel 8 Pro")
        #expect(try run(["resolve", "--model", "-x"]).value("--model") == "-x")
    }

    @Test func nestedSubcommandsAndPositionals() throws {
        let inv = try run(["catalog", "validate", "x.json", "--json"])
        #expect(inv.path == ["nfcbench", "catalog", "validate"] && inv.positionals == ["x.json"])
        #expect(try run(["catalog", "validate", "--", "--odd-name.json"]).positionals == ["--odd-name.json"])
    }

    @Test(arguments: [
        (["resolve", "--modle", "x"], "Unknown option '--modle'. Did you mean '--model'?"),
        (["resolve", "--jsno", "-m", "x"], "Unknown option '--jsno'. Did you mean '--json'?"),
        (["resolve", "--zzzzzzzz"], "Unknown option '--zzzzzzzz'."),
        (["resolve"], "Missing expected argument '--model <id>'."),
        (["resolve", "--model"], "Missing value for '--model <id>'."),
        (["resolve", "--model", "--json"], "Missing value for '--model <id>'."),
        (["resolve", "-m", "a", "-m", "b"], "'--model' was given more than once."),
        (["resolve", "-m", "a", "--json=yes"], "'--json' takes no value."),
        (["resolve", "-m", "a", "extra"], "Unexpected argument 'extra'."),
        (["resolv"], "Unknown subcommand 'resolv'. Did you mean 'resolve'?"),
        (["catalog"], "'nfcbench catalog' needs a subcommand."),
        (["catalog", "validate"], "Missing expected argument '<file>'."),
        (["catalog", "lst"], "Unknown subcommand 'lst'. Did you mean 'list'?"),
    ])
    func usageErrorsNameTheProblem(args: [String], message: String) {
        #expect(usageError(args)?.message == message)
    }

    @Test func helpAndVersion() throws {
        guard case .help(let path) = try parser.parse(["catalog", "validate", "--help"]) else {
            Issue.record("no help"); return
        }
        #expect(path == ["nfcbench", "catalog", "validate"])
        guard case .help(let helpPath) = try parser.parse(["help", "resolve"]) else { Issue.record("no help"); return }
        #expect(helpPath == ["nfcbench", "resolve"])
        guard case .version = try parser.parse(["--version"]) else { Issue.record("no version"); return }
        #expect(usageError(["resolve", "--version"])?.message.hasPrefix("Unknown option '--version'") == true)
    }

    @Test func helpHasEverySection() {
        let text = HelpFormatter(path: ["nfcbench"], command: NFCBench.root).render()
        for section in ["OVERVIEW:", "USAGE: nfcbench <subcommand>", "OPTIONS:", "SUBCOMMANDS:", "--version", "resolve"] {
            #expect(text.contains(section), "\(section)")
        }
        let spec = NFCBench.root.subcommands.first { $0.name == "resolve" }!
        let resolve = HelpFormatter(path: ["nfcbench", "resolve"], command: spec).render()
        #expect(resolve.contains("USAGE: nfcbench resolve --model <id> [--manufacturer <name>]"))
        #expect(resolve.contains("-m, --model <id>"))
    }

    @Test(arguments: [("--modle", "--model", 2), ("abc", "abc", 0), ("", "ab", 2), ("kitten", "sitting", 3)])
    func editDistance(a: String, b: String, d: Int) {
        #expect(Suggestion.distance(a, b) == d)
    }
}
