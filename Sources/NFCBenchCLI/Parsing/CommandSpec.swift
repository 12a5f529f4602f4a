import NFCBench

/// A command-line option, declared once; help, usage lines and parsing all read it.
public struct OptionSpec: Sendable {
    public let name: String
    public let short: Character?
    /// `nil` for a flag; otherwise shown as `<valueName>` in help.
    public let valueName: String?
    public let help: String
    public let isRequired: Bool
    public let isRepeatable: Bool
    /// What a value must look like, for the usage error ("seconds > 0"); `nil` takes any text.
    public let expected: String?
    /// The values a shell completes and a manual page lists, when the value is one of a
    /// few words (`--plan`, `--format`); empty for free values. Each passes `problem`.
    public let choices: [String]
    /// Checked by the parser for every value given, so a bad value is a usage error
    /// (exit 64) before any command code runs: `nil` when the value is good, else what
    /// is wrong with it (`expected` when there is nothing more specific to say).
    let problem: (@Sendable (String) -> String?)?

    public init(
        _ name: String, short: Character? = nil, value: String? = nil, help: String,
        required: Bool = false, repeatable: Bool = false, expected: String? = nil, choices: [String] = [],
        problem: (@Sendable (String) -> String?)? = nil
    ) {
        precondition(name.hasPrefix("--"), "long option names start with --")
        precondition((expected == nil) == (problem == nil), "a value check comes with the words that describe it")
        self.name = name
        self.short = short
        self.valueName = value
        self.help = help
        self.isRequired = required
        self.isRepeatable = repeatable
        self.expected = expected
        self.choices = choices
        self.problem = problem
    }

    public var takesValue: Bool { valueName != nil }

    /// `--model <id>` or `--json`.
    var synopsis: String { valueName.map { "\(name) <\($0)>" } ?? name }

    static let help = OptionSpec("--help", short: "h", help: "Show help information.")
    static let version = OptionSpec("--version", help: "Show the version.")
}

/// A positional argument.
public struct ArgumentSpec: Sendable {
    public let name: String
    public let help: String
    public let isOptional: Bool
    public let isRepeating: Bool
    /// The words a shell completes here, when the argument is one of a few (`bash`).
    public let choices: [String]

    public init(_ name: String, help: String, optional: Bool = false, repeating: Bool = false, choices: [String] = []) {
        self.name = name
        self.help = help
        self.isOptional = optional
        self.isRepeating = repeating
        self.choices = choices
    }
}

/// A subcommand as its group lists it: the name and abstract that parsing and help need,
/// and the full spec, built only when the subcommand is chosen. Building every command's
/// options (their help texts name the registered readers, plans and positioners) took
/// more of `--version`'s start-up than the version needed in all.
public struct Subcommand: Sendable {
    public let name: String
    public let abstract: String
    private let load: @Sendable () -> CommandSpec

    /// A subcommand whose spec (a `static let`) is built the first time it is asked for.
    public init(_ name: String, abstract: String, _ load: @escaping @Sendable () -> CommandSpec) {
        self.name = name
        self.abstract = abstract
        self.load = load
    }

    /// A subcommand whose spec is built already.
    public init(_ spec: CommandSpec) {
        self.init(spec.name, abstract: spec.abstract) { spec }
    }

    public var spec: CommandSpec { load() }
}

/// A command or command group. Groups have subcommands and no handler.
public struct CommandSpec: Sendable {
    public typealias Handler = @Sendable (ParsedInvocation, CommandContext) async throws -> Int32
    /// Work a command begins on the parsing thread, before its task exists: opening the
    /// reader it names (`ReaderHeadStart`). `nil` when there is none for this line.
    public typealias HeadStart = @Sendable (ParsedInvocation, CommandContext) -> ReaderHeadStart?

    public let name: String
    public let abstract: String
    public let discussion: String?
    public let arguments: [ArgumentSpec]
    public let options: [OptionSpec]
    public let subcommands: [Subcommand]
    public let handler: Handler?
    public let headStart: HeadStart?

    public init(
        _ name: String, abstract: String, discussion: String? = nil, arguments: [ArgumentSpec] = [],
        options: [OptionSpec] = [], subcommands: [CommandSpec] = [], handler: Handler? = nil,
        headStart: HeadStart? = nil
    ) {
        self.init(
            name, abstract: abstract, discussion: discussion, arguments: arguments, options: options,
            listing: subcommands.map(Subcommand.init), handler: handler, headStart: headStart)
    }

    /// A group whose subcommands' specs are built only when one is chosen.
    public init(
        _ name: String, abstract: String, discussion: String? = nil, arguments: [ArgumentSpec] = [],
        options: [OptionSpec] = [], listing subcommands: [Subcommand], handler: Handler? = nil,
        headStart: HeadStart? = nil
    ) {
        let names = options.map(\.name)
        precondition(Set(names).count == names.count, "command '\(name)' declares an option twice")
        precondition(handler != nil || !subcommands.isEmpty, "command '\(name)' needs a handler or subcommands")
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.arguments = arguments
        self.options = options
        self.subcommands = subcommands
        self.handler = handler
        self.headStart = headStart
    }

    /// Declared options plus the ones every command accepts.
    var allOptions: [OptionSpec] { options + GlobalOptions.all.map(\.spec) + [.help] }

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
    /// The reader the command's head start began opening, if it has one.
    public internal(set) var readerHeadStart: ReaderHeadStart?

    /// The option's value (the last one given), converted; `nil` when not given. The
    /// parser already checked it with the same conversion.
    public subscript<Value>(_ option: Option<Value>) -> Value? {
        values[option.spec.name]?.last.flatMap(option.convert)
    }

    /// Every value of a repeatable option, in order.
    public func all<Value>(_ option: Option<Value>) -> [Value] {
        (values[option.spec.name] ?? []).compactMap(option.convert)
    }

    /// A required option's value: the parser refuses a command line without it.
    public func required<Value>(_ option: Option<Value>) -> Value {
        precondition(option.spec.isRequired, "\(option.spec.name) is not declared required")
        guard let value = self[option] else { preconditionFailure("the parser let \(option.spec.name) through unchecked") }
        return value
    }

    public subscript(_ flag: Flag) -> Bool { flags.contains(flag.spec.name) }
}

/// An option that takes a value, declared once with its conversion: help, parsing,
/// validation and the typed accessor all read this one constant.
public struct Option<Value>: Sendable {
    public let spec: OptionSpec
    let convert: @Sendable (String) -> Value?

    /// `explain` says what is wrong with a value `convert` refused, when there is more
    /// to say than `expected` (a reader spec's own hint, say).
    public init(
        _ name: String, short: Character? = nil, value: String, help: String, required: Bool = false,
        repeatable: Bool = false, expected: String, choices: [String] = [],
        convert: @escaping @Sendable (String) -> Value?, explain: (@Sendable (String) -> String?)? = nil
    ) {
        self.convert = convert
        spec = OptionSpec(
            name, short: short, value: value, help: help, required: required, repeatable: repeatable,
            expected: expected, choices: choices,
            problem: { text in
                convert(text) != nil ? nil : explain?(text) ?? "expected \(expected)."
            })
    }
}

extension Option where Value == String {
    /// Free text: any value is accepted.
    public init(
        _ name: String, short: Character? = nil, value: String, help: String, required: Bool = false,
        repeatable: Bool = false
    ) {
        convert = { $0 }
        spec = OptionSpec(name, short: short, value: value, help: help, required: required, repeatable: repeatable)
    }
}

/// An option without a value.
public struct Flag: Sendable {
    public let spec: OptionSpec
    public init(_ name: String, short: Character? = nil, help: String) {
        spec = OptionSpec(name, short: short, help: help)
    }
}
