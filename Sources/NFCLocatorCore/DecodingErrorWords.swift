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
