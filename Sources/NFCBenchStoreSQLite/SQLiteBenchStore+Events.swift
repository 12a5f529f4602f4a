import Foundation
import NFCBenchRecords
import NFCStore

/// A session's audit trail (migration 010's `session_event`): appended one event at a
/// time, each durable and sealed with a checksum like a tap.
extension SQLiteBenchStore {
    @discardableResult
    public func record(_ event: SessionEvent) throws -> SessionEvent {
        try database.transaction {
            let next = try database.prepare(
                "SELECT coalesce(max(sequence) + 1, 0) FROM session_event WHERE session_id = ?1")
            try next.bind([.text(event.sessionID)])
            var stored = event
            stored.sequence = try next.step() ? Int(next.int(0)) : 0
            let values = EventRows.values(stored)
            try database.prepare(
                """
                INSERT INTO session_event (session_id, sequence, at, kind, step, details, checksum)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
                """
            ).run(values + [.integer(RowChecksum.of(values))])
            return stored
        }
    }

    public func events(_ sessionID: String) throws -> [SessionEvent] {
        let statement = try database.prepare(EventRows.select + " WHERE session_id = ?1 ORDER BY sequence")
        try statement.bind([.text(SessionReference(parsing: sessionID).id)])
        var out: [SessionEvent] = []
        while try statement.step() { out.append(try EventRows.event(from: statement)) }
        return out
    }
}

/// Event rows: the columns in the order `select` lists them, and their validated decoding.
enum EventRows {
    static let select = "SELECT session_id, sequence, at, kind, step, details, checksum FROM session_event"

    static func values(_ e: SessionEvent) -> [SQLiteStatement.Value] {
        [
            .text(e.sessionID), .integer(Int64(e.sequence)), .real(e.at.timeIntervalSince1970), .text(e.kind.rawValue),
            e.step.map { .integer(Int64($0)) } ?? .null, .text(e.storedDetails),
        ]
    }

    static func event(from s: SQLiteStatement) throws(RecordDecodingError) -> SessionEvent {
        var v = StoredValues(statement: s, table: "session_event", row: "?")
        let sessionID = try v.text((0, "session_id"))
        let sequence = try v.integer((1, "sequence"), in: StoredRanges.eventSequence)
        v.row = "\(sessionID) event \(sequence)"
        guard let details = SessionEvent.details(stored: try v.text((5, "details"))) else {
            throw v.fail((5, "details"), expected: "a JSON object of strings")
        }
        let step: Int? = s.type(4) == .null ? nil : try v.integer((4, "step"), in: StoredRanges.step)
        let event = SessionEvent(
            sessionID: sessionID, sequence: sequence, at: try v.date((2, "at")),
            kind: try v.name((3, "kind"), as: SessionEvent.Kind.self), step: step, details: details)
        let stored = try v.integer((6, "checksum"), in: Int64.min...Int64.max)
        guard RowChecksum.of((0..<6).map { s.value(Int32($0)) }) == Int64(stored) else {
            throw v.fail((6, "checksum"), expected: "the checksum of the row's values: the row changed after it was written")
        }
        return event
    }
}
