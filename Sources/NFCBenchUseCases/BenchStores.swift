import Foundation
import NFCBenchRecords
import NFCBenchStorePostgres
import NFCBenchStoreSQLite
import NFCPostgres
import NFCStore

/// A bench's own database: recorded into, read, and pushed from.
public typealias BenchDatabase = BenchStoring & LabSyncSource

/// The lab store as a bench sees it: read like any store, pushed to, and asked how far its
/// schema has come.
public protocol LabStoreAccess: BenchReading, LabSyncDestination {
    func appliedMigrations() async throws -> [String]
}

extension PostgresLabStore: LabStoreAccess {}

/// Why a store could not be opened, for the caller to word.
public enum StoreOpeningFailure: Error, Sendable {
    /// No database at the path (reading and amending commands never create one).
    case missing(path: String)
    /// The file is damaged or not as nfcbench writes it; nothing was read from it.
    case damaged(path: String, what: String)
    /// Another reason (permissions, a newer schema), in the store's own words.
    case unusable(path: String, reason: String, forReading: Bool)
    /// The lab store could not be reached or refused the login.
    case labUnreachable(reason: String, isConnection: Bool, isTransient: Bool)
    /// The lab store answered, but its schema or setup does not fit this nfcbench.
    case labNotReady(reason: String)
}

/// Opens any store from its path or connection string: the one place that knows which
/// backend serves which.
public enum BenchStores {
    /// The statement bound a lab store gets unless configured (`NFCBENCH_LAB_TIMEOUT`).
    public static let defaultLabTimeoutSeconds = PostgresLabStore.defaultTimeoutSeconds

    /// The bench database at `path`, created (with its folder) when missing: for runs.
    public static func openRecording(_ path: String) async throws(StoreOpeningFailure) -> any BenchDatabase {
        try await openSQLite(path)
    }

    private static func openSQLite(_ path: String) async throws(StoreOpeningFailure) -> SQLiteBenchStore {
        try refuseNonFile(path, forReading: false)
        do { return try await SQLiteBenchStore.open(path: path) } catch BenchStoreError.unexpectedSchema(let names, _) {
            throw .damaged(path: path, what: schemaMismatch(names))
        } catch let error as SQLiteError where error.isDamage {
            throw .damaged(path: path, what: error.message)
        } catch {
            throw .unusable(path: path, reason: "\(error)", forReading: false)
        }
    }

    /// The bench database at `path` for commands that amend or push what runs recorded: a
    /// mistyped path is an error, never a new empty database.
    public static func openExisting(_ path: String) async throws(StoreOpeningFailure) -> any BenchDatabase {
        try requireFile(path)
        return try await openRecording(path)
    }

    /// As `openExisting`, for a command that changes a file it did not just record into
    /// (`void`, `sync`'s receipts): SQLite's integrity_check runs first, so nothing is
    /// written into a damaged file, and `sync` blames the file, not the lab store (issue 49, F6).
    public static func openExistingChecked(_ path: String) async throws(StoreOpeningFailure) -> any BenchDatabase {
        try requireFile(path)
        let store = try await openSQLite(path)
        try await IntegrityCheck(path: path, task: Task { try await store.integrityProblems() }).verdict()
        return store
    }

    /// The bench database at `path` for commands that only read it: opened read-only (an
    /// archived copy in a read-only folder works), never created or migrated in place.
    /// `checked`: SQLite's integrity_check runs first, so a damaged file is refused instead
    /// of giving a partial or altered export.
    public static func openReading(_ path: String, checked: Bool) async throws(StoreOpeningFailure) -> any BenchReading {
        try requireFile(path)
        let store: SQLiteBenchStore
        do { store = try await SQLiteBenchStore.openForReading(path: path) } catch let error as SQLiteError where error.isDamage {
            throw .damaged(path: path, what: error.message)
        } catch BenchStoreError.unexpectedSchema(let names, _) {
            throw .damaged(path: path, what: schemaMismatch(names))
        } catch {
            throw .unusable(path: path, reason: "\(error)", forReading: true)
        }
        guard checked else { return store }
        try await IntegrityCheck(path: path, task: Task { try await store.integrityProblems() }).verdict()
        return store
    }

    /// The bench database at `path` for a long read whose result can still be withheld
    /// (an export to a file that is renamed into place only at the end): opened at once,
    /// with SQLite's integrity_check started beside the read on its own connection rather
    /// than before it. On a million taps the check took longer than the export itself; on
    /// two cores they now overlap. The caller must ask `IntegrityCheck.verdict()` before
    /// it lets anything it read go out.
    public static func openReadingCheckedBeside(_ path: String) async throws(StoreOpeningFailure) -> (
        store: any BenchReading, check: IntegrityCheck
    ) {
        let store = try await openReading(path, checked: false)
        return (store, IntegrityCheck(path: path, task: Task { try await SQLiteBenchStore.integrityProblems(ofFileAt: path) }))
    }

    /// The lab store behind a PostgreSQL connection string. `migrate` (the administrator's
    /// one command) creates or updates its schema first.
    public static func openLab(_ url: String, migrate: Bool = false, timeoutSeconds: Int) async throws(StoreOpeningFailure)
        -> any LabStoreAccess
    {
        do { return try await PostgresLabStore.open(url, migrate: migrate, timeoutSeconds: timeoutSeconds) } catch let error
            as PostgresError
        {
            throw .labUnreachable(
                reason: "\(error)", isConnection: error.kind == .connection || error.kind == .loginRefused,
                isTransient: error.isTransient)
        } catch {
            throw .labNotReady(reason: "\(error)")
        }
    }

    /// Whether a lab connection string carries its password inline (it belongs in ~/.pgpass).
    public static func hasInlinePassword(_ url: String) -> Bool { ConnectionString.password(in: url)?.isEmpty == false }

    static func schemaMismatch(_ names: [String]) -> String {
        "its tables are not as nfcbench writes them: \(names.joined(separator: ", ")) differ"
    }

    static func requireFile(_ path: String) throws(StoreOpeningFailure) {
        guard FileManager.default.fileExists(atPath: path) else { throw .missing(path: path) }
        try refuseNonFile(path, forReading: true)
    }

    /// A folder, FIFO, socket or device given as the database is refused before SQLite
    /// opens it: `open` of a FIFO blocks until a writer comes (so `--db FIFO` hung, deaf to
    /// SIGTERM), and a folder read as "damaged" (issue 49, F12).
    static func refuseNonFile(_ path: String, forReading: Bool) throws(StoreOpeningFailure) {
        var info = stat()
        guard stat(path, &info) == 0 else { return }
        let what: String
        switch info.st_mode & S_IFMT {
        case S_IFREG: return
        case S_IFDIR: what = "a folder"
        case S_IFIFO: what = "a FIFO (named pipe)"
        case S_IFSOCK: what = "a socket"
        default: what = "a device"
        }
        throw .unusable(path: path, reason: "it is \(what), not a session database", forReading: forReading)
    }
}

/// SQLite's integrity_check of a bench database, running beside a read of it.
public struct IntegrityCheck: Sendable {
    let path: String
    let task: Task<[String], any Error>

    /// Waits for the check: returns when the file is sound, throws `.damaged` (as a
    /// checked opening would) when it is not.
    public func verdict() async throws(StoreOpeningFailure) {
        let problems: [String]
        do { problems = try await task.value } catch let error as SQLiteError where error.isDamage {
            throw .damaged(path: path, what: error.message)
        } catch {
            throw .unusable(path: path, reason: "\(error)", forReading: true)
        }
        if !problems.isEmpty {
            throw .damaged(path: path, what: problems.prefix(3).joined(separator: "; ") + (problems.count > 3 ? "; …" : ""))
        }
    }
}
