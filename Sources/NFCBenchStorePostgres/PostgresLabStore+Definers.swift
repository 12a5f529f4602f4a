import NFCPostgres

/// What `doctor` checks of a live lab store against issue 49's L1: nothing a station
/// creates can stand in for the lab's own tables inside a function that runs with the
/// owner's rights.
extension PostgresLabStore {
    /// Each way the store falls short, in words an administrator acts on; empty when none.
    public func definerFindings() throws -> [String] {
        var findings: [String] = []
        let functions = try connection.execute(
            """
            SELECT p.oid::regprocedure::text, coalesce(array_to_string(p.proconfig, '|'), '')
            FROM pg_catalog.pg_proc p
            WHERE p.prosecdef AND p.proname IN ('nfcbench_push', 'nfcbench_record_machine')
            ORDER BY 1
            """)
        if functions.count == 0 { findings.append("no nfcbench_push function runs with the owner's rights") }
        for row in 0..<functions.count {
            let name = functions.text(row, 0) ?? "?"
            let path = (functions.text(row, 1) ?? "").split(separator: "|")
                .first { $0.hasPrefix("search_path=") }?.dropFirst("search_path=".count)
            let entries = path.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } } ?? []
            if entries.last != "pg_temp" {
                findings.append(
                    "\(name) searches the caller's temporary tables first (search_path \(path.map(String.init) ?? "unset"))")
            }
        }
        // A station role, not the administrator (who owns the database and keeps the right).
        let stationMayCreateTemporaryTables = try connection.execute(
            """
            SELECT has_database_privilege(current_database(), 'TEMPORARY')
                AND pg_has_role('nfcbench_bench', 'MEMBER')
                AND NOT (SELECT rolsuper FROM pg_catalog.pg_roles WHERE rolname = current_user)
            """)
        if try stationMayCreateTemporaryTables.bool(0, 0) == true {
            findings.append("role \(connection.user) may create temporary tables in the lab database")
        }
        return findings
    }
}
