/// `nfcbench completions SHELL`: a completion script for bash, zsh or fish, generated
/// from the command specs: every command, option and choice the parser takes, and
/// nothing else (scripts/install.sh puts each where Debian's shells look).
enum CompletionsCommand {
    enum ShellName: String, CaseIterable, Sendable { case bash, zsh, fish }

    static let spec = CommandSpec(
        "completions", abstract: "Print a shell completion script for bash, zsh or fish.",
        discussion: """
            Try it in the current shell:
              bash: source <(nfcbench completions bash)
              zsh:  nfcbench completions zsh > ~/.zfunc/_nfcbench   (with ~/.zfunc on fpath, before compinit)
              fish: nfcbench completions fish | source
            scripts/install.sh installs all three for every user.
            """,
        arguments: [ArgumentSpec("shell", help: "bash, zsh or fish.", choices: ShellName.allCases.map(\.rawValue))], handler: run)

    static func run(_ invocation: ParsedInvocation, _ context: CommandContext) async throws -> Int32 {
        let name = invocation.positionals[0]
        guard let shell = ShellName(rawValue: name) else {
            throw UsageError(
                "No completions for '\(TerminalSafeText.neutralise(name))': expected bash, zsh or fish.", path: invocation.path)
        }
        let tree = CommandTree(root: CommandLineTool.root)
        let tables = CompletionTables(tree: tree)
        switch shell {
        case .bash: context.output.write(BashCompletion(tables: tables).render())
        case .zsh: context.output.write(ZshCompletion(tables: tables).render())
        case .fish: context.output.write(FishCompletion(tree: tree).render())
        }
        return ExitCode.success
    }
}
