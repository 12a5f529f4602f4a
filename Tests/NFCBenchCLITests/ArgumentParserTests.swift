import NFCBenchRecords
import NFCReaderLibNFC
import NFCReaders
import Testing

@testable import NFCBenchCLI

@Suite("Argument parsing")
struct ArgumentParserTests {
    let parser = ArgumentParser(root: CommandLineTool.root)

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
        #expect(inv[ResolveCommand.model] == "SM-S921B")
        #expect(inv[ResolveCommand.json])
    }

    @Test func modelWithSpacesAndNegativeLookingValues() throws {
        #expect(try run(["resolve", "--model", "Pixel 8 Pro"])[ResolveCommand.model] == "Pixel 8 Pro")
        #expect(try run(["resolve", "--model", "-x"])[ResolveCommand.model] == "-x")
    }

    /// Global flags are accepted anywhere: before the command's name, between command
    /// and subcommand, and after.
    @Test(arguments: [
        ["--no-color", "sessions"], ["sessions", "--no-color"], ["--verbose", "--no-color", "sessions"],
        ["catalog", "--no-color", "list"], ["--no-color", "catalog", "list", "--verbose"],
    ])
    func globalOptionsAnywhere(_ args: [String]) throws {
        let inv = try run(args)
        #expect(inv[GlobalOptions.noColor] && inv.path.last == args.filter { !$0.hasPrefix("-") }.last)
        #expect(inv[GlobalOptions.verbose] == args.contains("--verbose"))
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
        (["resolve"], "Missing expected argument '--model <id|name>'."),
        (["resolve", "--model"], "Missing value for '--model <id|name>'."),
        (["resolve", "--model", "--json"], "Missing value for '--model <id|name>'."),
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

    /// Every value is checked by the parser with the option's own conversion, so a bad
    /// one is a usage error (exit 64) before any command runs; `--catalog-timeout abc`
    /// used to become 3 s silently.
    @Test(arguments: [
        (
            ["resolve", "-m", "x", "--catalog-timeout", "abc"],
            "Invalid value 'abc' for '--catalog-timeout': expected seconds in 0.1...300."
        ),
        (
            ["resolve", "-m", "x", "--catalog-timeout", "inf"],
            "Invalid value 'inf' for '--catalog-timeout': expected seconds in 0.1...300."
        ),
        (
            ["run", "-m", "x", "--tap-timeout", "1e309"],
            "Invalid value '1e309' for '--tap-timeout': expected seconds in 0.1...3600."
        ),
        (
            ["run", "-m", "x", "--tap-timeout", "nan"],
            "Invalid value 'nan' for '--tap-timeout': expected seconds in 0.1...3600."
        ),
        (["run", "-m", "x", "--repeats", "0"], "Invalid value '0' for '--repeats': expected a whole number in 1...10."),
        (
            ["run", "-m", "x", "--positioner-timeout", "0"],
            "Invalid value '0' for '--positioner-timeout': expected seconds in 1...3600."
        ),
        (
            ["run", "-m", "x", "--positioner", "exec:"],
            "Invalid value 'exec:' for '--positioner': expected manual, sim, exec:TEMPLATE, gcode or gcode:DEVICE."
        ),
        (["poll", "--timeout", "1e20"], "Invalid value '1e20' for '--timeout': expected seconds in 0.05...86400."),
        (
            ["plan", "-m", "x", "--plan", "spiral"],
            "Invalid value 'spiral' for '--plan': expected adaptive, grid, raster or coil."
        ),
        (
            ["catalog", "import", "f", "--format", "gematik", "--point-size-mm", "1e19"],
            "Invalid value '1e19' for '--point-size-mm': expected millimetres in 1...100."
        ),
    ])
    func badValuesAreRejectedByTheParser(args: [String], message: String) {
        #expect(usageError(args)?.message == message)
    }

    @Test func aBadReaderSpecCarriesTheSpecsOwnHint() {
        let message = usageError(["poll", "--reader", "libnfc:acr122_pcsc"])?.message ?? ""
        #expect(
            message.hasPrefix("Invalid value 'libnfc:acr122_pcsc' for '--reader': Debian's libnfc is built without"), "\(message)"
        )
        #expect(message.contains("--reader pcsc:ACR122"))
    }

    @Test func typedAccessorsReturnConvertedValues() throws {
        let inv = try run([
            "run", "-m", "SM-S921B", "--tap-timeout", "0.5", "--repeats", "3", "--plan", "adaptive",
            "--reader", "libnfc:pn532_uart:/dev/ttyUSB0",
        ])
        #expect(inv[RunOptions.tapTimeout] == 0.5 && inv[RunOptions.repeats] == 3 && inv[RunOptions.plan] == .adaptive)
        #expect(inv[RunOptions.reader] == .libnfc(connstring: "pn532_uart:/dev/ttyUSB0"))
        #expect(inv[RunOptions.simSeed] == nil && !inv[RunOptions.auto])
        let export = try run(["export", "--session", "S-1", "--session", "S-2"])
        #expect(export.all(ExportCommand.session) == ["S-1", "S-2"])
        #expect(try run(["plan", "-m", "Pixel 8"]).required(PlanCommand.model) == "Pixel 8")
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

    /// The root lists its commands without building them; what it lists must be what each
    /// command says of itself, or help and parsing would disagree.
    @Test func everyListedCommandIsTheCommandItNames() {
        for entry in CommandLineTool.root.subcommands {
            #expect(entry.spec.name == entry.name)
            #expect(entry.spec.abstract == entry.abstract, "\(entry.name)")
        }
    }

    @Test func helpHasEverySection() {
        let text = HelpFormatter(path: ["nfcbench"], command: CommandLineTool.root).render()
        for section in ["OVERVIEW:", "USAGE: nfcbench <subcommand>", "OPTIONS:", "SUBCOMMANDS:", "--version", "resolve"] {
            #expect(text.contains(section), "\(section)")
        }
        let spec = CommandLineTool.root.subcommands.first { $0.name == "resolve" }!.spec
        let resolve = HelpFormatter(path: ["nfcbench", "resolve"], command: spec).render()
        #expect(resolve.contains("USAGE: nfcbench resolve --model <id|name> [--manufacturer <name>]"))
        #expect(resolve.contains("-m, --model <id|name>"))
    }

    @Test(arguments: [("--modle", "--model", 2), ("abc", "abc", 0), ("", "ab", 2), ("kitten", "sitting", 3)])
    func editDistance(a: String, b: String, d: Int) {
        #expect(Suggestion.distance(a, b) == d)
    }
}
