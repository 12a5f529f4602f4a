/// A mistake in how the command was called: printed with the usage line, exit 64.
public struct UsageError: Error, Sendable, Equatable {
    public let message: String
    /// The command whose usage line to show.
    public let path: [String]

    public init(_ message: String, path: [String]) {
        self.message = message
        self.path = path
    }
}

/// What the user asked for instead of running a command.
public enum ParseOutcome: Sendable {
    case run(ParsedInvocation)
    case help(path: [String])
    case version
}
