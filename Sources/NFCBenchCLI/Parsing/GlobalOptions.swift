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
        { text in decimal(text).flatMap { range.contains($0) ? $0 : nil } }
    }

    static func number(in range: ClosedRange<Double>) -> @Sendable (String) -> Double? {
        { text in decimal(text).flatMap { range.contains($0) ? $0 : nil } }
    }

    /// A plain decimal number (`5`, `0.25`, `-3`, `.5`, `1e2`): what every number option
    /// takes, as whole-number options do. `Double(_:)` alone also read `0x10` as 16, `inf`
    /// and `nan`, so `--tap-timeout 0x10` was taken where `--repeats 0x10` was refused.
    static func decimal(_ text: String) -> Double? {
        guard
            text.utf8.allSatisfy({
                (0x30...0x39).contains($0) || $0 == 0x2E || $0 == 0x2D || $0 == 0x2B || $0 == 0x65 || $0 == 0x45
            }),
            text.utf8.contains(where: { (0x30...0x39).contains($0) }), let value = Double(text), value.isFinite
        else { return nil }
        return value
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
