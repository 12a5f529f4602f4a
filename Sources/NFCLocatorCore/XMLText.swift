/// Text safe inside XML and HTML elements and attribute values. Characters XML 1.0 does
/// not allow (control codes, lone surrogates cannot occur in a Swift String) are shown in
/// caret notation (`ESC` as `^[`), so a hostile name cannot make the document unparseable
/// and a reader still sees what it held. Bidirectional controls
/// (U+202A-U+202E, U+2066-U+2069) are shown as `<U+202E>`, never applied: a browser would
/// otherwise draw the text after them reversed.
public enum XMLText {
    public static func escape(_ s: String) -> String {
        // Most text (names, numbers, words) is printable ASCII without markup characters:
        // returned as it is, without building a new string a scalar at a time (a JUnit or
        // HTML report of a million taps escapes tens of millions of characters).
        if s.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != 0x26 && $0 != 0x3C && $0 != 0x3E && $0 != 0x22 && $0 != 0x27 }) {
            return s
        }
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for scalar in s.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            default:
                let v = scalar.value
                if (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v) {
                    out += "&lt;U+\(String(v, radix: 16, uppercase: true))&gt;"
                    continue
                }
                // Shown, as a terminal shows them (caret notation), never dropped: a reader
                // of the report sees that the name held an escape (issue 49).
                if v < 0x20 { out += "^" + String(Unicode.Scalar(UInt8(v + 0x40))); continue }
                if v == 0x7F { out += "^?"; continue }
                if (0x80...0x9F).contains(v) { out += "^[" + String(Unicode.Scalar(UInt8(v - 0x40))); continue }
                if v == 0xFFFE || v == 0xFFFF { out += "&lt;U+\(String(v, radix: 16, uppercase: true))&gt;"; continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
