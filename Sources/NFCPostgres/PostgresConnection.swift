import CLibPQ
import Foundation
import NFCSystem

/// One libpq connection, owned by exactly one actor or serial owner; not Sendable.
/// Closed with `PQfinish` in `deinit`.
///
/// Statements are always sent with their values as separate parameters
/// (`PQexecParams`): no value is ever spliced into SQL text. Connection strings are
/// libpq's own (a `postgresql://` URL or `key=value` pairs), and everything libpq reads
/// from the environment (`PGHOST`, `PGPORT`, `PGSSLMODE`, `~/.pgpass`, …) applies.
public final class PostgresConnection {
    private let handle: OpaquePointer
    private let pq: LibPQ
    /// Where the store is, with any password removed: for messages and logs.
    public let server: String
    /// The longest any one statement may take, client side: the server's own timeouts
    /// cannot fire when its backend is stopped (SIGSTOP) or the link is silently gone.
    public let timeout: Duration
    /// The connection string, kept only to take its secrets out of messages.
    private let secrets: String
    /// A statement timed out mid-flight: the connection's state is unknown, so it is used no more.
    private var abandoned = false

    /// Connects, waiting at most `timeoutSeconds` for the server. Settings in
    /// `connectionString` override the defaults given here (libpq takes the last value
    /// of a repeated key, and the string is expanded last).
    ///
    /// Every session gets the server-side bounds too (`lock_timeout`, `statement_timeout`,
    /// `idle_in_transaction_session_timeout`) and TCP keepalives and `tcp_user_timeout`,
    /// so neither a lock held by another bench nor a dropped link holds a bench for longer
    /// than `timeoutSeconds`.
    public init(_ connectionString: String, timeoutSeconds: Int = 30, applicationName: String = "nfcbench")
        throws(PostgresError)
    {
        precondition(timeoutSeconds > 0, "a lab store timeout is positive")
        let pq = try LibPQ.api()
        let redacted = ConnectionString.redacted(connectionString)
        let milliseconds = String(timeoutSeconds * 1000)
        let settings = [
            ("connect_timeout", String(min(timeoutSeconds, 5))), ("application_name", applicationName),
            (
                "options",
                "-c lock_timeout=\(milliseconds) -c statement_timeout=\(milliseconds) "
                    + "-c idle_in_transaction_session_timeout=\(timeoutSeconds * 2000)"
            ),
            ("keepalives", "1"), ("keepalives_idle", "10"), ("keepalives_interval", "5"), ("keepalives_count", "3"),
            ("tcp_user_timeout", milliseconds), ("dbname", connectionString),
        ]
        let connection = withCStringArray(settings.map(\.0)) { k in
            withCStringArray(settings.map(\.1)) { v in pq.connectdbParams(k, v, 1) }
        }
        guard let connection else {
            throw PostgresError(kind: .connection, sqlState: nil, message: "out of memory", server: redacted)
        }
        guard pq.status(connection) == CONNECTION_OK else {
            // libpq quotes the parts of a string it cannot parse: a malformed password among them.
            let message = ConnectionString.redact(pq.text(pq.errorMessage(connection)), secretsOf: connectionString)
            pq.finish(connection)
            throw PostgresError(
                kind: PostgresError.isLoginRefusal(message) ? .loginRefused : .connection, sqlState: nil, message: message,
                server: redacted)
        }
        handle = connection
        self.pq = pq
        server = Self.describe(connection, pq)
        timeout = .seconds(timeoutSeconds)
        secrets = connectionString
        // Notices (a migration's "relation already exists, skipping") are not the operator's business.
        _ = pq.setNoticeProcessor(connection, { _, _ in }, nil)
    }

    deinit { pq.finish(handle) }

    /// `user@host:port/database`, read back from the live connection.
    static func describe(_ c: OpaquePointer, _ pq: LibPQ) -> String {
        func text(_ p: UnsafeMutablePointer<CChar>?) -> String { p.map { String(cString: $0) } ?? "" }
        let host = text(pq.host(c))
        let place = host.hasPrefix("/") ? "socket \(host)" : host
        return "\(text(pq.user(c)))@\(place):\(text(pq.port(c)))/\(text(pq.db(c)))"
    }

    /// The role the server knows this connection as.
    public var user: String { pq.user(handle).map { String(cString: $0) } ?? "" }

    /// Runs one statement with `parameters` bound to `$1`, `$2`, … (sent as text; the
    /// server converts them to the column types). Returns its rows, if any.
    @discardableResult
    public func execute(_ sql: String, _ parameters: [PostgresValue] = []) throws(PostgresError) -> PostgresRows {
        let texts = parameters.map(\.text)
        let sent = withOptionalCStringArray(texts) { values in
            pq.sendQueryParams(handle, sql, Int32(texts.count), nil, values, nil, nil, 0)
        }
        return try awaitResult(sent: sent == 1)
    }

    /// Runs several statements of constant SQL (a migration) in one round trip. Takes no
    /// values: anything that carries one goes through `execute(_:_:)`.
    public func executeScript(_ sql: String) throws(PostgresError) {
        _ = try awaitResult(sent: pq.sendQuery(handle, sql) == 1)
    }

    /// Waits for the statement just sent, at most `timeout`, and returns its result (the
    /// first failure of a script's, else its last). Past the bound the connection is
    /// abandoned and the error is a connection failure, which callers treat as transient
    /// (`sync` exits 75 and pushes the rest later).
    private func awaitResult(sent: Bool) throws(PostgresError) -> PostgresRows {
        guard !abandoned else {
            throw PostgresError(
                kind: .connection, sqlState: nil, message: "an earlier statement timed out; reconnect", server: server)
        }
        guard sent else { throw fail(pq.text(pq.errorMessage(handle))) }
        let deadline = ContinuousClock.now + timeout
        // A script answers with one result per statement: each is waited for in turn, so
        // no `PQgetResult` ever blocks past the deadline. The first failure is kept.
        var chosen: OpaquePointer?
        while true {
            try waitUntilReady(deadline)
            guard let result = pq.getResult(handle) else { break }
            if let current = chosen, !succeeded(current) {
                pq.clear(result)
                continue
            }
            if let current = chosen { pq.clear(current) }
            chosen = result
        }
        do { return try PostgresRows.take(chosen, connection: handle, server: server, pq) } catch {
            throw PostgresError(
                kind: error.kind, sqlState: error.sqlState, message: ConnectionString.redact(error.message, secretsOf: secrets),
                server: server)
        }
    }

    /// Reads from the socket until libpq holds a whole result, or throws at `deadline`.
    private func waitUntilReady(_ deadline: ContinuousClock.Instant) throws(PostgresError) {
        while pq.isBusy(handle) == 1 {
            let left = deadline - ContinuousClock.now
            guard left > .zero else {
                // No cancel request: it connects anew, without a bound, to a server that may
                // be just as silent. The connection is dropped instead (its server backend
                // rolls the transaction back when it runs again or the link closes).
                abandoned = true
                throw PostgresError(
                    kind: .connection, sqlState: nil,
                    message: "no answer within \(timeout.components.seconds) s (the server may be stopped or locked)",
                    server: server)
            }
            let readable: Bool
            do {
                readable = try FileDescriptor(rawValue: pq.socket(handle))
                    .waitUntilReadable(timeoutMs: Int32(min(left.components.seconds * 1000 + 1, 1000)))
            } catch { throw fail(error.description) }
            if readable && pq.consumeInput(handle) == 0 { throw fail(pq.text(pq.errorMessage(handle))) }
        }
    }

    private func succeeded(_ result: OpaquePointer) -> Bool {
        [PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY].contains(pq.resultStatus(result))
    }

    private func fail(_ message: String) -> PostgresError {
        PostgresError(
            kind: pq.status(handle) == CONNECTION_OK ? .statement : .connection, sqlState: nil,
            message: ConnectionString.redact(message, secretsOf: secrets), server: server)
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
    public var isConnected: Bool { pq.status(handle) == CONNECTION_OK }
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
