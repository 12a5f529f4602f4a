import CLibPQ
import Foundation

/// One libpq connection, owned by exactly one actor or serial owner; not Sendable.
/// Closed with `PQfinish` in `deinit`.
///
/// Statements are always sent with their values as separate parameters
/// (`PQexecParams`): no value is ever spliced into SQL text. Connection strings are
/// libpq's own (a `postgresql://` URL or `key=value` pairs), and everything libpq reads
/// from the environment (`PGHOST`, `PGPORT`, `PGSSLMODE`, `~/.pgpass`, …) applies.
public final class PostgresConnection {
    private let handle: OpaquePointer
    /// Where the store is, with any password removed: for messages and logs.
    public let server: String

    /// Connects, waiting at most `timeoutSeconds` for the server. Settings in
    /// `connectionString` override the defaults given here (libpq takes the last value
    /// of a repeated key, and the string is expanded last).
    public init(_ connectionString: String, timeoutSeconds: Int = 5, applicationName: String = "nfcbench")
        throws(PostgresError)
    {
        let redacted = ConnectionString.redacted(connectionString)
        let keys = ["connect_timeout", "application_name", "dbname"]
        let values = [String(timeoutSeconds), applicationName, connectionString]
        let connection = withCStringArray(keys) { k in
            withCStringArray(values) { v in PQconnectdbParams(k, v, 1) }
        }
        guard let connection else {
            throw PostgresError(kind: .connection, sqlState: nil, message: "out of memory", server: redacted)
        }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = String(cString: PQerrorMessage(connection))
            PQfinish(connection)
            throw PostgresError(kind: .connection, sqlState: nil, message: message, server: redacted)
        }
        handle = connection
        server = Self.describe(connection)
        // Notices (a migration's "relation already exists, skipping") are not the operator's business.
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
    }

    deinit { PQfinish(handle) }

    /// `user@host:port/database`, read back from the live connection.
    static func describe(_ c: OpaquePointer) -> String {
        func text(_ p: UnsafeMutablePointer<CChar>?) -> String { p.map { String(cString: $0) } ?? "" }
        let host = text(PQhost(c))
        let place = host.hasPrefix("/") ? "socket \(host)" : host
        return "\(text(PQuser(c)))@\(place):\(text(PQport(c)))/\(text(PQdb(c)))"
    }

    /// The role the server knows this connection as.
    public var user: String { PQuser(handle).map { String(cString: $0) } ?? "" }

    /// Runs one statement with `parameters` bound to `$1`, `$2`, … (sent as text; the
    /// server converts them to the column types). Returns its rows, if any.
    @discardableResult
    public func execute(_ sql: String, _ parameters: [PostgresValue] = []) throws(PostgresError) -> PostgresRows {
        let texts = parameters.map(\.text)
        let result = withOptionalCStringArray(texts) { values in
            PQexecParams(handle, sql, Int32(texts.count), nil, values, nil, nil, 0)
        }
        return try PostgresRows.take(result, connection: handle, server: server)
    }

    /// Runs several statements of constant SQL (a migration) in one round trip. Takes no
    /// values: anything that carries one goes through `execute(_:_:)`.
    public func executeScript(_ sql: String) throws(PostgresError) {
        _ = try PostgresRows.take(PQexec(handle, sql), connection: handle, server: server)
    }

    /// Runs `body` in one transaction, committed when it returns and rolled back when it
    /// throws. A broken link rolls back on the server by itself.
    public func transaction<T>(_ isolation: Isolation = .readCommitted, _ body: () throws -> T) throws -> T {
        try execute("BEGIN ISOLATION LEVEL \(isolation.rawValue)")
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            _ = try? execute("ROLLBACK")
            throw error
        }
    }

    public enum Isolation: String, Sendable {
        case readCommitted = "READ COMMITTED"
        /// One snapshot for every statement: what long reads (exports) need.
        case repeatableReadOnly = "REPEATABLE READ READ ONLY"
        case serializable = "SERIALIZABLE"
    }

    /// Whether the link is still up (after a failure, a caller may reconnect).
    public var isConnected: Bool { PQstatus(handle) == CONNECTION_OK }
}

/// Calls `body` with a NULL-terminated array of C strings that live for the call (the
/// form `PQconnectdbParams` reads its keys and values in).
private func withCStringArray<R>(_ strings: [String], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
    withOptionalCStringArray(strings.map { Optional($0) } + [nil], body)
}

/// Calls `body` with C copies of `strings` (`nil` stays a NULL: SQL NULL for a parameter).

private func withOptionalCStringArray<R>(_ strings: [String?], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
    let copies = strings.map { $0.map { strdup($0) } ?? nil }
    defer { for copy in copies { free(copy) } }
    return body(copies.map { $0.map { UnsafePointer($0) } })
}
