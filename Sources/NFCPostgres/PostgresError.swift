import Foundation

/// A libpq failure, turned into a value at the call that failed.
///
/// `sqlState` is PostgreSQL's five-character code (`42501` insufficient privilege,
/// `23505` unique violation, `08006` connection failure, …) so callers decide on the code,
/// never on message text. Messages come from libpq and the server, which never include a
/// password; `server` is the redacted description of where the store is.
public struct PostgresError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The server could not be reached, or the link broke.
        case connection
        /// The server answered and refused the login: a wrong password, an unknown role or
        /// database, no `pg_hba.conf` entry, a certificate it would not take. Trying again
        /// unchanged cannot succeed, so it is no transient failure (issue 49, F13).
        case loginRefused
        /// A statement failed on the server.
        case statement
        /// The server answered something this wrapper cannot read (a type it did not ask for).
        case result
    }

    public let kind: Kind
    public let sqlState: String?
    public let message: String
    public let server: String

    public init(kind: Kind, sqlState: String?, message: String, server: String) {
        self.kind = kind
        self.sqlState = sqlState
        self.message = message.trimmingCharacters(in: .whitespacesAndNewlines)
        self.server = server
    }

    /// Whether a later attempt may succeed unchanged: the link, not the request, failed
    /// (class 08 connection exceptions, 57P admin shutdown or crash, 53 out of resources),
    /// or the store was too busy to answer in time: a lock another session held past
    /// `lock_timeout` (55P03), a statement cancelled by `statement_timeout` (57014), an idle
    /// transaction ended (25P03), or no answer within the client's own bound (`.connection`).
    public var isTransient: Bool {
        if kind == .connection { return true }
        guard let sqlState else { return false }
        return sqlState.hasPrefix("08") || sqlState.hasPrefix("57P") || sqlState.hasPrefix("53")
            || ["55P03", "57014", "25P03"].contains(sqlState)
    }

    /// Whether libpq's message for a failed connection says the server refused the login
    /// rather than could not be reached. libpq gives no SQLSTATE for a connection it never
    /// made, so its words (and the server's FATAL ones it quotes) are all there is.
    public static func isLoginRefusal(_ message: String) -> Bool {
        let text = message.lowercased()
        return [
            "authentication failed", "no pg_hba.conf entry", "no password supplied", "does not exist",
            "permission denied for database", "is not permitted to log in", "scram", "certificate verify failed",
            "server does not support ssl", "password is expired",
        ].contains { text.contains($0) }
    }

    /// Row-level security or a missing grant refused the change.
    public var isPermissionDenied: Bool { sqlState == "42501" }

    public var description: String {
        let code = sqlState.map { " [\($0)]" } ?? ""
        switch kind {
        case .connection: return "cannot reach the lab store at \(server): \(message)"
        case .loginRefused: return "the lab store at \(server) refused the login: \(message)"
        case .statement: return "the lab store at \(server) refused a statement\(code): \(message)"
        case .result: return "the lab store at \(server) answered something nfcbench cannot read: \(message)"
        }
    }
}
