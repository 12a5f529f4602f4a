import Foundation

/// Bench results in SQLite: records, not a cache.
///
/// Policy (docs/store.md): the schema only moves forward through ordered, recorded
/// migrations (`schema_migration`), each applied once in its own transaction; nothing is
/// ever dropped. A database that lists a migration this binary does not know was written
/// by a newer nfcbench and is refused rather than guessed at. Journal mode WAL with
/// `synchronous=FULL`: every tap is durable on disk when `record(_:)` returns, so a
/// pulled power cord, not only a killed process, loses no committed tap.
public actor BenchStore {
    /// Ordered; append only. The id is recorded when applied.
    static let migrations: [(id: String, sql: String)] = [
        ("001-sessions-and-taps", """
            CREATE TABLE session (
                id TEXT PRIMARY KEY,
                model_input TEXT NOT NULL,
                lookup_key TEXT NOT NULL,
                display_name TEXT,
                zone_x REAL, zone_y REAL, zone_width REAL, zone_height REAL,
                confidence TEXT NOT NULL,
                source TEXT NOT NULL,
                stale INTEGER NOT NULL,
                catalog_version TEXT,
                aspect_ratio REAL NOT NULL,
                reader_backend TEXT NOT NULL,
                reader_name TEXT NOT NULL,
                reader_firmware TEXT,
                unit TEXT,
                operator TEXT,
                plan_kind TEXT NOT NULL,
                plan_json TEXT NOT NULL,
                repeats INTEGER NOT NULL,
                tap_timeout REAL NOT NULL,
                status TEXT NOT NULL,
                started_at REAL NOT NULL,
                ended_at REAL
            );
            CREATE TABLE tap (
                session_id TEXT NOT NULL REFERENCES session(id) ON DELETE CASCADE,
                step INTEGER NOT NULL,
                attempt INTEGER NOT NULL,
                probe_x REAL NOT NULL,
                probe_y REAL NOT NULL,
                inside_predicted INTEGER NOT NULL,
                result TEXT NOT NULL,
                latency_ms REAL,
                technology TEXT,
                uid TEXT,
                atqa TEXT,
                sak TEXT,
                ats TEXT,
                atr TEXT,
                timestamp REAL NOT NULL,
                PRIMARY KEY (session_id, step, attempt)
            );
            CREATE INDEX session_by_model ON session(lookup_key, started_at);
            """),
        ("002-session-score", """
            ALTER TABLE session ADD COLUMN verdict TEXT;
            ALTER TABLE session ADD COLUMN measured_x REAL;
            ALTER TABLE session ADD COLUMN measured_y REAL;
            ALTER TABLE session ADD COLUMN measured_width REAL;
            ALTER TABLE session ADD COLUMN measured_height REAL;
            ALTER TABLE session ADD COLUMN iou REAL;
            """),
        ("003-grid-pass", """
            ALTER TABLE session ADD COLUMN plan_pass INTEGER NOT NULL DEFAULT 0;
            """),
    ]

    private let database: SQLiteDatabase
    public nonisolated let path: String

    public init(path: String) throws {
        let db = try SQLiteDatabase.openCreatingFolder(path)
        try db.execute("PRAGMA synchronous=FULL")
        try Self.migrate(db)
        database = db
        self.path = path
    }

    /// Applies missing migrations in order; refuses a database from a newer nfcbench.
    static func migrate(_ db: SQLiteDatabase) throws {
        try db.execute("CREATE TABLE IF NOT EXISTS schema_migration (id TEXT PRIMARY KEY, applied_at REAL NOT NULL)")
        let known = Set(migrations.map(\.id))
        let applied = try appliedMigrations(db)
        if let unknown = applied.first(where: { !known.contains($0) }) {
            throw BenchStoreError.newerSchema(migration: unknown, path: db.path)
        }
        for migration in migrations where !applied.contains(migration.id) {
            try db.transaction {
                // Checked under the write lock: another process may have applied it meanwhile.
                guard try !appliedMigrations(db).contains(migration.id) else { return }
                try db.execute(migration.sql)
                try db.prepare("INSERT INTO schema_migration (id, applied_at) VALUES (?1, ?2)")
                    .run([.text(migration.id), .real(Date().timeIntervalSince1970)])
            }
        }
    }

    static func appliedMigrations(_ db: SQLiteDatabase) throws -> [String] {
        let statement = try db.prepare("SELECT id FROM schema_migration ORDER BY id")
        var ids: [String] = []
        while try statement.step() { if let id = statement.text(0) { ids.append(id) } }
        return ids
    }

    public func appliedMigrations() throws -> [String] { try Self.appliedMigrations(database) }

    // MARK: - Sessions

    public func insert(_ s: SessionRecord) throws {
        try database.transaction {
            try database.prepare("""
                INSERT INTO session (id, model_input, lookup_key, display_name, zone_x, zone_y, zone_width, zone_height,
                    confidence, source, stale, catalog_version, aspect_ratio, reader_backend, reader_name, reader_firmware,
                    unit, operator, plan_kind, plan_json, repeats, tap_timeout, status, started_at, plan_pass)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25)
                """).run([
                    .text(s.id), .text(s.modelInput), .text(s.lookupKey), .optionalText(s.displayName),
                    .optionalReal(s.predicted?[0]), .optionalReal(s.predicted?[1]), .optionalReal(s.predicted?[2]),
                    .optionalReal(s.predicted?[3]), .text(s.confidence), .text(s.source), .integer(s.stale ? 1 : 0),
                    .optionalText(s.catalogVersion), .real(s.aspectRatio), .text(s.readerBackend), .text(s.readerName),
                    .optionalText(s.readerFirmware), .optionalText(s.unit), .optionalText(s.operatorName), .text(s.planKind),
                    .text(s.planJSON), .integer(Int64(s.repeats)), .real(s.tapTimeout), .text(s.status.rawValue),
                    .real(s.startedAt.timeIntervalSince1970), .integer(Int64(s.planPass)),
                ])
        }
    }

    /// Ends a session with its score.
    public func finish(_ id: String, status: SessionRecord.Status, at: Date, verdict: String?, measured: [Double]?, iou: Double?) throws {
        try database.prepare("""
            UPDATE session SET status = ?2, ended_at = ?3, verdict = ?4, measured_x = ?5, measured_y = ?6,
                measured_width = ?7, measured_height = ?8, iou = ?9 WHERE id = ?1
            """).run([.text(id), .text(status.rawValue), .real(at.timeIntervalSince1970), .optionalText(verdict),
                      .optionalReal(measured?[0]), .optionalReal(measured?[1]), .optionalReal(measured?[2]),
                      .optionalReal(measured?[3]), .optionalReal(iou)])
    }

    /// Marks a session resumable again (after Ctrl-C, a positioner failure, a lost reader).
    public func suspend(_ id: String) throws {
        try database.prepare("UPDATE session SET status = 'in_progress', ended_at = NULL WHERE id = ?1").run([.text(id)])
    }

    public func session(_ id: String) throws -> SessionRecord? {
        let statement = try database.prepare(Self.sessionColumns + " WHERE id = ?1")
        try statement.bind([.text(id)])
        return try statement.step() ? Self.session(from: statement) : nil
    }

    /// Every session, oldest first.
    public func sessions() throws -> [SessionRecord] {
        let statement = try database.prepare(Self.sessionColumns + " ORDER BY started_at, id")
        var out: [SessionRecord] = []
        while try statement.step() { out.append(Self.session(from: statement)) }
        return out
    }

    static let sessionColumns = """
        SELECT id, model_input, lookup_key, display_name, zone_x, zone_y, zone_width, zone_height, confidence, source,
            stale, catalog_version, aspect_ratio, reader_backend, reader_name, reader_firmware, unit, operator, plan_kind,
            plan_json, repeats, tap_timeout, status, started_at, ended_at, verdict, measured_x, measured_y, measured_width,
            measured_height, iou, plan_pass FROM session
        """

    static func session(from s: SQLiteStatement) -> SessionRecord {
        func rect(_ first: Int32) -> [Double]? { s.isNull(first) ? nil : (first..<first + 4).map { s.double($0) } }
        return SessionRecord(
            id: s.text(0)!, modelInput: s.text(1)!, lookupKey: s.text(2)!, displayName: s.text(3), predicted: rect(4),
            confidence: s.text(8)!, source: s.text(9)!, stale: s.int(10) != 0, catalogVersion: s.text(11),
            aspectRatio: s.double(12), readerBackend: s.text(13)!, readerName: s.text(14)!, readerFirmware: s.text(15),
            unit: s.text(16), operatorName: s.text(17), planKind: s.text(18)!, planJSON: s.text(19)!,
            repeats: Int(s.int(20)), tapTimeout: s.double(21), status: SessionRecord.Status(rawValue: s.text(22)!) ?? .aborted,
            startedAt: Date(timeIntervalSince1970: s.double(23)),
            endedAt: s.isNull(24) ? nil : Date(timeIntervalSince1970: s.double(24)), verdict: s.text(25),
            measured: rect(26), iou: s.isNull(30) ? nil : s.double(30), planPass: Int(s.int(31)))
    }

    // MARK: - Taps

    /// Commits one tap before returning (WAL, synchronous=FULL). A tap already recorded
    /// at the same step and attempt is an error, never a silent duplicate.
    public func record(_ t: TapRecord) throws {
        try database.prepare("""
            INSERT INTO tap (session_id, step, attempt, probe_x, probe_y, inside_predicted, result, latency_ms,
                technology, uid, atqa, sak, ats, atr, timestamp)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)
            """).run([
                .text(t.sessionID), .integer(Int64(t.step)), .integer(Int64(t.attempt)), .real(t.probeX), .real(t.probeY),
                .integer(t.insidePredicted ? 1 : 0), .text(t.result.rawValue), .optionalReal(t.latencyMs),
                .optionalText(t.technology), .optionalText(t.uid), .optionalText(t.atqa), .optionalText(t.sak),
                .optionalText(t.ats), .optionalText(t.atr), .real(t.timestamp.timeIntervalSince1970),
            ])
    }

    /// Removes the most recent tap of a session (operator "undo"); returns it.
    @discardableResult
    public func undoLastTap(_ sessionID: String) throws -> TapRecord? {
        guard let last = try taps(sessionID).max(by: { ($0.step, $0.attempt) < ($1.step, $1.attempt) }) else { return nil }
        try database.prepare("DELETE FROM tap WHERE session_id = ?1 AND step = ?2 AND attempt = ?3")
            .run([.text(sessionID), .integer(Int64(last.step)), .integer(Int64(last.attempt))])
        return last
    }

    public func taps(_ sessionID: String) throws -> [TapRecord] {
        var out: [TapRecord] = []
        try forEachTap(sql: Self.tapColumns + " WHERE session_id = ?1 ORDER BY step, attempt", [.text(sessionID)]) { out.append($0) }
        return out
    }

    private func forEachTap(sql: String, _ values: [SQLiteStatement.Value], _ body: (TapRecord) throws -> Void) throws {
        try Self.eachTap(database, sql: sql, values, body)
    }

    static func eachTap(_ db: SQLiteDatabase, sql: String, _ values: [SQLiteStatement.Value],
                        _ body: (TapRecord) throws -> Void) throws {
        let s = try db.prepare(sql)
        try s.bind(values)
        while try s.step() {
            try body(TapRecord(
                sessionID: s.text(0)!, step: Int(s.int(1)), attempt: Int(s.int(2)), probeX: s.double(3), probeY: s.double(4),
                insidePredicted: s.int(5) != 0, result: TapRecord.Result(rawValue: s.text(6)!) ?? .miss,
                latencyMs: s.isNull(7) ? nil : s.double(7), technology: s.text(8), uid: s.text(9), atqa: s.text(10),
                sak: s.text(11), ats: s.text(12), atr: s.text(13), timestamp: Date(timeIntervalSince1970: s.double(14))))
        }
    }

    static let tapColumns = """
        SELECT session_id, step, attempt, probe_x, probe_y, inside_predicted, result, latency_ms, technology, uid, atqa,
            sak, ats, atr, timestamp FROM tap
        """
}

public enum BenchStoreError: Error, Sendable, CustomStringConvertible {
    case newerSchema(migration: String, path: String)

    public var description: String {
        switch self {
        case .newerSchema(let migration, let path):
            "\(path) was written by a newer nfcbench (migration '\(migration)'); upgrade nfcbench to read it"
        }
    }
}

extension SQLiteStatement.Value {
    static func optionalText(_ s: String?) -> Self { s.map { .text($0) } ?? .null }
    static func optionalReal(_ d: Double?) -> Self { d.map { .real($0) } ?? .null }
}

/// A read connection for long reads (exports) beside the store's one writer: WAL lets it
/// read a consistent snapshot while sessions keep committing. Not Sendable; use it where
/// it was opened.
public final class BenchReader {
    private let database: SQLiteDatabase

    public init(path: String) throws {
        database = try SQLiteDatabase(path: path)
    }

    /// Streams taps of `sessions` (all when `nil`) in session, step, attempt order, one row
    /// at a time, so exports stay flat in memory.
    public func forEachTap(sessions: [String]?, _ body: (TapRecord) throws -> Void) throws {
        let ordered = BenchStore.tapColumns + " WHERE session_id = ?1 ORDER BY step, attempt"
        if let sessions {
            for id in sessions { try BenchStore.eachTap(database, sql: ordered, [.text(id)], body) }
        } else {
            try BenchStore.eachTap(database, sql: BenchStore.tapColumns + " ORDER BY session_id, step, attempt", [], body)
        }
    }
}
