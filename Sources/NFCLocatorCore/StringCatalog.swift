import Foundation

/// Reads an Xcode String Catalog (`.xcstrings`, JSON) so the same strings file serves
/// Apple platforms and Linux. Only `stringUnit` values are used; plural variations fall
/// back to their `other` form.
public struct StringCatalog: Sendable {
    public let sourceLanguage: String
    private let table: [String: [String: String]]  // key -> language -> value

    public init(table: [String: [String: String]], sourceLanguage: String = "en") {
        self.table = table
        self.sourceLanguage = sourceLanguage
    }

    public static func load(contentsOf url: URL) throws -> StringCatalog {
        try parse(Data(contentsOf: url))
    }

    /// A strings file that is not a String Catalog.
    public struct FormatError: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// Read from a tree by hand rather than through `Decodable`, for the same start-up
    /// reason as the catalogs (`JSONTree`).
    public static func parse(_ data: Data) throws -> StringCatalog {
        guard case .object(let file) = try JSONTree.parse(data),
            case .string(let sourceLanguage)? = file["sourceLanguage"],
            case .object(let strings)? = file["strings"]
        else { throw FormatError(description: "not a String Catalog: no sourceLanguage and strings") }
        var table: [String: [String: String]] = [:]
        for string in strings.members {
            var values: [String: String] = [:]
            if case .object(let localizations)? = string.value.member("localizations") {
                for localization in localizations.members {
                    let value = localization.value
                    if case .string(let text)? = value.member("stringUnit")?.member("value")
                        ?? value.member("variations")?.member("plural")?.member("other")?.member("stringUnit")?
                        .member("value")
                    {
                        values[localization.name] = text
                    }
                }
            }
            table[string.name] = values
        }
        return StringCatalog(table: table, sourceLanguage: sourceLanguage)
    }

    public var keys: [String] { table.keys.sorted() }

    /// The string for `key` in `language` (else the source language), with `%@` and
    /// `%lld` placeholders filled in order. A missing key returns the key itself, which
    /// is visible in output and caught by the strings test.
    public func string(_ key: String, _ arguments: String..., language: String? = nil) -> String {
        let values = table[key]
        guard let template = values?[language ?? sourceLanguage] ?? values?[sourceLanguage] else { return key }
        var result = ""
        var remaining = arguments[...]
        var rest = template[...]
        while let range = rest.range(of: "%") {
            result += rest[..<range.lowerBound]
            let after = rest[range.upperBound...]
            if after.hasPrefix("@") || after.hasPrefix("lld") {
                result += remaining.popFirst() ?? ""
                rest = after.dropFirst(after.hasPrefix("@") ? 1 : 3)
            } else if after.hasPrefix("%") {
                result += "%"
                rest = after.dropFirst()
            } else {
                result += "%"
                rest = after
            }
        }
        return result + rest
    }
}
