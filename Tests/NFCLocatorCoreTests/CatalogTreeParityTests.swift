import Foundation
import Testing

@testable import NFCLocatorCore

/// `CatalogDocumentDecoder` reads strict JSON as a tree and picks fields by hand; anything
/// else still goes through `JSONDecoder`. These hold the two readers to the same results
/// and the same reasons, row for row.
@Suite("The tree reader and JSONDecoder read catalogs alike")
struct CatalogTreeParityTests {
    static let good = #"""
        {"modelIdentifier":"SM-S921B","manufacturer":"Samsung","displayName":"Galaxy S24","formFactor":"phone",
         "aspectRatio":0.4803,"zoneX":0.1,"zoneY":0.36,"zoneWidth":0.8,"zoneHeight":0.38,"silhouetteTemplateId":"s"}
        """#

    /// `good` with `member` replaced by `value` (raw JSON text), or removed when `nil`.
    static func row(_ member: String, _ value: String?) -> String {
        var object = try! JSONSerialization.jsonObject(with: Data(good.utf8)) as! [String: Any]
        object.removeValue(forKey: member)
        var text = String(decoding: try! JSONSerialization.data(withJSONObject: object, options: .sortedKeys), as: UTF8.self)
        if let value { text = "{\"\(member)\":\(value)," + text.dropFirst() }
        return text
    }

    static let rows: [String] = {
        var rows = [good, "null", "3", "\"text\"", "[]", "{}"]
        let fields = [
            "modelIdentifier", "manufacturer", "displayName", "formFactor", "foldState", "screenSizeClass",
            "aspectRatio", "zoneX", "zoneY", "zoneWidth", "zoneHeight", "silhouetteTemplateId", "verified",
            "lastVerifiedAt", "bodyWidthMm", "bodyHeightMm", "zoneProvenance", "provenance",
        ]
        for field in fields {
            for value in [
                nil, "null", "\"NaN\"", "\"Infinity\"", "\"-Infinity\"", "\"wide\"", "-1.5e2", "7", "true", "[1]", "{\"a\":1}",
            ] {
                rows.append(row(field, value))
            }
        }
        rows.append(row("displayName", #""Gal\u00e1xy \"S24\" \ud83d\ude00 \/ \\ \n""#))
        rows.append(row("futureField", #"{"deep":[[[{"x":null}]]],"n":1e300}"#))
        // A published entry's provenance (`catalog publish`), whole and broken in each part.
        let interval = #"{"value":35.3,"low":34.1,"high":36.0}"#
        let coil = #"{"centreXMm":\#(interval),"centreYMm":\#(interval),"widthMm":\#(interval),"heightMm":\#(interval)}"#
        for provenance in [
            #"{"method":"bench-refined","sessions":4,"units":2,"readerAntennas":[{"widthMm":20,"heightMm":20}],"coil":\#(coil),"lastSession":"B3","lastSessionAt":"2026-11-02T10:00:00Z"}"#,
            #"{"method":"inferred"}"#, #"{"sessions":4}"#, #"{"method":"bench-refined","sessions":4.5}"#,
            #"{"method":"bench-refined","sessions":"4"}"#, #"{"method":"x","readerAntennas":[{"widthMm":20}]}"#,
            #"{"method":"x","readerAntennas":{"widthMm":20}}"#, #"{"method":"x","coil":{"centreXMm":\#(interval)}}"#,
            #"{"method":"x","coil":{"centreXMm":{"value":1,"low":"a","high":2},"centreYMm":\#(interval),"widthMm":\#(interval),"heightMm":\#(interval)}}"#,
            #"{"method":"x","units":4.0}"#,
        ] {
            rows.append(row("provenance", provenance))
        }
        return rows
    }()

    /// Only what differs, so a failure names the rows rather than printing both documents.
    static func differences(_ a: CatalogResponseDTO, _ b: CatalogResponseDTO) -> [String] {
        let skippedA = Dictionary(uniqueKeysWithValues: a.undecodableRows.map { ($0.index, $0.reason) })
        let skippedB = Dictionary(uniqueKeysWithValues: b.undecodableRows.map { ($0.index, $0.reason) })
        return Set(skippedA.keys).union(skippedB.keys).sorted().compactMap { index in
            skippedA[index] == skippedB[index]
                ? nil : "row \(index): tree '\(skippedA[index] ?? "kept")', JSONDecoder '\(skippedB[index] ?? "kept")'"
        } + (a.entries.count == b.entries.count ? [] : ["\(a.entries.count) rows kept against \(b.entries.count)"])
    }

    static func foundation(_ text: String) throws -> CatalogResponseDTO {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        return try decoder.decode(CatalogResponseDTO.self, from: Data(text.utf8))
    }

    /// Equal documents, where NaN equals NaN (the rows that hold it are still rows).
    static func same(_ a: CatalogResponseDTO, _ b: CatalogResponseDTO) -> Bool {
        func text(_ d: CatalogResponseDTO) -> String {
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            encoder.nonConformingFloatEncodingStrategy = .convertToString(
                positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
            return String(decoding: try! encoder.encode(d), as: UTF8.self)
        }
        return text(a) == text(b) && a.undecodableRows == b.undecodableRows
            && (0..<a.entries.count).map(a.documentIndex(ofEntryAt:)) == (0..<b.entries.count).map(b.documentIndex(ofEntryAt:))
    }

    @Test func everyRowIsReadAndSkippedAlike() throws {
        let text = "{\"version\":\"t\",\"entries\":[\(Self.rows.joined(separator: ","))]}"
        let tree = try CatalogDocumentDecoder.decode(Data(text.utf8), origin: "t")
        let reference = try Self.foundation(text)
        #expect(Self.same(tree, reference), "\(Self.differences(tree, reference))")
        // The battery reaches both outcomes and every kind of reason.
        #expect(
            tree.entries.count > 40 && tree.undecodableRows.count > 100, "\(tree.entries.count) \(tree.undecodableRows.count)")
        let reasons = Set(tree.undecodableRows.map(\.reason))
        for phrase in ["is missing", "is null, expected text", "is not text", "is not a number", "is not true or false"] {
            #expect(reasons.contains { $0.contains(phrase) }, "\(phrase)")
        }
        #expect(tree.entries.contains { $0.displayName == "Gal\u{e1}xy \"S24\" \u{1F600} / \\ \n" })
    }

    @Test(arguments: [
        #"{"version":3,"entries":[]}"#, #"{"version":3.5,"entries":[]}"#, #"{"version":null,"entries":[]}"#,
        #"{"version":true,"entries":[]}"#, #"{"entries":[]}"#, #"{"version":"v","generatedAt":"2026-01-01","entries":[]}"#,
        #"{"version":"v","generatedAt":null,"entries":[]}"#,
    ])
    func documentsReadAlike(text: String) throws {
        #expect(Self.same(try CatalogDocumentDecoder.decode(Data(text.utf8), origin: "t"), try Self.foundation(text)))
    }

    @Test(arguments: [
        #"{"version":"v"}"#, #"{"version":"v","entries":null}"#, #"{"version":"v","entries":{}}"#,
        #"{"version":"v","generatedAt":5,"entries":[]}"#, "[]", "3", "null",
    ])
    func nonCatalogsAreRefusedAlike(text: String) {
        #expect(throws: (any Error).self) { try Self.foundation(text) }
        #expect {
            try CatalogDocumentDecoder.decode(Data(text.utf8), origin: "t")
        } throws: { error in
            (error as? CatalogDocumentError)?.kind == .notACatalog
        }
    }

    @Test func aTrailingCommaStillGoesToFoundation() throws {
        let text = "{\"version\":\"t\",\"entries\":[\(Self.good),]}"
        #expect(try CatalogDocumentDecoder.decode(Data(text.utf8), origin: "t").entries.count == 1)
    }

    /// Foundation skips such a row too, but words it `numberIsNotRepresentableInSwift(...)`.
    @Test func aNumberNoDoubleHoldsSkipsOnlyItsRowAndSaysWhichField() throws {
        let text = "{\"version\":\"t\",\"entries\":[\(Self.good),\n\(Self.row("zoneX", "1e309"))]}"
        let reference = try Self.foundation(text)
        let tree = try CatalogDocumentDecoder.decode(Data(text.utf8), origin: "t")
        #expect(tree.entries == reference.entries && reference.undecodableRows.map(\.index) == [1])
        #expect(
            tree.undecodableRows == [
                SkippedCatalogRow(index: 1, key: nil, reason: "field 'entries[1].zoneX' holds 1e309, a number out of range")
            ])
    }

    @Test func hostileNestingIsRefusedWithoutExhaustingTheStack() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: JSONTree.ParseError.self) { try JSONTree.parse(Data(deep.utf8)) }
        let limit = String(repeating: "[", count: JSONTree.depthLimit) + String(repeating: "]", count: JSONTree.depthLimit)
        #expect((try? JSONTree.parse(Data(limit.utf8))) != nil)
        let document = "{\"version\":\"t\",\"entries\":[],\"x\":\(deep)}"
        do {
            _ = try CatalogDocumentDecoder.decode(Data(document.utf8), origin: "t")
            Issue.record("decoded")
        } catch {
            #expect(error.kind == .notJSON && error.detail.contains("levels deep"), "\(error)")
        }
    }
}

@Suite("String Catalog reading")
struct StringCatalogReadingTests {
    @Test func unitsPluralsAndEscapesAreRead() throws {
        let text = #"""
            {"sourceLanguage":"en","version":"1.0","strings":{
              "plain":{"localizations":{"en":{"stringUnit":{"state":"translated","value":"Tap \"here\" \u00e9"}},
                                        "de":{"stringUnit":{"value":"Hier"}}}},
              "count":{"localizations":{"en":{"variations":{"plural":{"one":{"stringUnit":{"value":"1 tap"}},
                                                                     "other":{"stringUnit":{"value":"%lld taps"}}}}}}},
              "bare":{}
            }}
            """#
        let strings = try StringCatalog.parse(Data(text.utf8))
        #expect(strings.string("plain") == "Tap \"here\" \u{e9}")
        #expect(strings.string("plain", language: "de") == "Hier")
        #expect(strings.string("count", "3") == "3 taps")
        #expect(strings.string("bare") == "bare")
        #expect(strings.keys == ["bare", "count", "plain"])
    }

    @Test(arguments: ["[]", #"{"strings":{}}"#, #"{"sourceLanguage":"en"}"#, "{oops"])
    func notAStringCatalogIsRefused(text: String) {
        #expect(throws: (any Error).self) { try StringCatalog.parse(Data(text.utf8)) }
    }
}
