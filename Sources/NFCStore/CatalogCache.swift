import Foundation
import NFCSystem

/// The last good catalog per URL, with its ETag and fetch time.
public struct CachedCatalog: Sendable, Equatable {
    public let url: String
    public let etag: String?
    public let fetchedAt: Date
    /// The response body exactly as served (a catalog document).
    public let body: Data
    /// The minisign signature served beside it (`catalog.minisig`), when one was asked
    /// for, so a cached copy is checked again with the trusted key every time it is used.
    public let signature: Data?

    public init(url: String, etag: String?, fetchedAt: Date, body: Data, signature: Data? = nil) {
        self.url = url
        self.etag = etag
        self.fetchedAt = fetchedAt
        self.body = body
        self.signature = signature
    }
}

/// A disposable SQLite cache of remote catalogs.
///
/// A cache, not a record: on any schema-version mismatch it drops everything and
/// starts over empty, with no migrations (the catalog can always be fetched again).
/// Bench results are the opposite and keep ordered migrations. One actor owns the
/// connection on its own queue, so there is one writer per process and no call blocks a
/// cooperative thread; WAL and a busy timeout let several processes share the file safely.
public actor CatalogCache {
    public static let schemaVersion = 2
    private let database: SQLiteDatabase
    private let executor: SerialQueueExecutor
    public nonisolated let path: String

    /// Its own queue: commits and the busy timeout block that queue, not a cooperative thread.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    private init(database: sending SQLiteDatabase, executor: SerialQueueExecutor, path: String) {
        self.database = database
        self.executor = executor
        self.path = path
    }

    /// Opens (creating the file and its folder) off the caller's thread.
    public static func open(path: String) async throws -> CatalogCache {
        let executor = SerialQueueExecutor(label: "nfcbench.catalog-cache")
        let database = try await executor.run { () throws -> sending SQLiteDatabase in
            let db = try SQLiteDatabase.openCreatingFolder(path)
            try prepareSchema(db)
            return db
        }
        return CatalogCache(database: database, executor: executor, path: path)
    }

    /// `$XDG_CACHE_HOME/nfcbench/catalog-cache.sqlite`, else `~/.cache/nfcbench/...`.
    public static func defaultPath(environment: [String: String]) -> String {
        let base =
            environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.cache"
        return base + "/nfcbench/catalog-cache.sqlite"
    }

    private static func prepareSchema(_ db: SQLiteDatabase) throws {
        guard db.userVersion != schemaVersion else { return }
        try db.transaction {
            // Checked again under the write lock: another process may have just done this.
            guard db.userVersion != schemaVersion else { return }
            let tables = try db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
            var names: [String] = []
            while try tables.step() { if let name = tables.text(0) { names.append(name) } }
            for name in names { try db.execute("DROP TABLE \"\(name)\"") }
            try db.execute(
                """
                CREATE TABLE catalog (
                    url TEXT PRIMARY KEY,
                    etag TEXT,
                    fetched_at REAL NOT NULL,
                    body BLOB NOT NULL,
                    signature BLOB
                )
                """)
            try db.setUserVersion(schemaVersion)
        }
    }

    public func load(url: String) throws -> CachedCatalog? {
        let statement = try database.prepare("SELECT etag, fetched_at, body, signature FROM catalog WHERE url = ?1")
        try statement.bind([.text(url)])
        guard try statement.step() else { return nil }
        return CachedCatalog(
            url: url, etag: statement.text(0),
            fetchedAt: Date(timeIntervalSince1970: statement.double(1)), body: statement.blob(2),
            signature: statement.isNull(3) ? nil : statement.blob(3))
    }

    public func store(_ catalog: CachedCatalog) throws {
        try database.transaction {
            try database.prepare(
                "INSERT OR REPLACE INTO catalog (url, etag, fetched_at, body, signature) VALUES (?1, ?2, ?3, ?4, ?5)"
            )
            .run([
                .text(catalog.url), catalog.etag.map { .text($0) } ?? .null,
                .real(catalog.fetchedAt.timeIntervalSince1970), .blob(catalog.body),
                catalog.signature.map { .blob($0) } ?? .null,
            ])
        }
    }

    /// A 304: the cached body is current as of `fetchedAt`.
    public func confirm(url: String, fetchedAt: Date) throws {
        try database.prepare("UPDATE catalog SET fetched_at = ?2 WHERE url = ?1")
            .run([.text(url), .real(fetchedAt.timeIntervalSince1970)])
    }

    public func all() throws -> [CachedCatalog] {
        let statement = try database.prepare("SELECT url, etag, fetched_at, body, signature FROM catalog ORDER BY url")
        var out: [CachedCatalog] = []
        while try statement.step() {
            out.append(
                CachedCatalog(
                    url: statement.text(0) ?? "", etag: statement.text(1),
                    fetchedAt: Date(timeIntervalSince1970: statement.double(2)), body: statement.blob(3),
                    signature: statement.isNull(4) ? nil : statement.blob(4)))
        }
        return out
    }

    public func clear() throws { try database.execute("DELETE FROM catalog") }
}
