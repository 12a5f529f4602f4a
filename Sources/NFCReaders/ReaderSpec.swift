/// How a reader is named: its backend's scheme and what follows the first ':' (a libnfc
/// connstring, a PC/SC reader name, a recording's path), or the scheme alone (`sim`).
/// Which schemes exist, and what each accepts, is the backends' business
/// (`ReaderBackendRegistration`); this type only holds the name.
public struct ReaderSpec: Sendable, Hashable, CustomStringConvertible {
    public let scheme: String
    public let argument: String?

    public init(scheme: String, argument: String?) {
        precondition(Self.isScheme(scheme), "a reader scheme is lower-case letters, digits and '_'")
        self.scheme = scheme
        self.argument = argument
    }

    /// The in-process simulated phone.
    public static let sim = ReaderSpec(scheme: "sim", argument: nil)

    /// A spec as it was recorded (a session's reader, a reader's own `info.spec`): split at
    /// the first ':', checked for form only, since its backend checked it when it was made.
    public init(recorded text: String) throws(ReaderError) {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let scheme = parts.first.map(String.init) ?? ""
        guard Self.isScheme(scheme) else {
            throw ReaderError(
                .invalidSpec, "'\(text)' is not a reader spec.", hint: "A reader spec is SCHEME or SCHEME:ARGUMENT.")
        }
        self.init(scheme: scheme, argument: parts.count > 1 ? String(parts[1]) : nil)
    }

    public var backend: ReaderBackend { ReaderBackend(rawValue: scheme) }

    public var description: String { argument.map { "\(scheme):\($0)" } ?? scheme }

    static func isScheme(_ text: String) -> Bool {
        !text.isEmpty && text.count <= 32
            && text.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
    }
}
