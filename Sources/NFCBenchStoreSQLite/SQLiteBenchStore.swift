import Foundation
import NFCBenchRecords
import NFCLocatorCore
import NFCStore
import NFCSystem

/// Bench results in SQLite: records, not a cache. The first `BenchStoring` backend.
///
/// Journal mode WAL with `synchronous=FULL`: every tap is durable on disk when
/// `record(_:)` returns, so a pulled power cord, not only a killed process, loses no
/// committed tap. The actor runs on a serial queue of its own (`SerialQueueExecutor`),
/// so fsync'd commits and the 5 s busy timeout block that queue, never a cooperative
/// thread.
public actor SQLiteBenchStore: BenchStoring {
    let database: SQLiteDatabase
    private let executor: SerialQueueExecutor
    public nonisolated let path: String
    public nonisolated var location: String { path }
    public nonisolated let damage = DamageLog()

    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    /// How this store reads: `nil` for the writer (`open`), else how long reads open
    /// their own connections; `.inMemory` when the file needed migrating and was copied.
    nonisolated let reading: Reading?

    enum Reading: Sendable, Equatable {
        case file(SQLiteDatabase.ReadAccess)
        case inMemory
    }

    private init(
        database: sending SQLiteDatabase, executor: SerialQueueExecutor, path: String, reading: Reading? = nil
    ) {
        self.database = database
        self.executor = executor
        self.path = path
        self.reading = reading
    }

    /// Opens an existing store for reading only: nothing is created, migrated or written,
    /// so an archived copy in a read-only folder reads as well as the bench's own file.
    /// A file from an older nfcbench is migrated in a private in-memory copy.
    public static func openForReading(path: String) async throws -> SQLiteBenchStore {
        let executor = SerialQueueExecutor(label: "nfcbench.store")
        let (database, reading) = try await executor.run { () throws -> sending (SQLiteDatabase, Reading) in
            let (db, access) = try SQLiteDatabase.openForReading(path)
            let ledger = try db.prepare("SELECT count(*) FROM sqlite_schema WHERE name = 'schema_migration'")
            let hasLedger = try ledger.step() && ledger.int(0) > 0
            let applied = hasLedger ? try BenchSchema.appliedMigrations(db) : []
            let known = Set(BenchSchema.migrations.map(\.id))
            if let unknown = applied.first(where: { !known.contains($0) }) {
                throw BenchStoreError.newerSchema(migration: unknown, path: path)
            }
            let missing = known.subtracting(applied)
            guard missing.isEmpty || missing.isSubset(of: BenchSchema.indexOnly) else {
                let copy = try db.memoryCopy()
                try BenchSchema.migrate(copy)
                try BenchSchema.verifyShape(copy)
                return (copy, .inMemory)
            }
            try BenchSchema.verifyShape(db, without: missing)
            return (db, .file(access))
        }
        return SQLiteBenchStore(database: database, executor: executor, path: path, reading: reading)
    }

    /// SQLite's `integrity_check` of the file: what is damaged, nothing when it is sound.
    public func integrityProblems() throws -> [String] { try database.integrityCheck() }

    /// The same check of the file at `path` on a connection and queue of its own, so it
    /// can run beside a long read of the store (on a second core) instead of before it.
    public static func integrityProblems(ofFileAt path: String) async throws -> [String] {
        let executor = SerialQueueExecutor(label: "nfcbench.store.check")
        return try await executor.run { () throws -> [String] in
            let (db, _) = try SQLiteDatabase.openForReading(path)
            return try db.integrityCheck()
        }
    }

    /// Opens (creating the file and its folder) and migrates, off the caller's thread.
    public static func open(path: String) async throws -> SQLiteBenchStore {
        let executor = SerialQueueExecutor(label: "nfcbench.store")
        let database = try await executor.run { () throws -> sending SQLiteDatabase in
            let db = try SQLiteDatabase.openCreatingFolder(path)
            try db.execute("PRAGMA synchronous=FULL")
            try BenchSchema.migrate(db)
            // As the readers do: a table, index or trigger that nfcbench did not make (a
            // trigger planted to delete other sessions' taps) is refused before any write.
            try BenchSchema.verifyShape(db)
            return db
        }
        return SQLiteBenchStore(database: database, executor: executor, path: path)
    }

    public func appliedMigrations() throws -> [String] { try BenchSchema.appliedMigrations(database) }

    // MARK: - Sessions

    public func insert(_ s: SessionRecord) throws {
        if let refused = StoredText.problems(in: s).first {
            throw StoredText.refusal(column: refused.column, row: s.id, refused.problem)
        }
        try database.transaction {
            try database.prepare(
                """
                INSERT INTO session (id, model_input, lookup_key, display_name, zone_x, zone_y, zone_width, zone_height,
                    confidence, source, stale, catalog_version, aspect_ratio, reader_backend, reader_name, reader_firmware,
                    unit, operator, plan_kind, plan_json, repeats, tap_timeout, status, started_at, plan_pass, simulated,
                    body_height_mm, plan_focus, station, mode, model_typed, phone_os, phone_build, phone_case,
                    reader_serial, reader_antenna_width_mm, reader_antenna_height_mm, reader_gap_mm, reader_geometry_source,
                    temperature_c, humidity_pct)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26, ?27,
                    ?28, ?29, ?30, ?31, ?32, ?33, ?34, ?35, ?36, ?37, ?38, ?39, ?40, ?41)
                """
            ).run(RecordRows.sessionValues(s))
            try reseal(s.id)
            try readBack(RecordRows.sessionSelect + " WHERE id = ?1", [.text(s.id)], RecordRows.session)
        }
    }

    /// Decodes the row just written, inside the writing transaction, so a value no reader
    /// would accept rolls the write back (`UnstorableRecord`) instead of making the
    /// database unreadable. The decoders are the one definition of what is readable.
    private func readBack<T>(
        _ sql: String, _ key: [SQLiteStatement.Value], _ decode: (SQLiteStatement) throws(RecordDecodingError) -> T
    ) throws {
        let row = try database.prepare(sql)
        try row.bind(key)
        guard try row.step() else { return }
        do { _ = try decode(row) } catch { throw UnstorableRecord(error) }
    }

    /// Stores the checksum of session `id`'s values as they now are, inside the caller's
    /// transaction: every change the store makes to a session row ends with this.
    private func reseal(_ id: String) throws {
        let row = try database.prepare(RecordRows.sessionSelect + " WHERE id = ?1")
        try row.bind([.text(id)])
        guard try row.step() else { return }
        let checksum = RowChecksum.of(RecordRows.checksummedValues(row))
        try database.prepare("UPDATE session SET checksum = ?2 WHERE id = ?1").run([.text(id), .integer(checksum)])
    }

    /// Runs one change to session `id` and reseals it, atomically.
    private func changeSession(_ id: String, _ sql: String, _ values: [SQLiteStatement.Value]) throws {
        try database.transaction {
            try database.prepare(sql).run(values)
            try reseal(id)
        }
    }

    public func finish(
        _ id: String, status: SessionRecord.Status, at: Date, verdict: SessionVerdict?, verdictReason: String?,
        measured: NormalizedRect?, iou: Double?
    ) throws {
        try changeSession(
            id,
            """
            UPDATE session SET status = ?2, ended_at = ?3, verdict = ?4, measured_x = ?5, measured_y = ?6,
                measured_width = ?7, measured_height = ?8, iou = ?9, verdict_reason = ?10 WHERE id = ?1
            """,
            [
                .text(id), .text(status.rawValue), .real(at.timeIntervalSince1970), .optionalText(verdict?.rawValue),
                .optionalReal(measured?.x), .optionalReal(measured?.y), .optionalReal(measured?.width),
                .optionalReal(measured?.height), .optionalReal(iou), .optionalText(verdictReason),
            ])
    }

    public func void(_ id: String, reason: String, at: Date) throws {
        if let problem = StoredText.problem(reason) { throw StoredText.refusal(column: "void_reason", row: id, problem) }
        let sql = "UPDATE session SET void_reason = ?2, voided_at = ?3 WHERE id = ?1"
        let values: [SQLiteStatement.Value] = [.text(id), .text(reason), .real(at.timeIntervalSince1970)]
        let intact: Bool
        do { intact = try session(id) != nil } catch is RecordDecodingError { intact = false }
        // A damaged row is voided without a new checksum: resealing would vouch for values
        // that were altered or out of range, and it stays listed as damaged.
        if intact { try changeSession(id, sql, values) } else { try database.prepare(sql).run(values) }
    }

    public func setTapTimeout(_ id: String, seconds: Double) throws {
        try changeSession(id, "UPDATE session SET tap_timeout = ?2 WHERE id = ?1", [.text(id), .real(seconds)])
    }

    public func setReaderDetails(_ id: String, firmware: String?, serial: String?) throws {
        try changeSession(
            id,
            "UPDATE session SET reader_firmware = coalesce(?2, reader_firmware), reader_serial = coalesce(?3, reader_serial) WHERE id = ?1",
            [.text(id), .optionalText(firmware), .optionalText(serial)])
    }

    public func suspend(_ id: String) throws {
        try changeSession(id, "UPDATE session SET status = 'in_progress', ended_at = NULL WHERE id = ?1", [.text(id)])
    }

    /// `id` or `station/id` (`SessionReference`): a bench's own sessions are unique by id,
    /// and a station given must be the session's own.
    public func session(_ id: String) throws -> SessionRecord? {
        let reference = SessionReference(parsing: id)
        let statement = try database.prepare(RecordRows.sessionSelect + " WHERE id = ?1")
        try statement.bind([.text(reference.id)])
        guard try statement.step() else { return nil }
        let session = try RecordRows.session(from: statement)
        if let station = reference.station, session.station != station { return nil }
        return session
    }

    public func sessions() throws -> [SessionRecord] {
        let statement = try database.prepare(RecordRows.sessionSelect + " ORDER BY started_at, id")
        var out: [SessionRecord] = []
        while try statement.step() { if let s = intactSession(statement) { out.append(s) } }
        return out
    }

    /// The row's session, or `nil` with the damage noted: a listing never stops at one.
    private func intactSession(_ statement: SQLiteStatement) -> SessionRecord? {
        do { return try RecordRows.session(from: statement) } catch {
            damage.note(RecordRows.damaged(statement, error))
            return nil
        }
    }

    public func sessions(after cursor: SessionCursor?, limit: Int, lookupKeys: Set<String>?) throws -> [SessionRecord] {
        precondition(limit > 0, "a page holds at least one session")
        var conditions: [String] = []
        var values: [SQLiteStatement.Value] = []
        if let cursor {
            // Row values: started_at, then id, strictly after the cursor.
            conditions.append("(started_at, id) > (?1, ?2)")
            values += [.real(cursor.startedAt.timeIntervalSince1970), .text(cursor.id)]
        }
        if let keys = lookupKeys?.sorted() {
            guard !keys.isEmpty else { return [] }
            let first = values.count + 1
            conditions.append("lookup_key IN (" + keys.indices.map { "?\(first + $0)" }.joined(separator: ", ") + ")")
            values += keys.map { .text($0) }
        }
        let filter = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        // No LIMIT in SQL: damaged rows are skipped, and a page still holds `limit` intact
        // sessions (a short page means the end to the pager). Rows are stepped lazily.
        let statement = try database.prepare(RecordRows.sessionSelect + filter + " ORDER BY started_at, id")
        try statement.bind(values)
        var out: [SessionRecord] = []
        while out.count < limit, try statement.step() { if let s = intactSession(statement) { out.append(s) } }
        return out
    }

    // MARK: - Taps

    public func record(_ t: TapRecord) throws {
        try database.transaction {
            try insertTap(t)
            try readBack(
                RecordRows.tapSelect + " WHERE session_id = ?1 AND step = ?2 AND attempt = ?3",
                [.text(t.sessionID), .integer(Int64(t.step)), .integer(Int64(t.attempt))], RecordRows.tap)
        }
    }

    private func insertTap(_ t: TapRecord) throws {
        try database.prepare(
            """
            INSERT INTO tap (session_id, step, attempt, probe_x, probe_y, inside_predicted, result, latency_ms,
                technology, uid, atqa, sak, ats, atr, timestamp, checksum, tag_progress, placement, window_s,
                platform_probe, height_mm, coupling, coupling_tried, coupling_ladder)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24)
            """
        ).run(
            RecordRows.tapValues(t) + [.integer(RecordRows.tapChecksum(t)), .optionalText(t.tagProgress?.rawValue)]
                + RecordRows.evidenceValues(t))
    }

    public func undoLastTap(_ sessionID: String) throws -> TapRecord? {
        guard let last = try taps(sessionID).max(by: { ($0.step, $0.attempt) < ($1.step, $1.attempt) }) else { return nil }
        try database.prepare("DELETE FROM tap WHERE session_id = ?1 AND step = ?2 AND attempt = ?3")
            .run([.text(sessionID), .integer(Int64(last.step)), .integer(Int64(last.attempt))])
        return last
    }

    public func taps(_ sessionID: String) throws -> [TapRecord] {
        let statement = try database.prepare(RecordRows.tapSelect + " WHERE session_id = ?1 ORDER BY step, attempt")
        try statement.bind([.text(SessionReference(parsing: sessionID).id)])
        var out: [TapRecord] = []
        while try statement.step() { out.append(try RecordRows.tap(from: statement)) }
        return out
    }

    public nonisolated func tapBatches(sessions references: [String]?) async throws -> any TapBatches {
        let sessions = references?.map { SessionReference(parsing: $0).id }
        return switch reading {
        case nil: try await SQLiteTapBatches.open(path: path, access: nil, sessions: sessions, damage: damage)
        case .file(let access): try await SQLiteTapBatches.open(path: path, access: access, sessions: sessions, damage: damage)
        case .inMemory: PagedTapBatches(store: self, sessions: sessions)
        }
    }

    /// Taps after `last` (session, step, attempt) in that order, at most `limit`: pages of
    /// an in-memory copy, which no second connection can see.
    func tapPage(session: String?, after last: TapRecord?, limit: Int) throws -> [TapRecord] {
        var conditions: [String] = []
        var values: [SQLiteStatement.Value] = []
        if let session {
            conditions.append("session_id = ?\(values.count + 1)")
            values.append(.text(session))
        }
        if let last {
            conditions.append("(session_id, step, attempt) > (?\(values.count + 1), ?\(values.count + 2), ?\(values.count + 3))")
            values += [.text(last.sessionID), .integer(Int64(last.step)), .integer(Int64(last.attempt))]
        }
        let filter = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        let statement = try database.prepare(
            RecordRows.tapSelect + filter + " ORDER BY session_id, step, attempt LIMIT \(max(1, limit))")
        try statement.bind(values)
        var out: [TapRecord] = []
        while try statement.step() { out.append(try RecordRows.tap(from: statement)) }
        return out
    }
}
