import Foundation
import NFCTestSupport
import Testing

@testable import NFCBenchCLI

/// The manual pages come from the command specs and render with man-db as Debian ships it.
@Suite("Manual pages")
struct ManualPageTests {
    let tree = CommandTree(root: CommandLineTool.root)

    /// `man -l FILE` as a reader would run it, with groff's warnings on and lines long
    /// enough that no option is broken across two.
    static func man(_ file: String) async throws -> (status: Int32, stdout: String, stderr: String) {
        try await ChildProcess.run(
            "/usr/bin/man", ["--warnings", "-E", "UTF-8", "-l", file],
            environment: [
                "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "MANWIDTH": "400", "HOME": NSTemporaryDirectory(),
            ], timeout: 60)
    }

    @Test func everyCommandHasAPageThatManRendersWithoutAWarning() async throws {
        let folder = try Harness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let h = Harness()
        #expect(await h.run("manual", "--output", folder.path + "/man1") == 0, "\(h.errors.text)")
        let written = try FileManager.default.contentsOfDirectory(atPath: folder.path + "/man1").sorted()
        #expect(written == tree.nodes.map { $0.pageName + ".1" }.sorted())
        #expect(written.contains("nfcbench.1") && written.contains("nfcbench-catalog-sync.1") && written.count > 30)
        for node in tree.nodes {
            let page = try await Self.man(folder.path + "/man1/" + node.pageName + ".1")
            #expect(page.status == 0 && page.stderr.isEmpty, "\(node.pageName): \(page.stderr)")
            #expect(page.stdout.contains("\(node.pageName) - \(node.spec.abstract.prefix(40))"), "\(node.pageName)")
            #expect(page.stdout.contains(node.invocation), "\(node.pageName) has no synopsis")
            for option in node.options {
                #expect(page.stdout.contains(option.name), "\(node.pageName) leaves out \(option.name)")
                for choice in option.choices { #expect(page.stdout.contains(choice), "\(option.name): \(choice)") }
            }
            for sub in node.spec.subcommands {
                #expect(page.stdout.contains("\(node.pageName)-\(sub.name)(1)"), "\(node.pageName) does not name \(sub.name)")
            }
        }
    }

    @Test func oneCommandsPageGoesToStandardOutput() async {
        let h = Harness()
        #expect(await h.run("manual", "catalog", "sync") == 0)
        #expect(h.output.text.contains(".TH NFCBENCH-CATALOG-SYNC 1"))
        #expect(h.output.text.contains("\\fB\\-\\-catalog\\-key\\fR"))
        let root = Harness()
        #expect(await root.run("manual") == 0 && root.output.text.contains(".TH NFCBENCH 1"))
    }

    @Test func anUnknownCommandOrBothFormsAreUsageErrors() async throws {
        let h = Harness()
        #expect(await h.run("manual", "catalog", "nosuch") == 64)
        #expect(h.errors.text.contains("No command 'catalog nosuch'") && h.output.text.isEmpty)
        let both = Harness()
        #expect(await both.run("manual", "run", "-o", "/tmp/never-\(UUID().uuidString)") == 64)
        #expect(both.errors.text.contains("not both"))
    }

    @Test func aFileWhereTheFolderShouldBeIsRefusedAndKept() async throws {
        let folder = try Harness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("notes.txt")
        try Data("keep me\n".utf8).write(to: file)
        let h = Harness()
        #expect(await h.run("manual", "-o", file.path) == 1)
        #expect(h.errors.text.contains("'\(file.path)' is a file, not a folder."), "\(h.errors.text)")
        #expect(h.errors.text.contains("Give --output a folder"))
        #expect(try String(contentsOf: file, encoding: .utf8) == "keep me\n")
    }

    /// A help text is printed as written: a backslash is not an escape and a line that
    /// starts with a dot is not a request (roff would otherwise run `.so /etc/passwd`).
    @Test func rofflikeTextIsPrintedNotObeyed() async throws {
        let spec = CommandSpec(
            "odd", abstract: "Reads C:\\fBbold\\fR paths.",
            discussion: "First line.\n.so /etc/passwd\n'br quoted", options: [OptionSpec("--x", help: ".TH looks like a title")],
            handler: { _, _ in 0 })
        let node = CommandTree.Node(path: ["nfcbench", "odd"], spec: spec)
        let text = ManualPage(node: node, tree: CommandTree(root: spec), version: "0", date: "2026-12-07").render()
        let folder = try Harness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("odd.1").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        let page = try await Self.man(file)
        #expect(page.status == 0 && page.stderr.isEmpty, "\(page.stderr)")
        #expect(page.stdout.contains("Reads C:\\fBbold\\fR paths."))
        #expect(page.stdout.contains(".so /etc/passwd") && page.stdout.contains("'br quoted"))
        #expect(page.stdout.contains(".TH looks like a title"))
        #expect(!page.stdout.contains("root:x:0:0"))
    }
}
