/// A command-line option, declared once; help, usage lines and parsing all read it.
public struct OptionSpec: Sendable {
    public let name: String
    public let short: Character?
    /// `nil` for a flag; otherwise shown as `<valueName>` in help.
    public let valueName: String?
    public let help: String
    public let isRequired: Bool
    public let isRepeatable: Bool

    public init(_ name: String, short: Character? = nil, value: String? = nil, help: String,
                required: Bool = false, repeatable: Bool = false) {
        precondition(name.hasPrefix("--"), "long option names start with --")
        self.name = name
        self.short = short
        self.valueName = value
        self.help = help
        self.isRequired = required
        self.isRepeatable = repeatable
    }

    public var takesValue: Bool { valueName != nil }

    /// `--model <id>` or `--json`.
    var synopsis: String { valueName.map { "\(name) <\($0)>" } ?? name }

    static let help = OptionSpec("--help", short: "h", help: "Show help information.")
    static let version = OptionSpec("--version", help: "Show the version.")
    static let noColor = OptionSpec("--no-color", help: "Never colour the output (also: NO_COLOR=1).")
}

/// A positional argument.
public struct ArgumentSpec: Sendable {
    public let name: String
    public let help: String
    public let isOptional: Bool
    public let isRepeating: Bool

    public init(_ name: String, help: String, optional: Bool = false, repeating: Bool = false) {
        self.name = name
        self.help = help
        self.isOptional = optional
        self.isRepeating = repeating
    }
}

/// A command or command group. Groups have subcommands and no handler.
public struct CommandSpec: Sendable {
    public typealias Handler = @Sendable (ParsedInvocation, CommandContext) async throws -> Int32

    public let name: String
    public let abstract: String
    public let discussion: String?
    public let arguments: [ArgumentSpec]
    public let options: [OptionSpec]
    public let subcommands: [CommandSpec]
    public let handler: Handler?

    public init(_ name: String, abstract: String, discussion: String? = nil, arguments: [ArgumentSpec] = [],
                options: [OptionSpec] = [], subcommands: [CommandSpec] = [], handler: Handler? = nil) {
        precondition(handler != nil || !subcommands.isEmpty, "command '\(name)' needs a handler or subcommands")
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.arguments = arguments
        self.options = options
        self.subcommands = subcommands
        self.handler = handler
    }

    /// Declared options plus the ones every command accepts.
    var allOptions: [OptionSpec] { options + [.noColor, .help] }

    func option(named token: String) -> OptionSpec? {
        if token.hasPrefix("--") { return allOptions.first { $0.name == token } }
        if token.count == 2, token.hasPrefix("-") { return allOptions.first { $0.short == token.last } }
        return nil
    }
}

/// The result of parsing: which command, with what.
public struct ParsedInvocation: Sendable {
    public let path: [String]
    public let command: CommandSpec
    public internal(set) var values: [String: [String]] = [:]
    public internal(set) var flags: Set<String> = []
    public internal(set) var positionals: [String] = []

    public func value(_ name: String) -> String? { values[name]?.last }
    public func allValues(_ name: String) -> [String] { values[name] ?? [] }
    public func flag(_ name: String) -> Bool { flags.contains(name) }

    /// The value converted by `transform`, or a usage error naming the option and
    /// what it accepts.
    public func value<T>(_ name: String, as what: String, _ transform: (String) -> T?) throws(UsageError) -> T? {
        guard let raw = value(name) else { return nil }
        guard let converted = transform(raw) else {
            throw UsageError("Invalid value '\(raw)' for '\(name)': expected \(what).", path: path)
        }
        return converted
    }
}
