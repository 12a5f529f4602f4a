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

    /// The file as `Decodable` reads it: only what the table needs.
    private struct File: Decodable {
        struct Unit: Decodable { let value: String }
        struct PluralForm: Decodable { let stringUnit: Unit? }
        struct Plural: Decodable { let other: PluralForm? }
        struct Variations: Decodable { let plural: Plural? }
        struct Localization: Decodable {
            let stringUnit: Unit?
            let variations: Variations?
            var value: String? { stringUnit?.value ?? variations?.plural?.other?.stringUnit?.value }
        }
        struct Entry: Decodable { let localizations: [String: Localization]? }
        let sourceLanguage: String
        let strings: [String: Entry]
    }

    public static func parse(_ data: Data) throws -> StringCatalog {
        let file: File
        do { file = try JSONDecoder().decode(File.self, from: data) } catch {
            throw FormatError(description: "not a String Catalog: \(DecodingErrorWords.describe(error))")
        }
        return StringCatalog(
            table: file.strings.mapValues { ($0.localizations ?? [:]).compactMapValues(\.value) },
            sourceLanguage: file.sourceLanguage)
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
