import CSQLite

/// A failed SQLite call: the (extended) result code, SQLite's own message, and the
/// statement or file involved.
public struct SQLiteError: Error, Sendable, CustomStringConvertible, Equatable {
    public let code: Int32
    public let extendedCode: Int32
    public let message: String
    public let context: String

    public var isBusy: Bool { code == SQLITE_BUSY || code == SQLITE_LOCKED }

    /// The file is damaged or no database at all (`SQLITE_CORRUPT`, `SQLITE_NOTADB`), as
    /// opposed to a file the process may not write, a full disk or a file size limit
    /// (`SQLITE_IOERR`, `SQLITE_FULL`, `SQLITE_READONLY`...), which say nothing of the file.
    public var isDamage: Bool { code == SQLITE_CORRUPT || code == SQLITE_NOTADB }

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
