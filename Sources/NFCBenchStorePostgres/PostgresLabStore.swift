import Foundation
import NFCBenchRecords
import NFCLocatorCore
import NFCPostgres
import NFCStore
import NFCSystem

/// The lab store: sessions and taps of every bench of a lab in PostgreSQL, read through
/// the same `BenchReading` seam as a bench's own database, so `sessions`, `show`,
/// `export`, `report` and `refine` pool every bench's evidence with `--store URL`.
///
/// Runs never write here: they commit each tap to the bench's SQLite first, and
/// `LabSync` pushes finished work (`push`). It is no `BenchStoring`, so nothing can ask it
/// to record, void or resume: those happen on the bench that took the session. The connection lives on a serial
/// queue of its own, like the SQLite store's, so a slow network never blocks a
/// cooperative thread.
public actor PostgresLabStore: BenchReading {
    /// Rows the lab's CHECK constraints (migration 004) admit always decode. What reads over
    /// many sessions (`intactTaps`) meet of rows stored before them is noted here; the
    /// listings themselves do not skip a damaged row yet.
    public nonisolated let damage = DamageLog()
    let connection: PostgresConnection
    private let executor: SerialQueueExecutor
    /// The connection string, kept to open the second connection a long read streams on.
    private let connectionString: String
    /// The bound on each statement, for the second connection too.
    private nonisolated let timeoutSeconds: Int
    public nonisolated let location: String
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    private init(connection: sending PostgresConnection, executor: SerialQueueExecutor, connectionString: String) {
        self.location = connection.server
        self.connection = connection
        self.executor = executor
        self.connectionString = connectionString
        timeoutSeconds = Int(connection.timeout.components.seconds)
    }

    /// The bound on any one statement unless `NFCBENCH_LAB_TIMEOUT` says otherwise.
    /// 25 s, so a stalled store ends a command within 30 s in all (`bench/labstore`: 25.1 s).
    public static let defaultTimeoutSeconds = 25

    /// Connects and checks the schema; with `migrate`, applies what is missing first (the
    /// lab's administrator, or a bench whose role may create tables). No statement waits
    /// longer than `timeoutSeconds` (`PostgresConnection`).
    public static func open(
        _ connectionString: String, migrate: Bool = false, timeoutSeconds: Int = defaultTimeoutSeconds
    ) async throws -> PostgresLabStore {
        let executor = SerialQueueExecutor(label: "nfcbench.labstore")
        let connection = try await executor.run { () throws -> sending PostgresConnection in
            let c = try PostgresConnection(connectionString, timeoutSeconds: timeoutSeconds)
            if migrate { try LabSchema.migrate(c) } else { try LabSchema.verify(c) }
            return c
        }
        return PostgresLabStore(connection: connection, executor: executor, connectionString: connectionString)
    }

    public func appliedMigrations() throws -> [String] { try LabSchema.appliedMigrations(connection) }

    /// The role this store is used as.
    public var role: String { connection.user }

    // MARK: - Reading

    public func session(_ reference: String) throws -> SessionRecord? {
        let r = SessionReference(parsing: reference)
        let rows =
            if let station = r.station {
                try connection.execute(LabRows.sessionSelect + " WHERE station = $1 AND id = $2", [.text(station), .text(r.id)])
            } else {
                try connection.execute(LabRows.sessionSelect + " WHERE id = $1 ORDER BY station", [.text(r.id)])
            }
        if rows.count > 1 {
            throw LabStoreError.ambiguousSession(id: r.id, stations: rows.rows.compactMap { $0[0] })
        }
        return rows.count == 1 ? try LabRows.session(rows, 0) : nil
    }

    public func sessions() throws -> [SessionRecord] {
        let rows = try connection.execute(LabRows.sessionSelect + " ORDER BY started_at, id, station")
        return try (0..<rows.count).map { try LabRows.session(rows, $0) }
    }

    public func sessions(after cursor: SessionCursor?, limit: Int, lookupKeys: Set<String>?) throws -> [SessionRecord] {
        precondition(limit > 0, "a page holds at least one session")
        var conditions: [String] = []
        var values: [PostgresValue] = [.integer(Int64(limit))]
        if let cursor {
            conditions.append("(started_at, id, station) > ($2, $3, $4)")
            values += [.real(cursor.startedAt.timeIntervalSince1970), .text(cursor.id), .text(cursor.station)]
        }
        if let keys = lookupKeys?.sorted() {
            guard !keys.isEmpty else { return [] }
            conditions.append("lookup_key = ANY($\(values.count + 1)::text[])")
            values.append(.text(Self.arrayLiteral(keys)))
        }
        let filter = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        let rows = try connection.execute(LabRows.sessionSelect + filter + " ORDER BY started_at, id, station LIMIT $1", values)
        return try (0..<rows.count).map { try LabRows.session(rows, $0) }
    }

    public func taps(_ reference: String) throws -> [TapRecord] {
        try rows(of: reference, "SELECT \(LabRows.tapColumns) FROM lab_tap", order: "step, attempt", LabRows.tap)
    }

    public func events(_ reference: String) throws -> [SessionEvent] {
        try rows(of: reference, "SELECT \(LabRows.eventColumns) FROM lab_event", order: "sequence", LabRows.event)
    }

    /// The rows `select` gives for the session `reference` names (none when there is no
    /// such session), in `order`, each decoded.
    private func rows<T>(
        of reference: String, _ select: String, order: String, _ decode: (PostgresRows, Int) throws -> T
    ) throws -> [T] {
        guard let session = try session(reference), let station = session.station else { return [] }
        let rows = try connection.execute(
            select + " WHERE station = $1 AND session_id = $2 ORDER BY " + order, [.text(station), .text(session.id)])
        return try (0..<rows.count).map { try decode(rows, $0) }
    }

    public nonisolated func tapBatches(sessions: [String]?) async throws -> any TapBatches {
        try await LabTapBatches.open(
            connectionString, timeoutSeconds: timeoutSeconds, sessions: sessions)
    }

    /// A PostgreSQL text-array literal of `values`, passed as one parameter (each element
    /// quoted and escaped, so nothing in a value can end the array or the statement).
    static func arrayLiteral(_ values: [String]) -> String {
        "{"
            + values.map {
                "\"" + $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
            }
            .joined(separator: ",") + "}"
    }
}
