import Foundation

/// `nfcbench manual`: the manual pages, generated from the same specs as `--help`, so a
/// page can never describe an option the parser does not take (scripts/install.sh puts
/// them in share/man/man1).
enum ManualCommand {
    static let spec = CommandSpec(
        "manual", abstract: "Print a command's manual page (roff), or write every page to a folder.",
        discussion: """
            Without --output: the page of the command named (default nfcbench(1)), for 'man -l -':
              nfcbench manual catalog sync | man -l -
            With --output DIR: nfcbench.1 and one page per command (nfcbench-run.1, nfcbench-catalog-sync.1, ...),
            each replaced whole; the folder is made if missing.
            """,
        arguments: [
            ArgumentSpec(
                "command", help: "The command whose page to print (e.g. run, catalog sync).", optional: true, repeating: true)
        ],
        options: [output.spec], handler: run)

    static let output = Option<String>("--output", short: "o", value: "dir", help: "Write every page into this folder.")

    static func run(_ invocation: ParsedInvocation, _ context: CommandContext) async throws -> Int32 {
        let tree = CommandTree(root: CommandLineTool.root)
        let page = { (node: CommandTree.Node) in
            ManualPage(node: node, tree: tree, version: CommandLineTool.version, date: BuildInfo.date).render()
        }
        guard let folder = invocation[output] else {
            guard let node = tree.node(at: invocation.positionals) else {
                throw UsageError(
                    "No command '\(TerminalSafeText.neutralise(invocation.positionals.joined(separator: " ")))'.",
                    path: invocation.path)
            }
            context.output.write(page(node))
            return ExitCode.success
        }
        guard invocation.positionals.isEmpty else {
            throw UsageError(
                "Name a command to print its page, or --output DIR to write them all, not both.", path: invocation.path)
        }
        let directory = context.url(forPath: folder)
        let hint = "Give --output a folder you can write (scripts/install.sh uses PREFIX/share/man/man1)."
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory.path, isDirectory: &isFolder), !isFolder.boolValue {
            throw CommandFailure("'\(TerminalSafeText.neutralise(folder))' is a file, not a folder.", hint: hint)
        }
        do { try FileManager.default.createDirectory(atPath: directory.path, withIntermediateDirectories: true) } catch {
            throw CommandFailure(
                "Cannot make the folder '\(TerminalSafeText.neutralise(folder))': \(error.localizedDescription)", hint: hint)
        }
        for node in tree.nodes {
            let path = directory.appendingPathComponent(node.pageName + ".1").path
            let destination = try OutputPath.check(path, invocation, context)
            try await OutputPath.write(destination) { try $0.write(page(node)) }
        }
        context.errors.line("Wrote \(tree.nodes.count) manual pages to \(TerminalSafeText.neutralise(folder)).")
        return ExitCode.success
    }
}
