import CLibPQ
import Foundation

/// The rows of one statement, copied out of libpq's result (which is freed at once), in
/// PostgreSQL's text form. Typed reads throw `PostgresError.result` naming the row and
/// column instead of guessing.
public struct PostgresRows: Sendable {
    public let columns: [String]
    public let rows: [[String?]]
    /// Rows a command changed (`INSERT`, `UPDATE`, `DELETE`), 0 for others.
    public let affected: Int
    let server: String

    /// Takes ownership of `result` (cleared here) and turns a failure into an error.
    static func take(
        _ result: OpaquePointer?, connection: OpaquePointer, server: String, _ pq: LibPQ
    ) throws(PostgresError) -> PostgresRows {
        guard let result else {
            let message = pq.text(pq.errorMessage(connection))
            throw PostgresError(
                kind: pq.status(connection) == CONNECTION_OK ? .statement : .connection, sqlState: nil, message: message,
                server: server)
        }
        defer { pq.clear(result) }
        switch pq.resultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
            break
        default:
            let state = pq.resultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
            let message = pq.text(pq.resultErrorMessage(result))
            let lost = pq.status(connection) != CONNECTION_OK
            throw PostgresError(kind: lost ? .connection : .statement, sqlState: state, message: message, server: server)
        }
        let width = Int(pq.nfields(result)), height = Int(pq.ntuples(result))
        let columns = (0..<width).map { pq.text(pq.fname(result, Int32($0))) }
        var rows: [[String?]] = []
        rows.reserveCapacity(height)
        for r in 0..<height {
            rows.append(
                (0..<width).map { c in
                    pq.getisnull(result, Int32(r), Int32(c)) == 1 ? nil : pq.text(pq.getvalue(result, Int32(r), Int32(c)))
                })
        }
        let affected = Int(pq.text(pq.cmdTuples(result))) ?? 0
        return PostgresRows(columns: columns, rows: rows, affected: affected, server: server)
    }

    public var count: Int { rows.count }

    func fail(_ row: Int, _ column: Int, _ expected: String) -> PostgresError {
        let name = column < columns.count ? columns[column] : "#\(column)"
        return PostgresError(
            kind: .result, sqlState: nil,
            message:
                "row \(row + 1), column '\(name)': expected \(expected), got \(rows[row][column].map { "'\($0)'" } ?? "NULL")",
            server: server)
    }

    public func text(_ row: Int, _ column: Int) -> String? { rows[row][column] }

    public func integer(_ row: Int, _ column: Int) throws(PostgresError) -> Int64? {
        guard let t = rows[row][column] else { return nil }
        guard let v = Int64(t) else { throw fail(row, column, "an integer") }
        return v
    }

    public func real(_ row: Int, _ column: Int) throws(PostgresError) -> Double? {
        guard let t = rows[row][column] else { return nil }
        guard let v = Double(t) else { throw fail(row, column, "a number") }
        return v
    }

    public func bool(_ row: Int, _ column: Int) throws(PostgresError) -> Bool? {
        guard let t = rows[row][column] else { return nil }
        switch t {
        case "t": return true
        case "f": return false
        default: throw fail(row, column, "a boolean")
        }
    }
}
