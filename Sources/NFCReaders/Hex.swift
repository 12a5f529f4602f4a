/// Hex text for byte arrays, the form readers and APDU logs use: `08A1B2C3`.
public enum Hex {
    /// Written as UTF-8 bytes: a poll prints a UID just after the reader answers, and the
    /// generic `map` and `joined` this used cost a scan of every protocol conformance in
    /// the program the first time (docs/performance.md).
    public static func string(_ bytes: some Sequence<UInt8>, separator: String = "") -> String {
        string(Array(bytes), separator: separator)
    }

    /// The same for an array, without the generic sequence's first-use lookups.
    public static func string(_ bytes: [UInt8], separator: String = "") -> String {
        let gap = Array(separator.utf8)
        var utf8: [UInt8] = []
        utf8.reserveCapacity(bytes.underestimatedCount * (2 + gap.count))
        for byte in bytes {
            if !utf8.isEmpty { utf8 += gap }
            utf8.append(digit(byte >> 4))
            utf8.append(digit(byte & 0x0F))
        }
        return String(decoding: utf8, as: UTF8.self)
    }

    /// The upper-case ASCII digit of a nibble (0...15).
    private static func digit(_ nibble: UInt8) -> UInt8 { nibble < 10 ? 0x30 + nibble : 0x37 + nibble }

    /// Parses `08 a1 b2`, `08:A1:B2` or `08a1b2`; `nil` for anything else.
    public static func bytes(_ text: String) -> [UInt8]? {
        let digits = text.filter { !" :-".contains($0) }
        guard digits.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        var index = digits.startIndex
        while index < digits.endIndex {
            let next = digits.index(index, offsetBy: 2)
            guard let byte = UInt8(digits[index..<next], radix: 16) else { return nil }
            out.append(byte)
            index = next
        }
        return out
    }
}

extension Duration {
    /// The duration in seconds, as a Double (for timers and display).
    public var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
