import Foundation
import NFCBenchRecords
import NFCPostgres
import NFCStore
import NFCSystem

/// Taps of a lab store streamed from one snapshot: a connection of its own holds a
/// `REPEATABLE READ READ ONLY` transaction and a server-side cursor, and each `next()`
/// fetches one batch, so an export of a million taps stays flat in memory and sees no
/// push that lands meanwhile.
actor LabTapBatches: TapBatches {
    private let connection: PostgresConnection
    private let executor: SerialQueueExecutor
    private var done = false
    static let batchSize = 5000
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    private init(connection: sending PostgresConnection, executor: SerialQueueExecutor) {
        self.connection = connection
        self.executor = executor
    }

    /// `sessions`: references (`station/id`, or a bare id matching every station), all when `nil`.
    static func open(_ connectionString: String, timeoutSeconds: Int, sessions: [String]?) async throws -> LabTapBatches {
        let executor = SerialQueueExecutor(label: "nfcbench.labstore.taps")
        let connection = try await executor.run { () throws -> sending PostgresConnection in
            let c = try PostgresConnection(connectionString, timeoutSeconds: timeoutSeconds)
            try c.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            let order = " ORDER BY t.session_id, t.station, t.step, t.attempt"
            let columns = LabRows.tapColumnNames.map { "t." + $0 }.joined(separator: ", ")
            if let sessions {
                let references = sessions.map(SessionReference.init(parsing:))
                try c.execute(
                    """
                    DECLARE taps NO SCROLL CURSOR FOR SELECT \(columns) FROM lab_tap t
                    JOIN unnest($1::text[], $2::text[]) AS wanted(station, id)
                        ON t.session_id = wanted.id AND (wanted.station = '' OR t.station = wanted.station)
                    """ + order,
                    [
                        .text(PostgresLabStore.arrayLiteral(references.map { $0.station ?? "" })),
                        .text(PostgresLabStore.arrayLiteral(references.map(\.id))),
                    ])
            } else {
                try c.execute("DECLARE taps NO SCROLL CURSOR FOR SELECT \(columns) FROM lab_tap t" + order)
            }
            return c
        }
        return LabTapBatches(connection: connection, executor: executor)
    }

    func next() throws -> [TapRecord] {
        guard !done else { return [] }
        let rows = try connection.execute("FETCH \(Self.batchSize) FROM taps")
        if rows.count < Self.batchSize {
            done = true
            _ = try? connection.execute("COMMIT")
        }
        return try (0..<rows.count).map { try LabRows.tap(rows, $0) }
    }
}
