import Foundation
import Testing

@testable import NFCLocatorCore

/// XML escaping: text with nothing to change comes back as it is (the fast path); anything
/// else is escaped, controls shown in caret notation (issue 49: they were dropped) and
/// bidirectional controls and noncharacters shown as `<U+...>`.
@Suite("XML text")
struct XMLTextTests {
    /// The rules spelled out a scalar at a time, to hold the fast path to.
    static func reference(_ s: String) -> String {
        var out = ""
        for c in s.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\t", "\n", "\r": out.unicodeScalars.append(c)
            default:
                if (0x202A...0x202E).contains(c.value) || (0x2066...0x2069).contains(c.value) || c.value == 0xFFFE
                    || c.value == 0xFFFF
                {
                    out += "&lt;U+\(String(c.value, radix: 16, uppercase: true))&gt;"
                } else if c.value < 0x20 {
                    out += "^" + String(UnicodeScalar(UInt8(c.value + 64)))
                } else if c.value == 0x7F {
                    out += "^?"
                } else if (0x80...0x9F).contains(c.value) {
                    out += "^[" + String(UnicodeScalar(UInt8(c.value - 64)))
                } else {
                    out.unicodeScalars.append(c)
                }
            }
        }
        return out
    }

    @Test func everyStringEscapesAsTheRulesSay() {
        let alphabet: [Unicode.Scalar] = [
            "a", "Z", "0", " ", "-", "~", "&", "<", ">", "\"", "'", "\t", "\n", "\u{1B}", "\u{07}", "\u{7F}", "\u{85}",
            "é", "\u{202E}", "\u{2066}", "\u{FFFE}", "😀", "\u{0301}",
        ]
        var generator = SplitMix(seed: 7)
        for _ in 0..<20_000 {
            var s = String.UnicodeScalarView()
            for _ in 0..<Int(generator.next() % 12) { s.append(alphabet[Int(generator.next() % UInt64(alphabet.count))]) }
            let text = String(s)
            #expect(XMLText.escape(text) == Self.reference(text), "\(text.debugDescription)")
        }
        #expect(
            XMLText.escape("SM-S921B position 3 (81 mm below the top edge)") == "SM-S921B position 3 (81 mm below the top edge)")
        #expect(XMLText.escape("O'Brien & <Sons>") == "O&#39;Brien &amp; &lt;Sons&gt;")
    }
}
