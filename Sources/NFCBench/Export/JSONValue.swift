import Foundation

/// A JSON value that keeps object keys in the order written and writes `null`
/// explicitly, so `--json` output is stable and documented field by field.
public indirect enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (a: JSONValue, b: JSONValue) -> Bool { a.serialized() == b.serialized() }

    public static func optional(_ s: String?) -> JSONValue { s.map(JSONValue.string) ?? .null }

    public func serialized(pretty: Bool = false) -> String {
        var out = ""
        write(into: &out, pretty: pretty, indent: 0)
        return out
    }

    private func write(into out: inout String, pretty: Bool, indent: Int) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .number(let d):
            if !d.isFinite {
                out += "null"
            } else if d == d.rounded(), abs(d) < 1e15 {
                out += String(Int(d))
            } else {
                out += String(d)
            }
        case .string(let s): Self.quote(s, into: &out)
        case .array(let items):
            if items.isEmpty { out += "[]"; return }
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                if pretty { out += "\n" + String(repeating: "  ", count: indent + 1) }
                item.write(into: &out, pretty: pretty, indent: indent + 1)
            }
            if pretty { out += "\n" + String(repeating: "  ", count: indent) }
            out += "]"
        case .object(let members):
            if members.isEmpty { out += "{}"; return }
            out += "{"
            for (i, (key, value)) in members.enumerated() {
                if i > 0 { out += "," }
                if pretty { out += "\n" + String(repeating: "  ", count: indent + 1) }
                Self.quote(key, into: &out)
                out += pretty ? ": " : ":"
                value.write(into: &out, pretty: pretty, indent: indent + 1)
            }
            if pretty { out += "\n" + String(repeating: "  ", count: indent) }
            out += "}"
        }
    }

    /// JSON text from another encoder with C1 and bidirectional controls written as
    /// `\uXXXX` (they can stand only inside strings), as `quote` writes them: the printed
    /// JSON then passes the terminal backstop untouched and reads back to the same value.
    public static func escapingHiddenCharacters(_ json: String) -> String {
        guard json.unicodeScalars.contains(where: isHidden) else { return json }
        var out = String.UnicodeScalarView()
        for scalar in json.unicodeScalars {
            if isHidden(scalar) {
                out.append(contentsOf: unicodeEscape(scalar).unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// `\u00XX` for a scalar of the Basic Multilingual Plane.
    private static func unicodeEscape(_ c: Unicode.Scalar) -> String {
        let hex = String(c.value, radix: 16)
        return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    }

    private static func isHidden(_ c: Unicode.Scalar) -> Bool {
        c.value == 0x7F || (0x80..<0xA0).contains(c.value) || (0x202A...0x202E).contains(c.value)
            || (0x2066...0x2069).contains(c.value)
    }

    private static func quote(_ s: String, into out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            // C0, DEL and C1 escaped: valid JSON either way, and a terminal showing raw
            // JSON never acts on a control sequence hidden in a value.
            // Bidirectional controls too: the process's terminal backstop would otherwise
            // rewrite them as `<U+202E>`, and the printed JSON would no longer round-trip.
            case let c where c.value < 0x20 || isHidden(c): out += unicodeEscape(c)
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
