import Foundation
import NFCBenchRecords
import NFCPostgres

/// The write side a bench uses: pushing a whole session in one transaction.
extension PostgresLabStore: LabSyncDestination {
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

    /// Stores the session, its taps and its events exactly as `snapshot` holds them, replacing any
    /// earlier revision, through `nfcbench_push` (migrations 005 and 006, `PushFunctions`): the row
    /// upserted, its taps deleted and inserted again, in the one statement's transaction.
    /// Repeating a push changes nothing; a push killed midway leaves the previous revision
    /// whole. The role itself may not write the tables.
    public func push(_ snapshot: SyncSnapshot, station defaultStation: String) throws -> PushOutcome {
        let station = snapshot.session.station ?? defaultStation
        let session = PushFunctions.object(
            columns: LabRows.names(LabRows.sessionColumns) + ["revision"],
            values: LabRows.sessionValues(snapshot.session, station: station, revision: snapshot.revision))
        let taps = snapshot.taps.map {
            PushFunctions.object(columns: LabRows.tapColumnNames, values: LabRows.tapValues($0, station: station))
        }
        let events = snapshot.events.map {
            PushFunctions.object(columns: LabRows.eventColumnNames, values: LabRows.eventValues($0, station: station))
        }
        let answer: PostgresRows
        do {
            answer = try connection.execute(
                "SELECT nfcbench_push($1, $2::jsonb, $3::jsonb, $4::jsonb)",
                [
                    .text(station), .text(try PushFunctions.json(session)), .text(try PushFunctions.json(taps)),
                    .text(try PushFunctions.json(events)),
                ])
        } catch let error as PostgresError where error.isPermissionDenied {
            throw LabStoreError.unregisteredStation(station: station, role: connection.user, server: location)
        } catch let error as PostgresError where error.sqlState == PushFunctions.idCollisionState {
            // Another session under the same station and id (a bench database replaced, an
            // id drawn again in the same second) is never overwritten.
            throw LabStoreError.idCollision(reference: "\(station)/\(snapshot.session.id)", server: location)
        }
        return answer.text(0, 0) == "current" ? .alreadyCurrent : .stored
    }
}

extension PostgresLabStore {
    /// Whether this role may write sessions at all (a reader role may not).
    public func canPush() throws -> Bool {
        try connection.execute("SELECT has_function_privilege('nfcbench_push(text, jsonb, jsonb, jsonb)', 'EXECUTE')").bool(0, 0)
            == true
    }
}
