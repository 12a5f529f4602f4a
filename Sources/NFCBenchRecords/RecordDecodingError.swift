/// A stored value that is not what its column means: out of range, of the wrong type,
/// not finite, or an unknown name. Names where it is, so the operator can find the row
/// (and `sqlite3 .recover` or a hand edit can mend it); a bad row is never turned into
/// another value.
public struct RecordDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    public let table: String
    public let column: String
    /// The row's key as the store knows it, e.g. `S-20261129-163234-4fb5` or `S-...#3.0`.
    public let row: String
    /// The stored value as text (`NULL` for a missing one).
    public let value: String
    /// What the column accepts.
    public let expected: String

    public init(table: String, column: String, row: String, value: String, expected: String) {
        self.table = table
        self.column = column
        self.row = row
        self.value = value
        self.expected = expected
    }

    public var description: String {
        "\(table).\(column) of row \(row) holds \(value), expected \(expected)"
    }
}
