import Foundation

/// A `DecodingError` in the words of the JSON a person wrote: the field's path, what it
/// holds and what was expected, never Swift type names or error dumps.
public enum DecodingErrorWords {
    public static func describe(_ error: any Error) -> String {
        // Foundation's own JSON errors (a syntax error from JSONSerialization) carry type
        // names and positions in its terms: never shown raw (issue 49).
        guard let error = error as? DecodingError else { return "the text is not valid JSON" }
        switch error {
        case .keyNotFound(let key, let context):
            return "field '\(path(context.codingPath + [key]))' is missing"
        case .typeMismatch(let type, let context):
            return "field '\(path(context.codingPath))' is not \(word(for: type))"
        case .valueNotFound(let type, let context):
            return "field '\(path(context.codingPath))' is null, expected \(word(for: type))"
        case .dataCorrupted(let context):
            let detail = context.debugDescription
            if let range = detail.range(of: "Number "), let end = detail.range(of: " is not representable") {
                return "field '\(path(context.codingPath))' holds \(detail[range.upperBound..<end.lowerBound]), "
                    + "a number out of range"
            }
            return "field '\(path(context.codingPath))' is not valid (\(detail.trimmingCharacters(in: .punctuationCharacters)))"
        @unknown default:
            return "the data does not have the expected fields"
        }
    }

    /// Foundation's reader refuses a number no Double holds (`1e309`) with an error of
    /// its own, `numberIsNotRepresentableInSwift(parsed: "1e309")`, which names neither
    /// the field nor the row. This finds the field in the row `decoder` reads (the member
    /// that fails alike when read alone) and says it as a `DecodingError` would, so the
    /// row is skipped with "field 'entries[1].zoneX' holds 1e309, a number out of range".
    /// `nil` for any other error.
    static func numberOutOfRange(_ error: any Error, in decoder: any Decoder) -> DecodingError? {
        guard let literal = outOfRangeLiteral(error) else { return nil }
        var path = decoder.codingPath
        if let row = try? decoder.container(keyedBy: MemberName.self) {
            for key in row.allKeys {
                do { _ = try row.decode(Double.self, forKey: key) } catch  where outOfRangeLiteral(error) == literal {
                    path = row.codingPath + [key]
                    break
                } catch {}
            }
        }
        return .dataCorrupted(.init(codingPath: path, debugDescription: "Number \(literal) is not representable in Swift."))
    }

    private static func outOfRangeLiteral(_ error: any Error) -> String? {
        let text = String(describing: error)
        guard let start = text.range(of: "numberIsNotRepresentableInSwift(parsed: \""),
            let end = text.range(of: "\")", range: start.upperBound..<text.endIndex)
        else { return nil }
        return String(text[start.upperBound..<end.lowerBound])
    }

    /// Any member of an object, for finding the one that holds a number out of range.
    private struct MemberName: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// `entries[3].zoneX`; the document itself is `(top level)`.
    static func path(_ keys: [any CodingKey]) -> String {
        var text = ""
        for key in keys {
            if let i = key.intValue {
                text += "[\(i)]"
            } else {
                text += (text.isEmpty ? "" : ".") + key.stringValue
            }
        }
        return text.isEmpty ? "(top level)" : text
    }

    static func word(for type: Any.Type) -> String {
        let name = String(describing: type)
        if name.hasPrefix("Array") { return "a list" }
        if name.hasPrefix("Dictionary") { return "an object" }
        switch name {
        case "String": return "text"
        case "Bool": return "true or false"
        case "Double", "Float", "Int", "Int64", "UInt8", "Int32": return "a number"
        default: return "the expected kind of value"
        }
    }
}
