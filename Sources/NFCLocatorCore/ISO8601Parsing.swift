import Foundation

/// ISO 8601 in the forms catalogs actually contain: with or without fractional
/// seconds, or a bare date (taken as midnight UTC).
public enum ISO8601Parsing {
    public static func date(from text: String) -> Date? {
        if let d = wholeSecondsUTC(text) { return d }
        if let d = try? Date(text, strategy: .iso8601) { return d }
        if let d = try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) { return d }
        return try? Date(text, strategy: Date.ISO8601FormatStyle().year().month().day())
    }

    public static func string(from date: Date) -> String {
        date.formatted(.iso8601)
    }

    /// `YYYY-MM-DDTHH:MM:SSZ`, the form every catalog row's date takes, read by hand: the
    /// first use of Foundation's ISO 8601 parser cost `resolve` a twentieth of its run.
    /// Anything else, or an out-of-range field, is left to Foundation, so this path
    /// accepts only what Foundation accepts, with the same value.
    static func wholeSecondsUTC(_ text: String) -> Date? {
        let b = Array(text.utf8)
        guard b.count == 20, b[4] == 0x2D, b[7] == 0x2D, b[10] == 0x54, b[13] == 0x3A, b[16] == 0x3A, b[19] == 0x5A
        else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for i in range {
                guard b[i] >= 0x30, b[i] <= 0x39 else { return nil }
                value = value * 10 + Int(b[i] - 0x30)
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
            year >= 1970, (1...12).contains(month), hour < 24, minute < 60, second < 60
        else { return nil }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard day >= 1, day <= lengths[month - 1] else { return nil }
        // Days from 1970-01-01 to the civil date (proleptic Gregorian).
        let y = month <= 2 ? year - 1 : year
        let era = y / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + hour * 3600 + minute * 60 + second))
    }
}
