import Foundation
import NFCTestSupport
import Testing

/// Text from a store or a catalog never acts on the terminal or the page: escape
/// sequences (a window title, a screen clear, a clipboard write, hidden text) and
/// bidirectional overrides are shown, in every command that prints them.
@Suite("Terminal and HTML safety")
struct TerminalSafetyCLITests {
    let scratch: TemporaryDirectory
    init() throws { scratch = try TemporaryDirectory("tsafe") }

    static let hostile = [
        "\u{1B}]0;owned\u{07}", "\u{1B}[2J", "\u{1B}]52;c;ZWNobyBvd25lZA==\u{07}", "\u{1B}[8m", "\u{1B}[31m", "\u{202E}",
        "\u{2066}",
    ]

    func raw(_ text: String) -> [String] {
        var found: [String] = []
        if text.contains("\u{1B}") { found.append("ESC") }
        if text.contains("\u{07}") { found.append("BEL") }
        for scalar in text.unicodeScalars
        where (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value) {
            found.append(String(scalar.value, radix: 16))
        }
        return found
    }

    @Test func storedNamesAreShownNeverActedOn() async throws {
        let db = scratch.database()
        let name = "ana" + Self.hostile.joined()
        let run = try await BuiltBinary.run([
            "run", "--model", "SM-S921B", "--reader", "sim", "--auto", "--plan", "grid", "--tap-timeout", "0.1", "--db", db,
            "--operator", name, "--unit", "unit" + Self.hostile.joined(), "--no-report", "--json",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let id = try #require(run.stdout.firstMatch(of: /"sessionId" *: *"([^"]+)"/)?.1).description
        for arguments in [
            ["sessions", "--db", db], ["show", id, "--db", db], ["refine", "--all", "--include-simulated", "--db", db],
        ] {
            let r = try await BuiltBinary.run(arguments)
            #expect(r.status == 0, "\(arguments[0]): \(r.stderr)")
            #expect(raw(r.stdout + r.stderr).isEmpty, "\(arguments[0]) printed \(raw(r.stdout + r.stderr))")
        }
        let shown = try await BuiltBinary.run(["show", id, "--db", db])
        #expect(shown.stdout.contains("ana^[]0;owned^G") && shown.stdout.contains("<U+202E>"), "\(shown.stdout)")
        for format in ["html", "junit", "svg"] {
            let report = try await BuiltBinary.run(["report", "--session", id, "--format", format, "--db", db])
            #expect(report.status == 0, "\(report.stderr)")
            #expect(raw(report.stdout).isEmpty, "\(format) holds \(raw(report.stdout))")
        }
    }

    /// Issue 49, F3: `export` and `report --format csv-sessions` to standard output on a
    /// terminal (a pseudo-terminal through `script`) show stored escapes in caret notation,
    /// as every other command does; to a file or a pipe the CSV stays byte for byte.
    @Test func exportsToATerminalShowStoredEscapes() async throws {
        let db = scratch.database()
        let run = try await BuiltBinary.run([
            "run", "--model", "SM-S921B", "--reader", "sim", "--auto", "--plan", "grid", "--tap-timeout", "0.1", "--db", db,
            "--operator", "ana" + Self.hostile.joined(), "--no-report", "--json",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        for arguments in [
            ["export", "--all"], ["report", "--all", "--include-simulated", "--format", "csv-sessions"],
        ] {
            let line = ([BuiltBinary.path] + arguments + ["--db", db]).map { "'\($0)'" }.joined(separator: " ")
            let terminal = try await BuiltBinary.run(["-qec", line, "/dev/null"], binary: "/usr/bin/script")
            #expect(terminal.status == 0, "\(arguments[0]): \(terminal.stderr)")
            #expect(raw(terminal.stdout).isEmpty, "\(arguments[0]) on a terminal printed \(raw(terminal.stdout))")
            #expect(terminal.stdout.contains("ana^[]0;owned^G"), "\(terminal.stdout)")
            let piped = try await BuiltBinary.run(arguments + ["--db", db])
            #expect(piped.stdout.contains("ana" + Self.hostile.joined()), "a pipe gets the stored bytes")
        }
    }

    @Test func catalogTextIsShownNeverActedOn() async throws {
        let catalog = scratch.file("hostile.json")
        let hostile = Self.hostile.joined().unicodeScalars.map {
            $0.value < 0x20 ? String(format: "\\u%04x", $0.value) : String($0)
        }
        .joined()
        try Data(
            """
            {"version": "v1\(hostile)", "entries": [{"modelIdentifier": "SM-S921B", "manufacturer": "samsung",
             "displayName": "Galaxy\(hostile)", "formFactor": "phone", "aspectRatio": 0.4803, "zoneX": 0.1,
             "zoneY": 0.36, "zoneWidth": 0.8, "zoneHeight": 0.38, "silhouetteTemplateId": "t"}]}
            """.utf8
        ).write(to: URL(fileURLWithPath: catalog))
        for arguments in [
            ["resolve", "--model", "SM-S921B", "--catalog", catalog], ["catalog", "list", "--catalog", catalog],
            ["catalog", "validate", catalog],
        ] {
            let r = try await BuiltBinary.run(arguments)
            #expect(r.status == 0, "\(arguments[0]): \(r.stderr)")
            #expect(raw(r.stdout + r.stderr).isEmpty, "\(arguments.prefix(2)) printed \(raw(r.stdout + r.stderr))")
        }
        let resolved = try await BuiltBinary.run(["resolve", "--model", "SM-S921B", "--catalog", catalog])
        #expect(resolved.stdout.contains("Galaxy^[]0;owned^G"), "\(resolved.stdout)")
        let svg = scratch.file("z.svg")
        #expect(try await BuiltBinary.run(["resolve", "--model", "SM-S921B", "--catalog", catalog, "--svg", svg]).status == 0)
        #expect(raw(try String(contentsOfFile: svg, encoding: .utf8)).isEmpty)
    }
}
