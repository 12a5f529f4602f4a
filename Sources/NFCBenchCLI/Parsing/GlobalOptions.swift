/// Options every command accepts, before or after the command's name.
enum GlobalOptions {
    static let noColor = Flag("--no-color", help: "Never colour the output (also: NO_COLOR=1, TERM=dumb).")
    static let verbose = Flag(
        "--verbose",
        help:
            "Print libnfc's full log (otherwise its lines go to library.log in the state folder; its errors still reach you as messages)."
    )
    static let all = [noColor, verbose]
}

/// Value conversions shared by options: each accepts only what it names, and every
/// number is finite and inside a stated range, so nothing downstream can overflow.
enum OptionValue {
    /// Seconds within `range`, written as a plain decimal number.
    static func seconds(in range: ClosedRange<Double>) -> @Sendable (String) -> Double? {
        { text in Double(text).flatMap { $0.isFinite && range.contains($0) ? $0 : nil } }
    }

    static func number(in range: ClosedRange<Double>) -> @Sendable (String) -> Double? {
        { text in Double(text).flatMap { $0.isFinite && range.contains($0) ? $0 : nil } }
    }

    static func whole(in range: ClosedRange<Int>) -> @Sendable (String) -> Int? {
        { text in Int(text).flatMap { range.contains($0) ? $0 : nil } }
    }

    static func choice<T: RawRepresentable & Sendable>(_ type: T.Type) -> @Sendable (String) -> T? where T.RawValue == String {
        { T(rawValue: $0) }
    }

    static func describe(_ range: ClosedRange<Double>) -> String {
        "\(format(range.lowerBound))...\(format(range.upperBound))"
    }

    static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
