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

    public static func parse(_ data: Data) throws -> StringCatalog {
        let file = try JSONDecoder().decode(File.self, from: data)
        var table: [String: [String: String]] = [:]
        for (key, entry) in file.strings {
            var values: [String: String] = [:]
            for (language, localization) in entry.localizations ?? [:] {
                if let value = localization.stringUnit?.value ?? localization.variations?.plural?["other"]?.stringUnit.value {
                    values[language] = value
                }
            }
            table[key] = values
        }
        return StringCatalog(table: table, sourceLanguage: file.sourceLanguage)
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

    private struct File: Decodable {
        let sourceLanguage: String
        let strings: [String: Entry]
    }
    private struct Entry: Decodable { let localizations: [String: Localization]? }
    private struct Localization: Decodable {
        let stringUnit: Unit?
        let variations: Variations?
    }
    private struct Variations: Decodable { let plural: [String: Variant]? }
    private struct Variant: Decodable { let stringUnit: Unit }
    private struct Unit: Decodable { let value: String }
}
