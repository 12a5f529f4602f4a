import Foundation
import NFCBenchRecords
import NFCStore

/// Reads one row's columns as the values they mean, throwing `RecordDecodingError`
/// (naming table, column, row and value) for anything out of range, of the wrong type
/// or not finite. Never traps, never substitutes a default.
struct StoredValues {
    let statement: SQLiteStatement
    let table: String
    var row: String
    /// A tap's place in its session, named in errors after `row` (the session): kept as
    /// numbers and spelt out only for an error, never for each of a million good rows.
    var tapPosition: (step: Int, attempt: Int)?

    func fail(_ column: (Int32, String), expected: String) -> RecordDecodingError {
        let name = tapPosition.map { "\(row) step \($0.step) attempt \($0.attempt)" } ?? row
        return RecordDecodingError(table: table, column: column.1, row: name, value: describe(column.0), expected: expected)
    }

    func describe(_ index: Int32) -> String {
        switch statement.type(index) {
        case .null: "NULL"
        case .integer: String(statement.int(index))
        case .real: String(statement.double(index))
        case .text: "'" + String((statement.text(index) ?? "").prefix(80)) + "'"
        case .blob: "a blob of \(statement.blob(index).count) bytes"
        }
    }

    func text(_ c: (Int32, String)) throws(RecordDecodingError) -> String {
        try text(c, type: statement.type(c.0))
    }

    private func text(_ c: (Int32, String), type: SQLiteStatement.ColumnType) throws(RecordDecodingError) -> String {
        guard type == .text, let value = statement.text(c.0) else { throw fail(c, expected: "text") }
        return value
    }

    /// The column's type is asked once: a million-row read asks it for six text columns
    /// a row.
    func optionalText(_ c: (Int32, String)) throws(RecordDecodingError) -> String? {
        let type = statement.type(c.0)
        return type == .null ? nil : try text(c, type: type)
    }

    func integer(_ c: (Int32, String), in range: ClosedRange<Int64>) throws(RecordDecodingError) -> Int {
        guard statement.type(c.0) == .integer, range.contains(statement.int(c.0)) else {
            throw fail(c, expected: "a whole number in \(range.lowerBound)...\(range.upperBound)")
        }
        return Int(statement.int(c.0))
    }

    func bool(_ c: (Int32, String)) throws(RecordDecodingError) -> Bool {
        try integer(c, in: 0...1) == 1
    }

    /// A finite number in `range`; SQLite may hand back a whole number for a REAL column.
    func number(_ c: (Int32, String), in range: ClosedRange<Double>) throws(RecordDecodingError) -> Double {
        try number(c, in: range, type: statement.type(c.0))
    }

    private func number(
        _ c: (Int32, String), in range: ClosedRange<Double>, type: SQLiteStatement.ColumnType
    ) throws(RecordDecodingError) -> Double {
        let value = statement.double(c.0)
        guard type == .real || type == .integer, value.isFinite, range.contains(value) else {
            throw fail(c, expected: "a finite number in \(range.lowerBound)...\(range.upperBound)")
        }
        return value
    }

    func optionalNumber(_ c: (Int32, String), in range: ClosedRange<Double>) throws(RecordDecodingError) -> Double? {
        let type = statement.type(c.0)
        return type == .null ? nil : try number(c, in: range, type: type)
    }

    func date(_ c: (Int32, String)) throws(RecordDecodingError) -> Date {
        Date(timeIntervalSince1970: try number(c, in: StoredRanges.instants))
    }

    func optionalDate(_ c: (Int32, String)) throws(RecordDecodingError) -> Date? {
        statement.type(c.0) == .null ? nil : try date(c)
    }

    func name<T: RawRepresentable & CaseIterable>(_ c: (Int32, String), as: T.Type) throws(RecordDecodingError) -> T
    where T.RawValue == String {
        guard let value = T(rawValue: try text(c)) else {
            throw fail(c, expected: "one of " + T.allCases.map(\.rawValue).joined(separator: ", "))
        }
        return value
    }

    func optionalName<T: RawRepresentable & CaseIterable>(_ c: (Int32, String), as type: T.Type) throws(RecordDecodingError) -> T?
    where T.RawValue == String {
        statement.type(c.0) == .null ? nil : try name(c, as: type)
    }
}
