import Foundation
import NFCBenchRecords
import NFCStore

@testable import NFCBenchStoreSQLite

/// What the migration tests share: a store as an older nfcbench left it, and a row altered
/// in the file after it was written.
enum StoreFromBefore {
    /// A store at `path` holding `session`, taken back to before migration `id`: the session
    /// columns and tables it and every later migration add are dropped, and their records
    /// removed, as a store from before them has neither.
    static func write(_ session: SessionRecord, to path: String, before id: String, columns: [String], tables: [String] = [])
        async throws
    {
        do {
            let store = try await SQLiteBenchStore.open(path: path)
            try await store.insert(session)
        }
        let db = try SQLiteDatabase(path: path)
        for column in columns { try db.execute("ALTER TABLE session DROP COLUMN \(column)") }
        for table in tables { try db.execute("DROP TABLE \(table)") }
        try db.execute("DELETE FROM schema_migration WHERE id >= '\(id)'")
    }

    /// Why `session`, written to `path` and then changed in the file by `change`, is not
    /// read back; `nil` when it is.
    static func refusal(of session: SessionRecord, at path: String, after change: String) async throws
        -> RecordDecodingError?
    {
        do {
            let store = try await SQLiteBenchStore.open(path: path)
            try await store.insert(session)
        }
        try SQLiteDatabase(path: path).execute(change)
        let store = try await SQLiteBenchStore.open(path: path)
        do {
            _ = try await store.session(session.id)
            return nil
        } catch let error as RecordDecodingError {
            return error
        }
    }
}
