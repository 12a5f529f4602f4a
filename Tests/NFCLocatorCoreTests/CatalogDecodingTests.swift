import Foundation
import Testing

@testable import NFCLocatorCore

/// `CatalogDocumentDecoder` reads the wire format with `JSONDecoder`: every row is kept or
/// skipped with a reason in the words of the JSON, never Swift's.
@Suite("Catalog documents through JSONDecoder")
struct CatalogDecodingTests {
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

    static func decode(_ text: String) throws(CatalogDocumentError) -> CatalogResponseDTO {
        try CatalogDocumentDecoder.decode(Data(text.utf8), origin: "t")
    }

    @Test func everyRowIsKeptOrSkippedWithAReasonInJSONWords() throws {
        let document = try Self.decode("{\"version\":\"t\",\"entries\":[\(Self.rows.joined(separator: ","))]}")
        // The battery reaches both outcomes and every kind of reason.
        #expect(
            document.entries.count > 40 && document.undecodableRows.count > 100,
            "\(document.entries.count) \(document.undecodableRows.count)")
        #expect(document.entries.count + document.undecodableRows.count == Self.rows.count)
        let reasons = Set(document.undecodableRows.map(\.reason))
        for phrase in ["is missing", "is null, expected text", "is not text", "is not a number", "is not true or false"] {
            #expect(reasons.contains { $0.contains(phrase) }, "\(phrase)")
        }
        for reason in reasons {
            #expect(reason.hasPrefix("field '") || reason == "the text is not valid JSON", "\(reason)")
            for swiftWord in ["Double", "String", "CodingKeys", "JSONError", "Swift.", "Optional"] {
                #expect(!reason.contains(swiftWord), "\(reason)")
            }
        }
        #expect(document.entries.contains { $0.displayName == "Gal\u{e1}xy \"S24\" \u{1F600} / \\ \n" })
        // Each kept row knows its place in the document, for reasons given at validation.
        #expect(document.documentIndex(ofEntryAt: 0) == 0)
        #expect(
            Set((0..<document.entries.count).map(document.documentIndex(ofEntryAt:))).isDisjoint(
                with: document.undecodableRows.map(\.index)))
    }

    @Test(
        arguments: [
            (#"{"version":3,"entries":[]}"#, "3", nil), (#"{"version":3.5,"entries":[]}"#, "unversioned", nil),
            (#"{"version":null,"entries":[]}"#, "unversioned", nil), (#"{"version":true,"entries":[]}"#, "unversioned", nil),
            (#"{"entries":[]}"#, "unversioned", nil),
            (#"{"version":"v","generatedAt":"2026-01-01","entries":[]}"#, "v", "2026-01-01"),
            (#"{"version":"v","generatedAt":null,"entries":[]}"#, "v", nil),
        ] as [(String, String, String?)])
    func documentsAreRead(text: String, version: String, generatedAt: String?) throws {
        let document = try Self.decode(text)
        #expect(document.version == version && document.generatedAt == generatedAt && document.entries.isEmpty)
    }

    @Test(arguments: [
        #"{"version":"v"}"#, #"{"version":"v","entries":null}"#, #"{"version":"v","entries":{}}"#,
        #"{"version":"v","generatedAt":5,"entries":[]}"#, "[]", "3", "null",
        #"{"version":"v","version":"w","entries":[]}"#,
    ])
    func nonCatalogsAreRefused(text: String) {
        #expect {
            try Self.decode(text)
        } throws: { error in
            (error as? CatalogDocumentError)?.kind == .notACatalog
        }
    }

    @Test func aTrailingCommaIsTakenAndOtherSyntaxErrorsAreLocated() throws {
        #expect(try Self.decode("{\"version\":\"t\",\"entries\":[\(Self.good),]}").entries.count == 1)
        do {
            _ = try Self.decode("{\"version\":\"t\",\n\"entries\":[\(Self.good) oops]}")
            Issue.record("decoded")
        } catch {
            #expect(error.kind == .notJSON && error.detail.hasPrefix("line 3, column "), "\(error)")
        }
    }

    /// Foundation refuses such a number with an error of its own that names no field.
    @Test func aNumberNoDoubleHoldsSkipsOnlyItsRowAndSaysWhichField() throws {
        let document = try Self.decode("{\"version\":\"t\",\"entries\":[\(Self.good),\n\(Self.row("zoneX", "1e309"))]}")
        #expect(document.entries.count == 1)
        #expect(
            document.undecodableRows == [
                SkippedCatalogRow(index: 1, key: nil, reason: "field 'entries[1].zoneX' holds 1e309, a number out of range")
            ])
        let two = try Self.decode(
            "{\"version\":\"t\",\"entries\":[\(Self.row("zoneY", "-1e400")),\(Self.row("bodyWidthMm", "2e308"))]}")
        #expect(
            two.undecodableRows.map(\.reason) == [
                "field 'entries[0].zoneY' holds -1e400, a number out of range",
                "field 'entries[1].bodyWidthMm' holds 2e308, a number out of range",
            ])
    }

    @Test func hostileNestingIsRefusedWithoutExhaustingTheStack() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let document = "{\"version\":\"t\",\"entries\":[],\"x\":\(deep)}"
        do {
            _ = try Self.decode(document)
            Issue.record("decoded")
        } catch {
            #expect(error.kind == .notJSON && error.detail.contains("levels deep"), "\(error)")
        }
    }

    /// Found by the fuzzer (CI, 2026-12-07): Foundation reads a NUL inside a string, and a
    /// strict pass that stopped there never saw `generatedAt` given twice after it, so the
    /// document meant one thing to nfcbench and another to every other reader. Whatever the
    /// strict pass cannot read is refused where it stops, and a trailing comma, which the
    /// decoder takes, no longer hides a member named twice behind it.
    @Test func nothingHidesAMemberNamedTwiceFromTheStrictPass() throws {
        var fuzzed = Data(#"{"version": "se"#.utf8)
        fuzzed.append(contentsOf: [0, 0, 0])
        fuzzed.append(contentsOf: Data("\", \"generatedAt\": \"a\",\n\"generatedAt\": \"b\", \"entries\": []}".utf8))
        do {
            _ = try CatalogDocumentDecoder.decode(fuzzed, origin: "test")
            Issue.record("decoded")
        } catch {
            #expect(error.kind == .notJSON && error.detail.hasPrefix("line 1, column 16: ") && error.detail.contains("control"))
        }
        let afterAComma = #"{"version":"t","entries":[\#(Self.good),],"version":"u"}"#
        do {
            _ = try Self.decode(afterAComma)
            Issue.record("decoded")
        } catch {
            #expect(error.kind == .notACatalog && error.detail.contains("\"version\" appears twice"), "\(error)")
        }
        var marked = Data([0xEF, 0xBB, 0xBF])
        marked.append(contentsOf: Data(#"{"version":"t","entries":[]}"#.utf8))
        #expect(throws: CatalogDocumentError.self) { try CatalogDocumentDecoder.decode(marked, origin: "test") }
        #expect(JSONText(marked).syntaxError()?.problem.contains("byte order mark") == true)
    }

    @Test func theShippedSeedCatalogIsStrictJSON() throws {
        let data = try Data(contentsOf: Checkout.resources.seedCatalogURL)
        #expect(JSONText(data).strictReading() == .valid)
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
