import Foundation

/// `%.Nf` for reports and terminals without Foundation's formatter: `String(format:)`
/// goes through C varargs and runtime protocol casts, which cost a one-shot command
/// (`poll`) a tenth of its start-up, and a million-row export far more.
public enum FixedPoint {
    /// `value` with `digits` decimals (0...9), rounded as printf rounds; "" for nil, NaN or
    /// infinity.
    public static func format(_ value: Double?, _ digits: Int) -> String {
        precondition((0...9).contains(digits), "FixedPoint formats 0...9 decimals")
        guard let value, value.isFinite else { return "" }
        let scale = digits == 4 ? 10_000.0 : digits == 1 ? 10.0 : pow(10, Double(digits))
        let x = abs(value) * scale
        // Beyond exact integers, or near a half (where scaling has already rounded and
        // printf rounds the exact binary value), let printf decide.
        guard x < 9.0e15, abs(x - x.rounded(.down) - 0.5) >= 1e-6 else { return String(format: "%.\(digits)f", value) }
        let scaled = Int(x.rounded())
        let unit = Int(scale)
        let whole = scaled / unit
        guard digits > 0 else { return (value < 0 && scaled != 0 ? "-" : "") + String(whole) }
        let fraction = String(scaled % unit)
        return (value < 0 && scaled != 0 ? "-" : "") + "\(whole)." + String(repeating: "0", count: digits - fraction.count)
            + fraction
    }

    /// `format(value, digits)` appended to `bytes` as UTF-8, the common case without any
    /// String: the export writes four of these per row.
    static func append(_ value: Double?, _ digits: Int, to bytes: inout [UInt8]) {
        guard let value, value.isFinite else { return }
        let scale = digits == 4 ? 10_000.0 : digits == 1 ? 10.0 : digits == 3 ? 1000.0 : pow(10, Double(digits))
        let x = abs(value) * scale
        guard digits > 0, x < 9.0e15, abs(x - x.rounded(.down) - 0.5) >= 1e-6 else {
            bytes.append(contentsOf: format(value, digits).utf8)
            return
        }
        let scaled = Int(x.rounded())
        let unit = Int(scale)
        if value < 0 && scaled != 0 { bytes.append(UInt8(ascii: "-")) }
        CSVFormat.appendDecimal(scaled / unit, to: &bytes)
        bytes.append(UInt8(ascii: "."))
        var fraction = scaled % unit, divisor = unit / 10
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(fraction / divisor))
            fraction %= divisor
            divisor /= 10
        }
    }
}
