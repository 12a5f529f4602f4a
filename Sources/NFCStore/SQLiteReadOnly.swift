import CSQLite
import Foundation

extension SQLiteDatabase {
    /// How a read-only connection reached the file.
    public enum ReadAccess: Sendable, Equatable {
        /// `mode=ro`: the file may still be written by others (a run on the bench).
        case readOnly
        /// `immutable=1`: an archived copy in a folder this user cannot write, where SQLite
        /// cannot create the WAL index; safe because nothing can change the file there.
        case immutable
    }

    /// Opens `path` for reading only: never creates, migrates or writes it. A database
    /// whose folder is read-only (an archived copy) is opened `immutable`, unless a
    /// non-empty `-wal` beside it holds changes that only a writer can fold in.
    public static func openForReading(_ path: String) throws -> (SQLiteDatabase, ReadAccess) {
        switch tryReading(path, .readOnly) {
        case .success(let db):
            return (db, .readOnly)
        case .failure(let error):
            guard error.code == SQLITE_READONLY || error.code == SQLITE_CANTOPEN else { throw error }
            let wal = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
            guard wal == 0 else {
                throw SQLiteError(
                    code: error.code, extendedCode: error.extendedCode,
                    message: "its write-ahead log \(path)-wal holds changes, and the folder is not writable to fold them in",
                    context: path)
            }
            return (try tryReading(path, .immutable).get(), .immutable)
        }
    }

    /// Opens and reads the schema: a read-only connection reports most problems only
    /// at its first read.
    private static func tryReading(_ path: String, _ access: ReadAccess) -> Result<SQLiteDatabase, SQLiteError> {
        do throws(SQLiteError) {
            let db = try reopen(path, access)
            try db.execute("SELECT count(*) FROM sqlite_schema")
            return .success(db)
        } catch {
            return .failure(error)
        }
    }

    /// Opens another connection the way `access` says.
    public static func reopen(_ path: String, _ access: ReadAccess) throws(SQLiteError) -> SQLiteDatabase {
        try SQLiteDatabase(
            uri: fileURI(path, query: access == .immutable ? "immutable=1" : "mode=ro"), path: path,
            flags: SQLITE_OPEN_READONLY | SQLITE_OPEN_URI)
    }

    /// A private in-memory copy (SQLite's backup API), for reading a file whose schema
    /// must be migrated first without writing the file.
    public func memoryCopy() throws(SQLiteError) -> SQLiteDatabase {
        let copy = try SQLiteDatabase(uri: ":memory:", path: path, flags: SQLITE_OPEN_READWRITE)
        guard let backup = api.backupInit(copy.handle, "main", handle, "main") else {
            try SQLiteError.check(api.errcode(copy.handle), copy.handle, "copying \(path) into memory")
            throw SQLiteError(code: SQLITE_ERROR, extendedCode: SQLITE_ERROR, message: "backup failed", context: path)
        }
        let stepped = api.backupStep(backup, -1)
        let finished = api.backupFinish(backup)
        guard stepped == SQLITE_DONE else { try SQLiteError.check(stepped, handle, "copying \(path) into memory"); return copy }
        try SQLiteError.check(finished, copy.handle, "copying \(path) into memory")
        return copy
    }

    /// `PRAGMA integrity_check`: the problems SQLite finds (at most `limit`), none when
    /// the file is sound. Unlike `quick_check` it also proves every index matches its
    /// table, for 2.5x the time: 0.42 s on a million taps, a tenth of exporting them
    /// (`bench/store`).
    public func integrityCheck(limit: Int = 20) throws(SQLiteError) -> [String] {
        let statement = try prepare("PRAGMA integrity_check(\(max(1, limit)))")
        var lines: [String] = []
        while try statement.step() { if let line = statement.text(0) { lines.append(line) } }
        return lines == ["ok"] ? [] : lines
    }

    /// A `file:` URI for `path`, with the characters URIs reserve escaped.
    static func fileURI(_ path: String, query: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "?#%")
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        return "file:" + (absolute.addingPercentEncoding(withAllowedCharacters: allowed) ?? absolute) + "?" + query
    }
}
