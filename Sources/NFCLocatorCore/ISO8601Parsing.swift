import Foundation

/// ISO 8601 in the forms catalogs actually contain: with or without fractional
/// seconds, or a bare date (taken as midnight UTC).
public enum ISO8601Parsing {
    public static func date(from text: String) -> Date? {
        if let d = try? Date(text, strategy: .iso8601) { return d }
        if let d = try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) { return d }
        return try? Date(text, strategy: Date.ISO8601FormatStyle().year().month().day())
    }

    public static func string(from date: Date) -> String {
        date.formatted(.iso8601)
    }
}
