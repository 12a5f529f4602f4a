/// Lab migration 012: the `SECURITY DEFINER` functions trust nothing a station can put
/// in their way (issue 49, L1).
///
/// A function that runs with its owner's rights resolves the names in its body through
/// its `search_path`, and PostgreSQL searches the caller's temporary schema *first* when a
/// path does not name `pg_temp`. Migrations 005–008 set `pg_catalog, public` and named
/// `lab_station` bare, so a station that created a temporary `lab_station` listing
/// another station as its own could push, and so replace, that station's sessions.
///
/// Now every function runs under `pg_catalog, <lab schema>, pg_temp` (the temporary
/// schema last; PostgreSQL never searches it for functions or operators), names every
/// table, row type and function by the lab's schema, and station roles lose the database's
/// TEMPORARY privilege, which they only had through PUBLIC. The lab's schema is the one
/// the migration runs in (`current_schema()`, `public` unless the administrator chose
/// another), read by the migration itself inside the database.
enum DefinerFunctions {
    /// Stands for the lab's schema, quoted, in the definitions until the migration knows it.
    static let schemaToken = "@lab_schema@"

    /// The path every definer function runs under.
    static let searchPath = "pg_catalog, \(schemaToken), pg_temp"

    /// The definitions, each replaced in place (grants stay as they were), the push updating
    /// `sessionColumns` (those that exist at the migration that replaces it).
    static func definitions(sessionColumns: [String]) -> [String] {
        let lab = schemaToken + "."
        return [
            PushFunctions.push(updating: sessionColumns, replacing: true, lab: lab, searchPath: searchPath),
            PushFunctions.eventsPush(replacing: true, lab: lab, searchPath: searchPath),
            PushFunctions.recordMachine(replacing: true, lab: lab, searchPath: searchPath),
        ]
    }

    /// The definitions replaced in the lab's schema, read inside the database.
    static func replacement(sessionColumns: [String], then more: String = "") -> String {
        let statements = definitions(sessionColumns: sessionColumns).map {
            "    EXECUTE replace($definition$\($0)$definition$, '\(schemaToken)', lab);\n"
        }
        return """
            DO $migration$
            DECLARE
                lab text := quote_ident(current_schema());
            BEGIN
            \(statements.joined())\(more)
            END $migration$;
            """
    }

    static var migration: String {
        replacement(
            sessionColumns: PushFunctions.sessionColumns(
                without: PushFunctions.readerGeometryColumns + PushFunctions.conditionColumns),
            then: """
                    -- Station roles had TEMPORARY only through PUBLIC; the database's owner keeps it.
                    EXECUTE format('REVOKE TEMPORARY ON DATABASE %I FROM PUBLIC', current_database());
                    EXECUTE format('REVOKE TEMPORARY ON DATABASE %I FROM nfcbench_bench, nfcbench_reader', current_database());
                """)
    }
}
