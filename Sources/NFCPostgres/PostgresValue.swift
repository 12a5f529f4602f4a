import Foundation

/// A statement parameter, sent in PostgreSQL's text form; `.null` is SQL NULL.
public enum PostgresValue: Sendable, Equatable {
    case null
    case text(String)
    case integer(Int64)
    /// Sent with the shortest decimal form that reads back as the same bits, so a value
    /// round-trips exactly through a `double precision` column.
    case real(Double)
    case bool(Bool)

    /// The text form sent to the server (`nil` for SQL NULL), also what a JSON document of
    /// values carries (a `jsonb_populate_record` argument).
    public var text: String? {
        switch self {
        case .null: nil
        case .text(let s): s
        case .integer(let i): String(i)
        case .real(let d): d.isFinite ? "\(d)" : (d.isNaN ? "NaN" : d > 0 ? "Infinity" : "-Infinity")
        case .bool(let b): b ? "t" : "f"
        }
    }

    public static func optional(_ s: String?) -> PostgresValue { s.map(PostgresValue.text) ?? .null }
    public static func optional(_ d: Double?) -> PostgresValue { d.map(PostgresValue.real) ?? .null }
}
