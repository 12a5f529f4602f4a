import CSQLite

/// A failed SQLite call: the (extended) result code, SQLite's own message, and the
/// statement or file involved.
public struct SQLiteError: Error, Sendable, CustomStringConvertible, Equatable {
    public let code: Int32
    public let extendedCode: Int32
    public let message: String
    public let context: String

    public var isBusy: Bool { code == SQLITE_BUSY || code == SQLITE_LOCKED }

    public var description: String { "SQLite error \(extendedCode) (\(message)) in \(context)" }

    static func check(_ result: Int32, _ db: OpaquePointer?, _ context: @autoclosure () -> String) throws(SQLiteError) {
        guard result != SQLITE_OK && result != SQLITE_ROW && result != SQLITE_DONE else { return }
        // A result to check came from a call into SQLite, so the library is loaded.
        let api = try LibSQLite.api()
        let message = db.map { api.text(api.errmsg($0)) } ?? api.text(api.errstr(result))
        throw SQLiteError(
            code: result & 0xFF, extendedCode: db.map { api.extendedErrcode($0) } ?? result,
            message: message, context: context())
    }
}
