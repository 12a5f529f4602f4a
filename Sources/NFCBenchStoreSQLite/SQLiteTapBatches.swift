import Foundation
import NFCBenchRecords
import NFCStore
import NFCSystem

/// A long read (exports, reports) on its own connection and queue beside the store's
/// one writer: WAL lets it read one consistent snapshot while sessions keep committing.
/// The statement lives inside the actor, so it is only ever touched on that queue.
actor SQLiteTapBatches: TapBatches {
    static let batchSize = 4096

    private let database: SQLiteDatabase
    private let executor: SerialQueueExecutor
    /// One scan of every tap, or one per session, in the order asked for.
    private var pendingScans: [String?]
    private var statement: SQLiteStatement?
    /// The one-session scan, prepared once and bound anew for each session: an export of
    /// 50,000 sessions spent more time compiling this statement than reading its rows.
    private var sessionScan: SQLiteStatement?
    /// Where a tap that does not decode is noted; its session's other taps still stream,
    /// and the reader (an export) leaves the session out.
    private let damage: DamageLog

    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    private init(database: sending SQLiteDatabase, executor: SerialQueueExecutor, sessions: [String]?, damage: DamageLog) {
        self.database = database
        self.executor = executor
        self.damage = damage
        pendingScans = sessions ?? [nil]
    }

    /// `access`: how the store itself reads (`nil` for the writer's own file).
    static func open(
        path: String, access: SQLiteDatabase.ReadAccess?, sessions: [String]?, damage: DamageLog
    ) async throws -> SQLiteTapBatches {
        let executor = SerialQueueExecutor(label: "nfcbench.store.read")
        let database = try await executor.run { () throws -> sending SQLiteDatabase in
            let db = try access.map { try SQLiteDatabase.reopen(path, $0) } ?? SQLiteDatabase(path: path)
            // One snapshot for the whole read: a deferred BEGIN takes it at the first read,
            // so read at once, before any batch is asked for.
            try db.execute("BEGIN")
            try db.execute("SELECT count(*) FROM sqlite_schema")
            return db
        }
        let batches = SQLiteTapBatches(database: database, executor: executor, sessions: sessions, damage: damage)
        // Reading starts at once: an export opens the next page's taps while it still
        // formats the page before, so this read runs beside that one instead of waiting
        // for its first `next()`.
        await batches.fillAhead()
        return batches
    }

    /// How many batches are read ahead of the caller: reading (SQLite and decoding) runs
    /// on this actor's queue while the caller formats the batch before. Two, so that the
    /// reads of two pages (each on its own connection and queue) and the formatting keep
    /// both cores busy; at most this many batches more are held in memory.
    static let depth = 2

    /// The batches being read, in scan order: each read waits for the one before, so they
    /// come back in order whichever task the actor runs first.
    private var ahead: [Task<[TapRecord], any Error>] = []

    func next() async throws -> [TapRecord] {
        fillAhead()
        let batch = try await ahead.removeFirst().value
        if batch.isEmpty { ahead.removeAll() } else { fillAhead() }
        return batch
    }

    private func fillAhead() {
        while ahead.count < Self.depth {
            let previous = ahead.last
            ahead.append(
                Task {
                    // A read that failed before is the caller's to see; this one only waits.
                    _ = try? await previous?.value
                    return try self.read()
                })
        }
    }

    private func read() throws -> [TapRecord] {
        var batch: [TapRecord] = []
        batch.reserveCapacity(Self.batchSize)
        while batch.count < Self.batchSize {
            if statement == nil {
                guard !pendingScans.isEmpty else { break }
                if let id = pendingScans.removeFirst() {
                    let scan =
                        try sessionScan
                        ?? database.prepare(RecordRows.tapSelect + " WHERE session_id = ?1 ORDER BY step, attempt")
                    sessionScan = scan
                    statement = try scan.bind([.text(id)])
                } else {
                    statement = try database.prepare(RecordRows.tapSelect + " ORDER BY session_id, step, attempt")
                }
            }
            guard let current = statement else { break }
            if try current.step() {
                do { batch.append(try RecordRows.tap(from: current)) } catch {
                    let session = current.type(0) == .text ? (current.text(0) ?? "?") : "?"
                    damage.note(DamagedSession(reference: session, problem: error, isVoid: false))
                }
            } else {
                statement = nil
            }
        }
        return batch
    }
}

/// Batches of an in-memory store, page by page through the store's own connection (no
/// other connection can see an in-memory copy; nothing else writes to it either).
actor PagedTapBatches: TapBatches {
    private let store: SQLiteBenchStore
    private var pendingScans: [String?]
    private var last: TapRecord?

    init(store: SQLiteBenchStore, sessions: [String]?) {
        self.store = store
        pendingScans = sessions ?? [nil]
    }

    func next() async throws -> [TapRecord] {
        while let scan = pendingScans.first {
            let page = try await store.tapPage(session: scan, after: last, limit: SQLiteTapBatches.batchSize)
            if let end = page.last {
                last = end
                return page
            }
            pendingScans.removeFirst()
            last = nil
        }
        return []
    }
}
