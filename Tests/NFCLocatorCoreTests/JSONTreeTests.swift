import Foundation
import NFCLocatorCore
import Testing

/// `JSONTree.parse` must take exactly the texts `JSONText` calls strict JSON: the catalog
/// reader trusts the first, and asks the second only to say where a refused text is wrong.
@Suite("JSON trees")
struct JSONTreeTests {
    static func parses(_ bytes: [UInt8]) -> Bool { (try? JSONTree.parse(Data(bytes))) != nil }
    static func strict(_ bytes: [UInt8]) -> Bool { JSONText(Data(bytes)).strictReading() == .valid }

    @Test func valuesAreReadAsWritten() throws {
        let text = #"{"a": [1, -2.5e3, 0, true, false, null, "x\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00"], "b": {}, "c": []}"#
        let tree = try JSONTree.parse(Data(text.utf8))
        guard case .object(let object) = tree, case .array(let a)? = object["a"] else {
            Issue.record("not an object with an array: \(tree)")
            return
        }
        #expect(
            a == [
                .number("1"), .number("-2.5e3"), .number("0"), .bool(true), .bool(false), .null,
                .string("x\"\\/\u{8}\u{c}\n\r\t\u{e9}\u{1F600}"),
            ])
        #expect(object.members.map(\.name) == ["a", "b", "c"])
        #expect(object["b"] == .object(JSONTreeObject(members: [])) && object["c"] == .array([]))
        #expect(tree.member("a") != nil && tree.member("zz") == nil && JSONTree.null.member("a") == nil)
    }

    @Test(arguments: [
        "{\"a\": 1,,\n}", "[1, 2", "[01]", "{\"a\" 1}", "[1.]", "[\"tab\there\"]", "[\"\\x\"]", "[1] [2]", "[tru]",
        "\"never closed", "\"\\ud800\"", "[\"\\udc00\"]", "[\"\\ud800\\u0041\"]", "[1,]", "{\"a\":1,}", "",
        "{\"a\":1,\"a\":2}", "[-]", "[1e]", "[+1]", "[.5]", "[1]x",
    ])
    func strictJSONOnly(_ text: String) {
        #expect(!Self.parses(Array(text.utf8)), "\(text)")
        #expect(!Self.strict(Array(text.utf8)), "\(text)")
    }

    @Test func aNameTwiceInALargeObjectIsFoundToo() {
        let members = (0..<100).map { "\"m\($0)\": \($0)" }.joined(separator: ", ")
        #expect(Self.parses(Array("{\(members)}".utf8)))
        #expect(!Self.parses(Array("{\(members), \"m7\": 1}".utf8)))
    }

    @Test func malformedUTF8IsRefused() {
        for bytes: [UInt8] in [
            [0x22, 0xFF, 0x22], [0x22, 0xC0, 0xAF, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], [0x22, 0xE2, 0x82, 0x22],
        ] {
            #expect(!Self.parses(bytes) && !Self.strict(bytes), "\(bytes)")
        }
        #expect(Self.parses(Array("\"é€😀\"".utf8)))
    }

    @Test func agreesWithTheScannerOnMutatedDocuments() {
        let base = Array(
            #"{"entries": [{"x": 0.5, "y": -1e-3, "s": "a\u00e9\ud83d\ude00\n", "ok": true, "é": "€"}, [null, 12]], "n": 0}"#.utf8
        )
        let alphabet = Array(#"{}[]:,"\ 0123456789.eE+-tfnulrsud"#.utf8) + [0xC3, 0xA9, 0xFF, 0x09]
        var disagreements: [String] = []
        for bytes in SplitMix.mutations(of: base, alphabet: alphabet, seed: 2027, count: 20_000) {
            if Self.parses(bytes) != Self.strict(bytes) { disagreements.append(String(decoding: bytes, as: UTF8.self)) }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(5))")
    }

    @Test func theShippedSeedCatalogIsStrictJSON() throws {
        let data = try Data(contentsOf: Checkout.resources.seedCatalogURL)
        #expect(Self.parses(Array(data)) && Self.strict(Array(data)))
    }
}
