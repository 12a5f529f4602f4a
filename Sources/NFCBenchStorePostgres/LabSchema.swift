import Foundation
import NFCBenchRecords
import NFCPostgres

/// The lab store's schema in PostgreSQL: ordered, recorded migrations, like the bench
/// database's (docs/lab-store.md).
///
/// Benches push sessions keyed by (station, id): a session id is unique within its
/// station's own database, and a station name within the lab, so the pair is unique by
/// construction. Row-level security lets a bench role write only the rows of the stations
/// registered to it; `nfcbench_reader` only reads.
enum LabSchema {
    /// Taken with `pg_advisory_xact_lock` while migrating, so two benches starting at
    /// once apply each migration exactly once ("nfcbench" in ASCII).
    static let migrationLock: Int64 = 0x6E66_6362_656E_6368

    /// Which stations the connected role may write: the rows `station` registers to it.
    static let ownStations = "station IN (SELECT name FROM lab_station WHERE role = current_user)"

    /// Ordered; append only.
    static let migrations: [(id: String, sql: String)] = [
        (
            "001-lab-sessions",
            """
            DO $$ BEGIN
                CREATE ROLE nfcbench_bench NOLOGIN;
            EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END $$;
            DO $$ BEGIN
                CREATE ROLE nfcbench_reader NOLOGIN;
            EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END $$;
            CREATE TABLE lab_identity (
                id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
                created_at timestamptz NOT NULL DEFAULT now()
            );
            INSERT INTO lab_identity DEFAULT VALUES;
            CREATE TABLE lab_station (
                name text COLLATE "C" PRIMARY KEY CHECK (name ~ '^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$'),
                role name NOT NULL,
                registered_at timestamptz NOT NULL DEFAULT now()
            );
            CREATE TABLE lab_session (
                station text COLLATE "C" NOT NULL REFERENCES lab_station(name),
                id text COLLATE "C" NOT NULL,
                model_input text NOT NULL,
                lookup_key text NOT NULL,
                display_name text,
                zone_x double precision, zone_y double precision, zone_width double precision, zone_height double precision,
                confidence text NOT NULL,
                source text NOT NULL,
                stale boolean NOT NULL,
                catalog_version text,
                aspect_ratio double precision NOT NULL,
                reader_name text NOT NULL,
                reader_firmware text,
                unit text,
                operator text,
                plan_kind text NOT NULL,
                plan_json text NOT NULL,
                plan_pass integer NOT NULL,
                plan_focus text,
                repeats integer NOT NULL,
                tap_timeout double precision NOT NULL,
                status text NOT NULL,
                started_at double precision NOT NULL,
                ended_at double precision,
                verdict text,
                verdict_reason text,
                measured_x double precision, measured_y double precision,
                measured_width double precision, measured_height double precision,
                iou double precision,
                body_height_mm double precision,
                simulated boolean NOT NULL,
                void_reason text,
                voided_at double precision,
                revision bigint NOT NULL,
                synced_at timestamptz NOT NULL DEFAULT now(),
                PRIMARY KEY (station, id)
            );
            CREATE INDEX lab_session_listing ON lab_session (started_at, id, station);
            CREATE INDEX lab_session_by_model ON lab_session (lookup_key, started_at);
            CREATE TABLE lab_tap (
                station text COLLATE "C" NOT NULL,
                session_id text COLLATE "C" NOT NULL,
                step integer NOT NULL,
                attempt integer NOT NULL,
                probe_x double precision NOT NULL,
                probe_y double precision NOT NULL,
                inside_predicted boolean NOT NULL,
                result text NOT NULL,
                latency_ms double precision,
                technology text, uid text, atqa text, sak text, ats text, atr text,
                timestamp double precision NOT NULL,
                PRIMARY KEY (station, session_id, step, attempt),
                FOREIGN KEY (station, session_id) REFERENCES lab_session (station, id) ON DELETE CASCADE
            );
            ALTER TABLE lab_session ENABLE ROW LEVEL SECURITY;
            ALTER TABLE lab_tap ENABLE ROW LEVEL SECURITY;
            CREATE POLICY lab_reads ON lab_session FOR SELECT USING (true);
            CREATE POLICY own_station_inserts ON lab_session FOR INSERT WITH CHECK (\(ownStations));
            CREATE POLICY own_station_updates ON lab_session FOR UPDATE USING (\(ownStations)) WITH CHECK (\(ownStations));
            CREATE POLICY own_station_deletes ON lab_session FOR DELETE USING (\(ownStations));
            CREATE POLICY lab_reads ON lab_tap FOR SELECT USING (true);
            CREATE POLICY own_station_inserts ON lab_tap FOR INSERT WITH CHECK (\(ownStations));
            CREATE POLICY own_station_deletes ON lab_tap FOR DELETE USING (\(ownStations));
            GRANT SELECT ON lab_schema_migration, lab_identity, lab_station, lab_session, lab_tap TO nfcbench_reader, nfcbench_bench;
            GRANT INSERT, UPDATE, DELETE ON lab_session TO nfcbench_bench;
            GRANT INSERT, DELETE ON lab_tap TO nfcbench_bench;
            """
        ),
        (
            "002-tag-mode",
            """
            ALTER TABLE lab_session ADD COLUMN mode text NOT NULL DEFAULT 'card' CHECK (mode IN ('card', 'tag'));
            ALTER TABLE lab_tap ADD COLUMN tag_progress text;
            """
        ),
        (
            // Which machines push as each station: two benches configured with one station
            // name would otherwise pool their sessions (and their readers' reach) unseen.
            "003-station-machines",
            """
            CREATE TABLE lab_station_machine (
                station text COLLATE "C" NOT NULL REFERENCES lab_station(name),
                machine text NOT NULL CHECK (length(machine) BETWEEN 1 AND 255),
                first_push timestamptz NOT NULL DEFAULT now(),
                last_push timestamptz NOT NULL DEFAULT now(),
                PRIMARY KEY (station, machine)
            );
            ALTER TABLE lab_station_machine ENABLE ROW LEVEL SECURITY;
            CREATE POLICY lab_reads ON lab_station_machine FOR SELECT USING (true);
            CREATE POLICY own_station_inserts ON lab_station_machine FOR INSERT WITH CHECK (\(ownStations));
            CREATE POLICY own_station_updates ON lab_station_machine FOR UPDATE USING (\(ownStations)) WITH CHECK (\(ownStations));
            GRANT SELECT ON lab_station_machine TO nfcbench_reader, nfcbench_bench;
            GRANT INSERT, UPDATE ON lab_station_machine TO nfcbench_bench;
            """
        ),
        (
            // The bounds every reader applies (StoredRanges), as constraints: one bench can no
            // longer insert a tap with probe_x = NaN that makes every export of the lab refuse.
            // NOT VALID keeps rows stored before (readers name them); new rows are checked.
            // In PostgreSQL NaN sorts above every number, so BETWEEN refuses it, and infinities.
            "004-stored-ranges",
            RangeConstraints.sql
        ),
        // Bench roles write only through SECURITY DEFINER functions: they can no longer
        // LOCK TABLE (one bench stalled every other's push for as long as it held a lock)
        // nor change rows in bulk.
        ("005-push-functions", PushFunctions.migration),
        // Evidence: each tap's placement and window, and each session's audit trail,
        // written only through the push (`PushFunctions.eventsMigration`).
        ("006-placement-and-events", PushFunctions.eventsMigration),
        ("007-phone-details", PushFunctions.detailsMigration),
        ("008-reader-serial", PushFunctions.readerSerialMigration),
        // A tap's height above the back (a motion stage's `--heights`); NULL on the back.
        // The push copies every lab_tap column it is sent, so it stays as it is.
        (
            "009-tap-height",
            "ALTER TABLE lab_tap ADD COLUMN height_mm double precision CHECK (height_mm IS NULL OR "
                + RangeConstraints.between("height_mm", ProbeHeights.range) + ");"
        ),
        // A HIT's graded coupling (`run --coupling`) and the analog profiles tried; NULL
        // when not measured. The push copies every lab_tap column it is sent.
        (
            "010-tap-coupling",
            "ALTER TABLE lab_tap ADD COLUMN coupling double precision CHECK (coupling IS NULL OR "
                + RangeConstraints.between("coupling", 0.0...1.0) + "); ALTER TABLE lab_tap ADD COLUMN coupling_tried text;"
        ),
        // The ladder a tap's coupling was measured on (`CouplingLadder.name`); NULL before it.
        ("011-tap-coupling-ladder", "ALTER TABLE lab_tap ADD COLUMN coupling_ladder text;"),
        // The definer functions name every table by its schema and search the caller's
        // temporary schema last; station roles may create no temporary tables (issue 49, L1).
        ("012-definer-search-path", DefinerFunctions.migration),
        // The bound the bench applies to every text an operator gives (`StoredText`), on the
        // columns migration 007 left unbounded; NOT VALID keeps rows stored before (issue 49, F1).
        (
            "013-operator-text-bounds",
            "ALTER TABLE lab_session ADD CONSTRAINT lab_session_operator_text CHECK ("
                + ["unit", "operator", "void_reason"].map { "length(\($0)) <= \(StoredText.maximumCharacters)" }
                .joined(separator: " AND ") + ") NOT VALID;"
        ),
        // The reader's antenna and gap (`ReaderGeometry`, docs/physics.md), and the push that
        // stores them; NULL for sessions from before, whose reader's antenna is unknown.
        ("014-reader-geometry", PushFunctions.readerGeometryMigration),
        // The room a session was taken in (`BenchConditions`, issue 52), and the push that
        // stores it; NULL for sessions that did not give it.
        ("015-bench-conditions", PushFunctions.conditionsMigration),
    ]

    /// Applies missing migrations under the advisory lock; refuses a store from a newer
    /// nfcbench. A role that may not create tables gets `LabStoreError.needsMigration`,
    /// naming the command the lab's administrator runs.
    static func migrate(_ c: PostgresConnection) throws {
        try c.transaction {
            try c.execute("SELECT pg_advisory_xact_lock($1)", [.integer(migrationLock)])
            try c.execute(
                "CREATE TABLE IF NOT EXISTS lab_schema_migration (id text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())"
            )
            let applied = try appliedMigrations(c)
            try refuseNewer(applied, server: c.server)
            for migration in migrations where !applied.contains(migration.id) {
                try c.executeScript(migration.sql)
                try c.execute("INSERT INTO lab_schema_migration (id) VALUES ($1)", [.text(migration.id)])
            }
        }
    }

    /// Checks without changing anything: what a bench or reader role does before using the store.
    static func verify(_ c: PostgresConnection) throws {
        let exists = try c.execute("SELECT to_regclass('lab_schema_migration') IS NOT NULL")
        let applied = try exists.bool(0, 0) == true ? try appliedMigrations(c) : []
        try refuseNewer(applied, server: c.server)
        let missing = migrations.map(\.id).filter { !applied.contains($0) }
        if !missing.isEmpty { throw LabStoreError.needsMigration(missing: missing, server: c.server) }
    }

    static func appliedMigrations(_ c: PostgresConnection) throws -> [String] {
        try c.execute("SELECT id FROM lab_schema_migration ORDER BY id").rows.compactMap { $0[0] }
    }

    static func refuseNewer(_ applied: [String], server: String) throws {
        let known = Set(migrations.map(\.id))
        if let unknown = applied.first(where: { !known.contains($0) }) {
            throw LabStoreError.newerSchema(migration: unknown, server: server)
        }
    }
}
