import Foundation
import NFCStore

/// The bench database's schema: ordered, recorded migrations (docs/store.md).
///
/// Policy: the schema only moves forward, each migration applied once in its own
/// transaction; nothing is ever dropped. A database that lists a migration this binary
/// does not know was written by a newer nfcbench and is refused rather than guessed at.
enum BenchSchema {
    /// Ordered; append only. The id is recorded when applied.
    static let migrations: [(id: String, sql: String)] = [
        (
            "001-sessions-and-taps",
            """
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
            """
        ),
        (
            "002-session-score",
            """
            ALTER TABLE session ADD COLUMN verdict TEXT;
            ALTER TABLE session ADD COLUMN measured_x REAL;
            ALTER TABLE session ADD COLUMN measured_y REAL;
            ALTER TABLE session ADD COLUMN measured_width REAL;
            ALTER TABLE session ADD COLUMN measured_height REAL;
            ALTER TABLE session ADD COLUMN iou REAL;
            """
        ),
        (
            "003-grid-pass",
            """
            ALTER TABLE session ADD COLUMN plan_pass INTEGER NOT NULL DEFAULT 0;
            """
        ),
        // Provenance and voiding. Earlier sessions are marked simulated when their reader
        // can only have been one: the in-process simulated reader, a virtual bench's
        // emulated PN532 (its pty link is always named .../pn532, and a pseudo-terminal is
        // no real reader) or its vpcd card ("nfcbench virtual", or vpcd's "Virtual PCD").
        (
            "004-evidence",
            """
            ALTER TABLE session ADD COLUMN simulated INTEGER NOT NULL DEFAULT 0;
            ALTER TABLE session ADD COLUMN body_height_mm REAL;
            ALTER TABLE session ADD COLUMN verdict_reason TEXT;
            ALTER TABLE session ADD COLUMN void_reason TEXT;
            ALTER TABLE session ADD COLUMN voided_at REAL;
            UPDATE session SET simulated = 1 WHERE reader_backend = 'sim'
                OR reader_name LIKE 'libnfc:pn532_uart:%/pn532' OR reader_name LIKE 'libnfc:pn532_uart:/dev/pts/%'
                OR reader_name LIKE 'pcsc:%nfcbench virtual%' OR reader_name LIKE 'pcsc:%Virtual PCD%';
            """
        ),
        // What an adaptive session learned from earlier ones (`PlanFocus.stored`).
        (
            "005-plan-focus",
            """
            ALTER TABLE session ADD COLUMN plan_focus TEXT;
            """
        ),
        // A checksum of every new tap's values (`RowChecksum`): SQLite's integrity_check
        // cannot see a flipped bit inside a value.
        (
            "006-tap-checksum",
            """
            ALTER TABLE tap ADD COLUMN checksum INTEGER;
            """
        ),
        // The same for sessions, resealed by every change the store makes to one.
        (
            "007-session-checksum",
            """
            ALTER TABLE session ADD COLUMN checksum INTEGER;
            """
        ),
        // Several benches, one lab store: the bench (station) that took a session, a
        // revision every change to a session or its taps moves on (kept by triggers, so
        // no write path can forget it), and which revision each lab store last received.
        (
            "008-lab-sync",
            """
            ALTER TABLE session ADD COLUMN station TEXT;
            CREATE TABLE session_change (
                session_id TEXT PRIMARY KEY REFERENCES session(id) ON DELETE CASCADE,
                revision INTEGER NOT NULL
            );
            INSERT INTO session_change (session_id, revision) SELECT id, 1 FROM session;
            CREATE TRIGGER session_change_on_insert AFTER INSERT ON session BEGIN
                INSERT OR IGNORE INTO session_change (session_id, revision) VALUES (NEW.id, 1);
            END;
            CREATE TRIGGER session_change_on_update AFTER UPDATE ON session BEGIN
                UPDATE session_change SET revision = revision + 1 WHERE session_id = NEW.id;
            END;
            CREATE TRIGGER session_change_on_tap AFTER INSERT ON tap BEGIN
                UPDATE session_change SET revision = revision + 1 WHERE session_id = NEW.session_id;
            END;
            CREATE TRIGGER session_change_on_undo AFTER DELETE ON tap BEGIN
                UPDATE session_change SET revision = revision + 1 WHERE session_id = OLD.session_id;
            END;
            CREATE TABLE lab_sync (
                session_id TEXT NOT NULL REFERENCES session(id) ON DELETE CASCADE,
                lab TEXT NOT NULL,
                revision INTEGER NOT NULL,
                pushed_at REAL NOT NULL,
                PRIMARY KEY (session_id, lab)
            );
            """
        ),
        // Tag mode: a session's mode (NULL for card mode, so rows from before keep their
        // checksums) and how far the phone read the emulated tag at each tap.
        (
            "009-tag-mode",
            """
            ALTER TABLE session ADD COLUMN mode TEXT;
            ALTER TABLE tap ADD COLUMN tag_progress TEXT;
            """
        ),
        // Evidence: who said the phone was in place for each tap and how long its window
        // was (NULL for taps from before), and the session's audit trail. An event moves
        // the session's revision on, so the lab store receives the trail too.
        (
            "010-placement-and-events",
            """
            ALTER TABLE tap ADD COLUMN placement TEXT;
            ALTER TABLE tap ADD COLUMN window_s REAL;
            ALTER TABLE tap ADD COLUMN platform_probe TEXT;
            CREATE TABLE session_event (
                session_id TEXT NOT NULL REFERENCES session(id) ON DELETE CASCADE,
                sequence INTEGER NOT NULL,
                at REAL NOT NULL,
                kind TEXT NOT NULL,
                step INTEGER,
                details TEXT NOT NULL,
                checksum INTEGER NOT NULL,
                PRIMARY KEY (session_id, sequence)
            );
            CREATE TRIGGER session_change_on_event AFTER INSERT ON session_event BEGIN
                UPDATE session_change SET revision = revision + 1 WHERE session_id = NEW.session_id;
            END;
            """
        ),
        // Sessions are listed and exported page by page in (started_at, id) order. Without
        // an index each page scanned and sorted every session: an export of 50,000
        // sessions spent most of its time re-sorting the session table 100 times.
        ("011-session-start-order", "CREATE INDEX session_by_start ON session(started_at, id);"),
        // The filed record: what the operator typed for the model when it was a name, and
        // the phone's OS, build and case. NULL when not given, so older rows keep their checksums.
        (
            "012-phone-details",
            """
            ALTER TABLE session ADD COLUMN model_typed TEXT;
            ALTER TABLE session ADD COLUMN phone_os TEXT;
            ALTER TABLE session ADD COLUMN phone_build TEXT;
            ALTER TABLE session ADD COLUMN phone_case TEXT;
            """
        ),
        // The reader's serial number, where its driver gives one. NULL otherwise, so older
        // rows keep their checksums.
        ("013-reader-serial", "ALTER TABLE session ADD COLUMN reader_serial TEXT;"),
        // The reader's height above the back at a tap, for a motion stage's operating
        // volume (`--heights`); NULL for a tap on the back, as every earlier tap was.
        ("014-tap-height", "ALTER TABLE tap ADD COLUMN height_mm REAL;"),
        (
            "015-tap-coupling",
            """
            ALTER TABLE tap ADD COLUMN coupling REAL;
            ALTER TABLE tap ADD COLUMN coupling_tried TEXT;
            """
        ),
        // The ladder a tap's coupling was measured on: a grade is a share of its own ladder.
        // NULL before it, and for taps nothing was tried at, so older rows keep their checksums.
        ("016-tap-coupling-ladder", "ALTER TABLE tap ADD COLUMN coupling_ladder TEXT;"),
        // Sessions a lab store refused (a value its checks would not take): set aside with the
        // reason, so one such session never blocks the rest, and sync and doctor name it. A
        // receipt for the session clears it (issue 49, F1).
        (
            "017-lab-sync-refusals",
            """
            CREATE TABLE lab_sync_refusal (
                session_id TEXT NOT NULL REFERENCES session(id) ON DELETE CASCADE,
                lab TEXT NOT NULL,
                revision INTEGER NOT NULL,
                reason TEXT NOT NULL,
                refused_at REAL NOT NULL,
                PRIMARY KEY (session_id, lab)
            );
            """
        ),
        // The reader's antenna and the gap to the phone (`ReaderGeometry`), which the
        // physical model needs to find the coil (docs/physics.md). NULL for a session from
        // before: its reader's antenna is unknown. Older rows keep their checksums.
        (
            "018-reader-geometry",
            """
            ALTER TABLE session ADD COLUMN reader_antenna_width_mm REAL;
            ALTER TABLE session ADD COLUMN reader_antenna_height_mm REAL;
            ALTER TABLE session ADD COLUMN reader_gap_mm REAL;
            ALTER TABLE session ADD COLUMN reader_geometry_source TEXT;
            """
        ),
        // Sessions a lab store refused that the bench's operator decided to keep off it (the
        // value will never be taken: a serial a broken reader gave, stored before the
        // bounds): the refusal moves here with the decision's reason and time, sync stops
        // offering the session and names it as held, and a release offers it again.
        (
            "019-lab-sync-holds",
            """
            CREATE TABLE lab_sync_hold (
                session_id TEXT NOT NULL REFERENCES session(id) ON DELETE CASCADE,
                lab TEXT NOT NULL,
                reason TEXT NOT NULL,
                refusal TEXT NOT NULL,
                held_at REAL NOT NULL,
                PRIMARY KEY (session_id, lab)
            );
            """
        ),
        // The room a session was taken in (`BenchConditions`): NULL when not given, as for
        // every session from before. Older rows keep their checksums.
        (
            "020-bench-conditions",
            """
            ALTER TABLE session ADD COLUMN temperature_c REAL;
            ALTER TABLE session ADD COLUMN humidity_pct REAL;
            """
        ),
    ]

    /// Migrations that only add an index: a reader may read a file without them as it is
    /// (the same rows, listed more slowly) instead of copying it into memory to migrate.
    static let indexOnly: Set<String> = ["011-session-start-order"]

    /// Applies missing migrations in order (but those in `skipping`); refuses a database
    /// from a newer nfcbench.
    static func migrate(_ db: SQLiteDatabase, skipping: Set<String> = []) throws {
        try db.execute("CREATE TABLE IF NOT EXISTS schema_migration (id TEXT PRIMARY KEY, applied_at REAL NOT NULL)")
        let known = Set(migrations.map(\.id))
        let applied = try appliedMigrations(db)
        if let unknown = applied.first(where: { !known.contains($0) }) {
            throw BenchStoreError.newerSchema(migration: unknown, path: db.path)
        }
        for migration in migrations where !applied.contains(migration.id) && !skipping.contains(migration.id) {
            try db.transaction {
                // Checked under the write lock: another process may have applied it meanwhile.
                guard try !appliedMigrations(db).contains(migration.id) else { return }
                try db.execute(migration.sql)
                try db.prepare("INSERT INTO schema_migration (id, applied_at) VALUES (?1, ?2)")
                    .run([.text(migration.id), .real(Date().timeIntervalSince1970)])
            }
        }
    }

    /// Each table's columns (name, declared type, not-null, key) and each index's
    /// columns, as the migrations create them. Every store is built by the same
    /// migrations in the same order, so any other shape is damage (a flipped bit in the
    /// schema page renames a column) or another program's work. Compared by structure,
    /// not by SQL text, which older releases may have spaced differently.
    static func shape(_ db: SQLiteDatabase) throws -> [String: String] {
        let objects = try db.prepare("SELECT type, name, sql FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%'")
        var named: [(type: String, name: String, sql: String)] = []
        while try objects.step() { named.append((objects.text(0) ?? "", objects.text(1) ?? "", objects.text(2) ?? "")) }
        var shape: [String: String] = [:]
        for (type, name, sql) in named {
            let pragma = type == "table" ? "table_info" : type == "index" ? "index_info" : nil
            // Keyed by kind and name, so a message says "trigger wipe"; a trigger or view is
            // compared by its text, so one rewritten under its own name differs too.
            guard let pragma else {
                shape["\(type) \(name)"] = sql.split(whereSeparator: \.isWhitespace).joined(separator: " ")
                continue
            }
            let info = try db.prepare("SELECT * FROM pragma_\(pragma)(?1)")
            try info.bind([.text(name)])
            var columns: [String] = []
            while try info.step() {
                columns.append(
                    type == "table"
                        ? "\(info.text(1) ?? "") \(info.text(2) ?? "") \(info.int(3)) \(info.int(5))" : info.text(2) ?? "")
            }
            shape["\(type) \(name)"] = "(" + columns.joined(separator: ", ") + ")"
        }
        return shape
    }

    /// Throws `BenchStoreError.unexpectedSchema` unless `db` has the shape the migrations give.
    /// `without`: migrations the file has not had, whose objects are then not expected.
    static func verifyShape(_ db: SQLiteDatabase, without: Set<String> = []) throws {
        let expected = try SQLiteDatabase(path: ":memory:")
        try migrate(expected, skipping: without)
        let want = try shape(expected), have = try shape(db)
        let differing = Set(want.keys).union(have.keys).filter { want[$0] != have[$0] }.sorted()
        guard differing.isEmpty else { throw BenchStoreError.unexpectedSchema(differing, path: db.path) }
    }

    static func appliedMigrations(_ db: SQLiteDatabase) throws -> [String] {
        let statement = try db.prepare("SELECT id FROM schema_migration ORDER BY id")
        var ids: [String] = []
        while try statement.step() { if let id = statement.text(0) { ids.append(id) } }
        return ids
    }
}

public enum BenchStoreError: Error, Sendable, CustomStringConvertible {
    case newerSchema(migration: String, path: String)
    case unexpectedSchema([String], path: String)

    public var description: String {
        switch self {
        case .newerSchema(let migration, let path):
            "\(path) was written by a newer nfcbench (migration '\(migration)'); upgrade nfcbench to read it"
        case .unexpectedSchema(let names, let path):
            "\(path) does not have the tables nfcbench writes (\(names.joined(separator: ", ")) differ)"
        }
    }
}
