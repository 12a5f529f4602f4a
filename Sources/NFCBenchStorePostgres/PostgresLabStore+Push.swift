import Foundation
import NFCBenchRecords
import NFCPostgres

/// The write side a bench uses: pushing a whole session in one transaction.
extension PostgresLabStore {
    /// What a push did with a session.
    public enum PushOutcome: Sendable, Equatable {
        case stored
        /// The lab store already holds this revision or a newer one (another sync got there first).
        case alreadyCurrent
    }

    /// The lab store's identity, which a bench's receipts are kept under: pointing a
    /// bench at another lab store pushes everything again.
    public func identity() throws -> String {
        let rows = try connection.execute("SELECT id::text FROM lab_identity ORDER BY created_at LIMIT 1")
        guard let id = rows.count == 1 ? rows.text(0, 0) : nil else {
            throw PostgresError(kind: .result, sqlState: nil, message: "lab_identity holds no row", server: location)
        }
        return id
    }

    /// Throws `LabStoreError.unregisteredStation` unless `station` is registered to this role.
    public func checkStation(_ station: String) throws {
        let rows = try connection.execute(
            "SELECT 1 FROM lab_station WHERE name = $1 AND role = current_user", [.text(station)])
        if rows.count == 0 {
            throw LabStoreError.unregisteredStation(station: station, role: connection.user, server: location)
        }
    }

    /// Stores the session and its taps exactly as `snapshot` holds them, replacing any
    /// earlier revision: the row is upserted, its taps deleted and inserted again, all in
    /// one transaction. Repeating a push changes nothing; a push killed midway leaves the
    /// previous revision whole.
    public func push(_ snapshot: SyncSnapshot, station defaultStation: String) throws -> PushOutcome {
        let station = snapshot.session.station ?? defaultStation
        do {
            return try connection.transaction {
                let existing = try connection.execute(
                    "SELECT revision, started_at FROM lab_session WHERE station = $1 AND id = $2 FOR UPDATE",
                    [.text(station), .text(snapshot.session.id)])
                if existing.count == 1 {
                    // Another session under the same station and id (a bench database replaced,
                    // an id drawn again in the same second) is never overwritten.
                    let startedAt = snapshot.session.startedAt.timeIntervalSince1970
                    if let stored = try existing.real(0, 1), abs(stored - startedAt) > 1e-6 {
                        throw LabStoreError.idCollision(reference: "\(station)/\(snapshot.session.id)", server: location)
                    }
                    if let stored = try existing.integer(0, 0), stored >= snapshot.revision { return .alreadyCurrent }
                }
                try connection.execute(
                    LabRows.sessionUpsert,
                    LabRows.sessionValues(snapshot.session, station: station, revision: snapshot.revision))
                try connection.execute(
                    "DELETE FROM lab_tap WHERE station = $1 AND session_id = $2", [.text(station), .text(snapshot.session.id)])
                try insertTaps(snapshot.taps, station: station)
                return .stored
            }
        } catch let error as PostgresError where error.isPermissionDenied {
            throw LabStoreError.unregisteredStation(station: station, role: connection.user, server: location)
        }
    }

    /// Multi-row inserts of at most 1,000 taps (17 parameters each; the protocol allows 65,535).
    private func insertTaps(_ taps: [TapRecord], station: String) throws {
        let width = LabRows.tapColumnNames.count
        var start = 0
        while start < taps.count {
            let chunk = taps[start..<min(start + 1000, taps.count)]
            var values: [PostgresValue] = []
            values.reserveCapacity(chunk.count * width)
            var tuples: [String] = []
            for (i, tap) in chunk.enumerated() {
                values += LabRows.tapValues(tap, station: station)
                tuples.append("(" + (1...width).map { "$\(i * width + $0)" }.joined(separator: ", ") + ")")
            }
            try connection.execute(
                "INSERT INTO lab_tap (\(LabRows.tapColumns)) VALUES " + tuples.joined(separator: ", "), values)
            start += chunk.count
        }
    }
}

extension PostgresLabStore {
    /// Whether this role may write sessions at all (a reader role may not).
    public func canPush() throws -> Bool {
        try connection.execute("SELECT has_table_privilege('lab_session', 'INSERT')").bool(0, 0) == true
    }
}
