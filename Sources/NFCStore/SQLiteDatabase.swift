import CSQLite
import Foundation

/// One SQLite connection. Owned by exactly one writer (an actor or a serial owner);
/// not Sendable. Closed in `deinit` with `sqlite3_close_v2`.
public final class SQLiteDatabase {
    let handle: OpaquePointer
    /// SQLite's functions: loaded by the first database opened (`LibSQLite`).
    let api: LibSQLite
    public let path: String

    /// Opens (creating if needed) with WAL journaling and a busy timeout, so several
    /// processes can share the file: readers never block the writer, and a writer waits
    /// up to `busyTimeout` for another to finish instead of failing.
    public convenience init(path: String, busyTimeout: Duration = .seconds(5)) throws(SQLiteError) {
        try self.init(uri: path, path: path, flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, busyTimeout: busyTimeout)
        try execute("PRAGMA journal_mode=WAL")
        try execute("PRAGMA foreign_keys=ON")
    }

    /// Opens `uri` (a path, `:memory:` or a `file:` URI) with `flags`, nothing more.
    init(uri: String, path: String, flags: Int32, busyTimeout: Duration = .seconds(5)) throws(SQLiteError) {
        let api = try LibSQLite.api()
        var db: OpaquePointer?
        let result = api.openV2(uri, &db, flags | SQLITE_OPEN_NOMUTEX, nil)
        guard let db, result == SQLITE_OK else {
            let error = SQLiteError(
                code: result & 0xFF, extendedCode: result,
                message: db.map { api.text(api.errmsg($0)) } ?? "cannot open", context: path)
            api.closeV2(db)
            throw error
        }
        handle = db
        self.api = api
        self.path = path
        api.busyTimeout(db, Int32(busyTimeout.components.seconds * 1000))
    }

    deinit { api.closeV2(handle) }

    /// Opens `path`, creating its folder first (XDG data and cache folders often do not
    /// exist yet on a fresh account).
    /// Folders it creates are private (0700) and a new database file is 0600 (SQLite gives
    /// its `-wal` and `-shm` the database's mode): sessions name operators and units, and
    /// a lab decides who reads them, not the umask.
    public static func openCreatingFolder(_ path: String) throws -> SQLiteDatabase {
        try FileManager.default.createDirectory(
            atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path,
            withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let created = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if created >= 0 { close(created) }
        return try SQLiteDatabase(path: path)
    }

    /// Runs one or more statements that return no rows.
    public func execute(_ sql: String) throws(SQLiteError) {
        var error: UnsafeMutablePointer<CChar>?
        let result = api.exec(handle, sql, nil, nil, &error)
        if let error { api.free(error) }
        try SQLiteError.check(result, handle, sql)
    }

    public func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        try SQLiteStatement(database: self, sql: sql)
    }

    /// Runs `body` in one transaction (`BEGIN IMMEDIATE`, so the write lock is taken up
    /// front and a concurrent writer waits rather than failing mid-way).
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    public var userVersion: Int {
        get { (try? prepare("PRAGMA user_version").firstInt()) ?? 0 }
    }

    public func setUserVersion(_ version: Int) throws(SQLiteError) { try execute("PRAGMA user_version = \(version)") }
}

/// A prepared statement, finalized in `deinit`.
public final class SQLiteStatement {
    private let statement: OpaquePointer
    private let database: SQLiteDatabase
    private let sql: String
    private var api: LibSQLite { database.api }

    init(database: SQLiteDatabase, sql: String) throws(SQLiteError) {
        var statement: OpaquePointer?
        try SQLiteError.check(database.api.prepareV2(database.handle, sql, -1, &statement, nil), database.handle, sql)
        guard let statement else {
            throw SQLiteError(code: SQLITE_MISUSE, extendedCode: SQLITE_MISUSE, message: "empty statement", context: sql)
        }
        self.statement = statement
        self.database = database
        self.sql = sql
    }

    deinit { api.finalize(statement) }

    public enum Value: Sendable, Equatable {
        case null, integer(Int64), real(Double), text(String), blob(Data)
    }

    /// Binds `values` to `?1...?n`, resetting first so the statement can be reused.
    @discardableResult
    public func bind(_ values: [Value]) throws(SQLiteError) -> SQLiteStatement {
        api.reset(statement)
        api.clearBindings(statement)
        for (i, value) in values.enumerated() {
            let index = Int32(i + 1)
            let result: Int32
            switch value {
            case .null: result = api.bindNull(statement, index)
            case .integer(let v): result = api.bindInt64(statement, index, v)
            case .real(let v): result = api.bindDouble(statement, index, v)
            case .text(let v):
                // By byte count, never as a C string: a NUL inside the text (a catalog's
                // "\u0000") would otherwise end it there and store a shorter value silently.
                // `utf8CString` keeps every byte and adds the terminator, so even the empty
                // text has an address (a null one binds NULL).
                result = v.utf8CString.withUnsafeBufferPointer {
                    api.bindText(statement, index, $0.baseAddress, Int32($0.count - 1), nfcbench_sqlite_transient())
                }
            case .blob(let v):
                result = v.withUnsafeBytes {
                    api.bindBlob(statement, index, $0.baseAddress, Int32($0.count), nfcbench_sqlite_transient())
                }
            }
            try SQLiteError.check(result, database.handle, sql)
        }
        return self
    }

    /// Steps once: `true` while a row is available.
    public func step() throws(SQLiteError) -> Bool {
        let result = api.step(statement)
        try SQLiteError.check(result, database.handle, sql)
        return result == SQLITE_ROW
    }

    /// Runs to completion, ignoring rows.
    public func run(_ values: [Value] = []) throws(SQLiteError) {
        try bind(values)
        while try step() {}
    }

    /// The storage class SQLite holds for a column of the current row.
    public enum ColumnType: Sendable { case null, integer, real, text, blob }

    public func type(_ column: Int32) -> ColumnType {
        switch api.columnType(statement, column) {
        case SQLITE_INTEGER: .integer
        case SQLITE_FLOAT: .real
        case SQLITE_TEXT: .text
        case SQLITE_BLOB: .blob
        default: .null
        }
    }

    public func int(_ column: Int32) -> Int64 { api.columnInt64(statement, column) }
    public func double(_ column: Int32) -> Double { api.columnDouble(statement, column) }
    public func isNull(_ column: Int32) -> Bool { api.columnType(statement, column) == SQLITE_NULL }
    public func text(_ column: Int32) -> String? {
        guard let c = api.columnText(statement, column) else { return nil }
        // Its bytes as stored (after `sqlite3_column_text`, as SQLite asks), NULs included.
        return String(decoding: UnsafeBufferPointer(start: c, count: Int(api.columnBytes(statement, column))), as: UTF8.self)
    }
    /// Adds column `column` of the current row to `running` as `RowChecksum.of` would add
    /// `value(column)`, reading an ASCII text's bytes in place (any other text goes through
    /// the String `value` makes, so a damaged byte is fed as it reads back).
    public func addToChecksum(_ column: Int32, _ running: inout RowChecksum.Running) {
        // The type is asked once: this runs for every column of a million rows.
        switch type(column) {
        case .null: running.add(.null)
        case .integer: running.add(.integer(int(column)))
        case .real: running.add(.real(double(column)))
        case .text:
            guard let c = api.columnText(statement, column) else { return running.add(.text("")) }
            let bytes = UnsafeBufferPointer(start: c, count: Int(api.columnBytes(statement, column)))
            if bytes.allSatisfy({ $0 < 0x80 }) { running.addText(bytes) } else { running.add(value(column)) }
        case .blob: running.add(.blob(blob(column)))
        }
    }

    public func blob(_ column: Int32) -> Data {
        let count = Int(api.columnBytes(statement, column))
        guard count > 0, let bytes = api.columnBlob(statement, column) else { return Data() }
        return Data(bytes: bytes, count: count)
    }

    func firstInt() throws(SQLiteError) -> Int? {
        try bind([])
        return try step() ? Int(int(0)) : nil
    }
}
