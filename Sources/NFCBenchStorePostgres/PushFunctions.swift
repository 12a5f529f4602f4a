import Foundation
import NFCBenchRecords
import NFCPostgres
import NFCReaders

/// The only way a bench role writes (migration 005): `SECURITY DEFINER` functions that
/// apply the rules row-level security applied before (a bench writes only the stations
/// registered to its login role), while the role itself keeps nothing but `SELECT` on the
/// tables. `LOCK TABLE` needs UPDATE, DELETE or TRUNCATE for the strong modes, so a bench
/// can no longer hold a lock that stalls every other bench, nor change rows in bulk.
///
/// The session arrives as one JSON object and its taps as one JSON array, keyed by column
/// name and read with `jsonb_populate_record`: each value in its PostgreSQL text form, so
/// doubles round-trip exactly, as with bound parameters.
enum PushFunctions {
    /// Raised when another session already holds this station and id (`LabStoreError.idCollision`).
    static let idCollisionState = "NBC01"

    /// The session columns as migration 005 knew them: its push updates these on a
    /// conflict. Later migrations that add columns replace the push (`detailsMigration`,
    /// `readerSerialMigration`); each push names only the columns that exist by then.
    static let sessionColumnsAt005 = sessionColumns(
        without: detailColumns + readerSerialColumns + readerGeometryColumns + conditionColumns)

    /// The session columns migration 007 adds.
    static let detailColumns = ["model_typed", "phone_os", "phone_build", "phone_case"]
    /// The session column migration 008 adds.
    static let readerSerialColumns = ["reader_serial"]
    /// The session columns migration 014 adds (`ReaderGeometry`).
    static let readerGeometryColumns = [
        "reader_antenna_width_mm", "reader_antenna_height_mm", "reader_gap_mm", "reader_geometry_source",
    ]

    /// The session columns migration 015 adds (`BenchConditions`).
    static let conditionColumns = ["temperature_c", "humidity_pct"]

    static func sessionColumns(without later: [String]) -> [String] {
        LabRows.names(LabRows.sessionColumns).filter { !later.contains($0) }
    }

    /// Text columns a bench fills, bounded like every text a bench sends.
    static func addTextColumns(_ columns: [String]) -> String {
        columns.map { "ALTER TABLE lab_session ADD COLUMN \($0) text CHECK (\($0) IS NULL OR length(\($0)) <= 1000);\n" }
            .joined()
    }

    /// The path migrations 005–008 gave every function: PostgreSQL searches the caller's
    /// temporary schema first when a path does not name it, so a station's own temporary
    /// `lab_station` stood in for the real one.
    static let legacySearchPath = "pg_catalog, public"

    static var migration: String {
        push(updating: sessionColumnsAt005, replacing: false) + recordMachine(replacing: false) + """
            REVOKE ALL ON FUNCTION nfcbench_push(text, jsonb, jsonb), nfcbench_record_machine(text, text) FROM PUBLIC;
            GRANT EXECUTE ON FUNCTION nfcbench_push(text, jsonb, jsonb), nfcbench_record_machine(text, text) TO nfcbench_bench;
            REVOKE INSERT, UPDATE, DELETE, TRUNCATE ON lab_session, lab_tap, lab_station_machine FROM nfcbench_bench;
            """
    }

    /// Notes which machine pushes as a station; see `push` for `lab` and `searchPath`.
    static func recordMachine(replacing: Bool, lab: String = "", searchPath: String = legacySearchPath) -> String {
        """
        CREATE \(replacing ? "OR REPLACE " : "")FUNCTION \(lab)nfcbench_record_machine(p_station text, p_machine text) RETURNS void
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = \(searchPath) AS $fn$
        BEGIN
            IF NOT EXISTS (SELECT 1 FROM \(lab)lab_station WHERE name = p_station AND role = session_user) THEN
                RAISE EXCEPTION 'station % is not registered to role %', p_station, session_user USING ERRCODE = '42501';
            END IF;
            INSERT INTO \(lab)lab_station_machine (station, machine) VALUES (p_station, left(p_machine, 255))
                ON CONFLICT (station, machine) DO UPDATE SET last_push = now();
        END $fn$;

        """
    }

    /// Migration 007: the filed record's model as typed and the phone's OS, build and case
    /// (bounded like every text a bench sends), and the push that updates them too. A
    /// bench from before sends none of them: they stay NULL.
    static var detailsMigration: String {
        addTextColumns(detailColumns)
            + push(
                updating: sessionColumns(without: readerSerialColumns + readerGeometryColumns + conditionColumns), replacing: true
            )
    }

    /// Migration 008: the reader's serial number, and the push that updates it too.
    static var readerSerialMigration: String {
        addTextColumns(readerSerialColumns)
            + push(updating: sessionColumns(without: readerGeometryColumns + conditionColumns), replacing: true)
    }

    /// Migration 014: the reader's antenna and gap (`ReaderGeometry`), bounded as the bench
    /// bounds them, all four NULL or none; and the push that updates them too, replaced as
    /// migration 012 replaced it (schema-qualified, the temporary schema last).
    static var readerGeometryMigration: String {
        let sides = ReaderGeometry.antennaSides, gaps = ReaderGeometry.gaps
        return """
            ALTER TABLE lab_session ADD COLUMN reader_antenna_width_mm double precision
                CHECK (reader_antenna_width_mm IS NULL OR \(RangeConstraints.between("reader_antenna_width_mm", sides)));
            ALTER TABLE lab_session ADD COLUMN reader_antenna_height_mm double precision
                CHECK (reader_antenna_height_mm IS NULL OR \(RangeConstraints.between("reader_antenna_height_mm", sides)));
            ALTER TABLE lab_session ADD COLUMN reader_gap_mm double precision
                CHECK (reader_gap_mm IS NULL OR \(RangeConstraints.between("reader_gap_mm", gaps)));
            ALTER TABLE lab_session ADD COLUMN reader_geometry_source text
                CHECK (reader_geometry_source IS NULL OR length(reader_geometry_source) <= \(StoredText.maximumCharacters));
            ALTER TABLE lab_session ADD CONSTRAINT lab_session_reader_geometry_whole CHECK (
                num_nulls(reader_antenna_width_mm, reader_antenna_height_mm, reader_gap_mm, reader_geometry_source) IN (0, 4));

            """ + DefinerFunctions.replacement(sessionColumns: sessionColumns(without: conditionColumns))
    }

    /// The room's conditions (`BenchConditions`), within the ranges the bench checks, and
    /// the push that stores them (schema-qualified, as every definer function since 012).
    static var conditionsMigration: String {
        """
        ALTER TABLE lab_session ADD COLUMN temperature_c double precision
            CHECK (temperature_c IS NULL OR \(RangeConstraints.between("temperature_c", BenchConditions.temperatures)));
        ALTER TABLE lab_session ADD COLUMN humidity_pct double precision
            CHECK (humidity_pct IS NULL OR \(RangeConstraints.between("humidity_pct", BenchConditions.humidities)));

        """ + DefinerFunctions.replacement(sessionColumns: sessionColumns(without: []))
    }

    /// The three-argument push: a session and its taps, checked against the caller's
    /// station, stored when its revision is newer.
    ///
    /// `lab` qualifies every table, type and function the body names, and `searchPath` is the
    /// path the function runs under: the defaults are migrations 005–008's, which left the
    /// tables unqualified and the caller's temporary schema first (issue L1,
    /// `DefinerFunctions`).
    static func push(
        updating sessionColumns: [String], replacing: Bool, lab: String = "", searchPath: String = legacySearchPath
    ) -> String {
        let updates = (sessionColumns.dropFirst(2) + ["revision", "synced_at"])
            .map { "\($0) = EXCLUDED.\($0)" }.joined(separator: ", ")
        return """
            CREATE \(replacing ? "OR REPLACE " : "")FUNCTION \(lab)nfcbench_push(p_station text, p_session jsonb, p_taps jsonb) RETURNS text
            LANGUAGE plpgsql SECURITY DEFINER SET search_path = \(searchPath) AS $fn$
            DECLARE
                s \(lab)lab_session;
                stored_revision bigint;
                stored_start double precision;
            BEGIN
                IF NOT EXISTS (SELECT 1 FROM \(lab)lab_station WHERE name = p_station AND role = session_user) THEN
                    RAISE EXCEPTION 'station % is not registered to role %', p_station, session_user USING ERRCODE = '42501';
                END IF;
                s := jsonb_populate_record(NULL::\(lab)lab_session, p_session);
                IF s.station IS DISTINCT FROM p_station OR s.id IS NULL THEN
                    RAISE EXCEPTION 'the session is not one of station %', p_station USING ERRCODE = '42501';
                END IF;
                IF EXISTS (SELECT 1 FROM jsonb_populate_recordset(NULL::\(lab)lab_tap, p_taps) t
                           WHERE t.station IS DISTINCT FROM s.station OR t.session_id IS DISTINCT FROM s.id) THEN
                    RAISE EXCEPTION 'a tap is not of session %/%', s.station, s.id USING ERRCODE = '42501';
                END IF;
                SELECT revision, started_at INTO stored_revision, stored_start FROM \(lab)lab_session
                    WHERE station = s.station AND id = s.id FOR UPDATE;
                IF FOUND THEN
                    IF abs(stored_start - s.started_at) > 1e-6 THEN
                        RAISE EXCEPTION 'another session is stored as %/%', s.station, s.id USING ERRCODE = '\(idCollisionState)';
                    END IF;
                    IF stored_revision >= s.revision THEN RETURN 'current'; END IF;
                END IF;
                s.synced_at := now();
                INSERT INTO \(lab)lab_session SELECT (s).* ON CONFLICT (station, id) DO UPDATE SET \(updates);
                DELETE FROM \(lab)lab_tap WHERE station = s.station AND session_id = s.id;
                INSERT INTO \(lab)lab_tap SELECT * FROM jsonb_populate_recordset(NULL::\(lab)lab_tap, p_taps);
                RETURN 'stored';
            END $fn$;

            """
    }

    /// Migration 006: the tap's placement and window, the `lab_event` trail, and the push
    /// that carries the trail with the session (four arguments; the three-argument push
    /// of older benches still works and leaves the trail as it was). Its bounds are
    /// `StoredRanges`', written as migration 004 writes them (`RangeConstraints`).
    static var eventsMigration: String {
        let probes = PlatformProbe.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")
        let placements = TapPlacement.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")
        return """
            ALTER TABLE lab_tap ADD COLUMN placement text CHECK (placement IS NULL OR placement IN (\(placements)));
            ALTER TABLE lab_tap ADD COLUMN window_s double precision
                CHECK (window_s IS NULL OR \(RangeConstraints.between("window_s", SessionRecord.storedTapTimeouts)));
            ALTER TABLE lab_tap ADD COLUMN platform_probe text
                CHECK (platform_probe IS NULL OR platform_probe IN (\(probes)));
            CREATE TABLE lab_event (
                station text COLLATE "C" NOT NULL,
                session_id text COLLATE "C" NOT NULL,
                sequence integer NOT NULL CHECK (\(RangeConstraints.between("sequence", StoredRanges.eventSequence))),
                at double precision NOT NULL CHECK (\(RangeConstraints.between("at", StoredRanges.instants))),
                kind text NOT NULL,
                step integer CHECK (step IS NULL OR \(RangeConstraints.between("step", StoredRanges.step))),
                details text NOT NULL,
                PRIMARY KEY (station, session_id, sequence),
                FOREIGN KEY (station, session_id) REFERENCES lab_session (station, id) ON DELETE CASCADE
            );
            ALTER TABLE lab_event ENABLE ROW LEVEL SECURITY;
            CREATE POLICY lab_reads ON lab_event FOR SELECT USING (true);
            GRANT SELECT ON lab_event TO nfcbench_reader, nfcbench_bench;
            \(eventsPush(replacing: false))
            REVOKE ALL ON FUNCTION nfcbench_push(text, jsonb, jsonb, jsonb) FROM PUBLIC;
            GRANT EXECUTE ON FUNCTION nfcbench_push(text, jsonb, jsonb, jsonb) TO nfcbench_bench;
            """
    }

    /// The four-argument push: the three-argument one, then the session's audit trail.
    /// See `push` for `lab` and `searchPath`.
    static func eventsPush(replacing: Bool, lab: String = "", searchPath: String = legacySearchPath) -> String {
        """
        CREATE \(replacing ? "OR REPLACE " : "")FUNCTION \(lab)nfcbench_push(p_station text, p_session jsonb, p_taps jsonb, p_events jsonb) RETURNS text
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = \(searchPath) AS $fn$
        DECLARE
            outcome text;
        BEGIN
            outcome := \(lab)nfcbench_push(p_station, p_session, p_taps);
            IF outcome = 'current' THEN RETURN outcome; END IF;
            IF EXISTS (SELECT 1 FROM jsonb_populate_recordset(NULL::\(lab)lab_event, p_events) e
                       WHERE e.station IS DISTINCT FROM p_station
                          OR e.session_id IS DISTINCT FROM p_session->>'id') THEN
                RAISE EXCEPTION 'an event is not of session %/%', p_station, p_session->>'id' USING ERRCODE = '42501';
            END IF;
            DELETE FROM \(lab)lab_event WHERE station = p_station AND session_id = p_session->>'id';
            INSERT INTO \(lab)lab_event SELECT * FROM jsonb_populate_recordset(NULL::\(lab)lab_event, p_events);
            RETURN outcome;
        END $fn$;

        """
    }

    /// One JSON object of column name to text form (JSON null for SQL NULL).
    static func object(columns: [String], values: [PostgresValue]) -> [String: Any] {
        precondition(columns.count == values.count, "one value per column")
        var object: [String: Any] = [:]
        for (column, value) in zip(columns, values) { object[column] = value.text ?? NSNull() }
        return object
    }

    static func json(_ value: Any) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: value, options: [.withoutEscapingSlashes]), as: UTF8.self)
    }
}
