/// Parses `argv` (without the program name) against a command tree.
///
/// A pure function of its input, so tests call it directly. Accepts `--opt value`,
/// `--opt=value`, `-x value`, and `--` to end options.
public struct ArgumentParser: Sendable {
    public let root: CommandSpec

    public init(root: CommandSpec) { self.root = root }

    public func parse(_ arguments: [String]) throws(UsageError) -> ParseOutcome {
        // `help <sub...>` is help for that command.
        if arguments.first == "help" { return .help(path: try helpPath(Array(arguments.dropFirst()))) }
        let (command, path, globalFlags, start) = try descend(arguments)
        var invocation = ParsedInvocation(path: path, command: command)
        invocation.flags.formUnion(globalFlags)
        var index = start
        var onlyPositionals = false
        while index < arguments.count {
            let token = arguments[index]
            index += 1
            if onlyPositionals || token == "-" || !token.hasPrefix("-") {
                invocation.positionals.append(token)
                continue
            }
            if token == "--" { onlyPositionals = true; continue }
            if token == "--help" || token == "-h" { return .help(path: path) }
            if token == "--version", path.count == 1 { return .version }
            try option(token, in: arguments, at: &index, into: &invocation)
        }
        if command.handler == nil {
            throw UsageError("'\(path.joined(separator: " "))' needs a subcommand.", path: path)
        }
        try checkPositionals(invocation, path: path)
        for option in command.options where option.isRequired && invocation.values[option.name] == nil {
            throw UsageError("Missing expected argument '\(option.synopsis)'.", path: path)
        }
        return .run(invocation)
    }

    /// The command path `help` names, each word a subcommand of the one before.
    private func helpPath(_ words: [String]) throws(UsageError) -> [String] {
        var target = root, path = [root.name]
        for word in words {
            guard let sub = target.subcommands.first(where: { $0.name == word }) else {
                throw unknownSubcommand(word, of: target, path: path)
            }
            target = sub.spec
            path.append(word)
        }
        return path
    }

    /// Down through subcommand names; global flags may come before a command's name too
    /// (`nfcbench --no-color sessions`). Returns where the command's own arguments start.
    private func descend(_ arguments: [String]) throws(UsageError) -> (CommandSpec, [String], Set<String>, Int) {
        var command = root
        var path = [root.name]
        var globalFlags = Set<String>()
        var index = 0
        while index < arguments.count, !command.subcommands.isEmpty {
            let word = arguments[index]
            if GlobalOptions.all.contains(where: { $0.spec.name == word }) {
                globalFlags.insert(word)
                index += 1
                continue
            }
            if word.hasPrefix("-") { break }
            guard let sub = command.subcommands.first(where: { $0.name == word }) else {
                throw unknownSubcommand(word, of: command, path: path)
            }
            command = sub.spec
            path.append(word)
            index += 1
        }
        return (command, path, globalFlags, index)
    }

    /// One `--name`, `--name=value` or `-x value`, checked against the command's options.
    private func option(
        _ token: String, in arguments: [String], at index: inout Int, into invocation: inout ParsedInvocation
    ) throws(UsageError) {
        let path = invocation.path
        var name = token
        var inlineValue: String?
        if token.hasPrefix("--"), let eq = token.firstIndex(of: "=") {
            name = String(token[..<eq])
            inlineValue = String(token[token.index(after: eq)...])
        }
        guard let option = invocation.command.option(named: name) else {
            throw unknownOption(name, of: invocation.command, path: path)
        }
        guard option.takesValue else {
            if inlineValue != nil { throw UsageError("'\(option.name)' takes no value.", path: path) }
            invocation.flags.insert(option.name)
            return
        }
        let value: String
        if let inlineValue {
            value = inlineValue
        } else if index < arguments.count, !(arguments[index].hasPrefix("--") && arguments[index].count > 2) {
            value = arguments[index]
            index += 1
        } else {
            throw UsageError("Missing value for '\(option.synopsis)'.", path: path)
        }
        if let problem = option.problem?(value) {
            throw UsageError("Invalid value '\(value)' for '\(option.name)': \(problem)", path: path)
        }
        if !option.isRepeatable, invocation.values[option.name] != nil {
            throw UsageError("'\(option.name)' was given more than once.", path: path)
        }
        invocation.values[option.name, default: []].append(value)
    }

    /// The spec at `path`, e.g. for help output.
    public func command(at path: [String]) -> CommandSpec {
        var command = root
        for word in path.dropFirst() {
            guard let sub = command.subcommands.first(where: { $0.name == word }) else { break }
            command = sub.spec
        }
        return command
    }

    private func checkPositionals(_ invocation: ParsedInvocation, path: [String]) throws(UsageError) {
        let specs = invocation.command.arguments
        let given = invocation.positionals
        let required = specs.filter { !$0.isOptional }.count
        if given.count < required {
            throw UsageError("Missing expected argument '<\(specs[given.count].name)>'.", path: path)
        }
        if !(specs.last?.isRepeating ?? false), given.count > specs.count {
            throw UsageError("Unexpected argument '\(given[specs.count])'.", path: path)
        }
    }

    private func unknownOption(_ name: String, of command: CommandSpec, path: [String]) -> UsageError {
        var message = "Unknown option '\(name)'."
        let names = command.allOptions.map(\.name) + (path.count == 1 ? ["--version"] : [])
        if let guess = Suggestion.closest(to: name, among: names) { message += " Did you mean '\(guess)'?" }
        return UsageError(message, path: path)
    }

    private func unknownSubcommand(_ word: String, of command: CommandSpec, path: [String]) -> UsageError {
        var message = "Unknown subcommand '\(word)'."
        if let guess = Suggestion.closest(to: word, among: command.subcommands.map(\.name)) {
            message += " Did you mean '\(guess)'?"
        }
        return UsageError(message, path: path)
    }
}
