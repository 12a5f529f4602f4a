/// Hex text for byte arrays, the form readers and APDU logs use: `08A1B2C3`.
public enum Hex {
    public static func string(_ bytes: some Sequence<UInt8>, separator: String = "") -> String {
        bytes.map { byte in
            let digits = Array("0123456789ABCDEF")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
        }.joined(separator: separator)
    }

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
