import CSQLite
import NFCSystem

/// SQLite's functions, taken from `libsqlite3.so.0` the first time a database is opened:
/// the one place NFCStore reaches SQLite. Linked, SQLite was mapped and relocated at the
/// start of every command, `poll` and `--version` included, which never open a database
/// (docs/performance.md); loading it here keeps that cost in the commands that use it.
struct LibSQLite: Sendable {
    let openV2: nfcbench_sqlite3_open_v2_f
    let closeV2: nfcbench_sqlite3_close_v2_f
    let busyTimeout: nfcbench_sqlite3_busy_timeout_f
    let exec: nfcbench_sqlite3_exec_f
    let free: nfcbench_sqlite3_free_f
    let errmsg: nfcbench_sqlite3_errmsg_f
    let errstr: nfcbench_sqlite3_errstr_f
    let errcode: nfcbench_sqlite3_errcode_f
    let extendedErrcode: nfcbench_sqlite3_extended_errcode_f
    let prepareV2: nfcbench_sqlite3_prepare_v2_f
    let finalize: nfcbench_sqlite3_finalize_f
    let reset: nfcbench_sqlite3_reset_f
    let clearBindings: nfcbench_sqlite3_clear_bindings_f
    let bindNull: nfcbench_sqlite3_bind_null_f
    let bindInt64: nfcbench_sqlite3_bind_int64_f
    let bindDouble: nfcbench_sqlite3_bind_double_f
    let bindText: nfcbench_sqlite3_bind_text_f
    let bindBlob: nfcbench_sqlite3_bind_blob_f
    let step: nfcbench_sqlite3_step_f
    let columnType: nfcbench_sqlite3_column_type_f
    let columnInt64: nfcbench_sqlite3_column_int64_f
    let columnDouble: nfcbench_sqlite3_column_double_f
    let columnText: nfcbench_sqlite3_column_text_f
    let columnBlob: nfcbench_sqlite3_column_blob_f
    let columnBytes: nfcbench_sqlite3_column_bytes_f
    let backupInit: nfcbench_sqlite3_backup_init_f
    let backupStep: nfcbench_sqlite3_backup_step_f
    let backupFinish: nfcbench_sqlite3_backup_finish_f

    /// The library, loaded once for the process; a machine without it gets an error that
    /// says which package to install, from the first command that opens a database.
    static let loaded: Result<LibSQLite, SQLiteError> = {
        do throws(SharedLibrary.LoadingError) {
            return .success(try LibSQLite(SharedLibrary.load(anyOf: ["libsqlite3.so.0", "libsqlite3.dylib"])))
        } catch {
            return .failure(
                SQLiteError(
                    code: SQLITE_CANTOPEN, extendedCode: SQLITE_CANTOPEN,
                    message:
                        "SQLite's library cannot be loaded (\(error)): install it (Debian: apt-get install libsqlite3-0)",
                    context: "libsqlite3"))
        }
    }()

    /// A C string SQLite returns (through a function pointer, so not implicitly unwrapped)
    /// as text: SQLite's messages are never NULL for a connection or a result code.
    func text(_ pointer: UnsafePointer<CChar>?) -> String { pointer.map { String(cString: $0) } ?? "" }

    /// The loaded library, or the error that says how to install it.
    static func api() throws(SQLiteError) -> LibSQLite { try loaded.get() }

    private init(_ library: SharedLibrary) throws(SharedLibrary.LoadingError) {
        openV2 = try library.function("sqlite3_open_v2")
        closeV2 = try library.function("sqlite3_close_v2")
        busyTimeout = try library.function("sqlite3_busy_timeout")
        exec = try library.function("sqlite3_exec")
        free = try library.function("sqlite3_free")
        errmsg = try library.function("sqlite3_errmsg")
        errstr = try library.function("sqlite3_errstr")
        errcode = try library.function("sqlite3_errcode")
        extendedErrcode = try library.function("sqlite3_extended_errcode")
        prepareV2 = try library.function("sqlite3_prepare_v2")
        finalize = try library.function("sqlite3_finalize")
        reset = try library.function("sqlite3_reset")
        clearBindings = try library.function("sqlite3_clear_bindings")
        bindNull = try library.function("sqlite3_bind_null")
        bindInt64 = try library.function("sqlite3_bind_int64")
        bindDouble = try library.function("sqlite3_bind_double")
        bindText = try library.function("sqlite3_bind_text")
        bindBlob = try library.function("sqlite3_bind_blob")
        step = try library.function("sqlite3_step")
        columnType = try library.function("sqlite3_column_type")
        columnInt64 = try library.function("sqlite3_column_int64")
        columnDouble = try library.function("sqlite3_column_double")
        columnText = try library.function("sqlite3_column_text")
        columnBlob = try library.function("sqlite3_column_blob")
        columnBytes = try library.function("sqlite3_column_bytes")
        backupInit = try library.function("sqlite3_backup_init")
        backupStep = try library.function("sqlite3_backup_step")
        backupFinish = try library.function("sqlite3_backup_finish")
    }
}
