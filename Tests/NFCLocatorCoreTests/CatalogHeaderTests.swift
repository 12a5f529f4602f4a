import Foundation
import Testing

@testable import NFCLocatorCore

/// The header `catalog verify` reads without decoding the entries (issue 53: verifying a
/// 10,000-entry document took 5.8x its `sha256sum`, almost all of it the decode).
@Suite("A catalog's header")
struct CatalogHeaderTests {
    /// Whatever the decoder reads, the header reads the same: version, approval, count.
    @Test func theHeaderAgreesWithTheDecoder() throws {
        let seed = try Data(contentsOf: Checkout.root.appendingPathComponent("Resources/seed_catalog.json"))
        var object = try #require(try JSONSerialization.jsonObject(with: seed) as? [String: Any])
        object["catalogVersion"] = 7
        object["publication"] = ["reviewer": "Dr. \"Q\" \\ Ruiz ]}", "approvedAt": "2026-12-07T10:00:00Z", "source": "x"]
        var entries = try #require(object["entries"] as? [[String: Any]])
        entries[0]["displayName"] = "a \\\" tricky ], { name \\\\"
        object["entries"] = entries
        for options: JSONSerialization.WritingOptions in [[], [.prettyPrinted, .sortedKeys], [.withoutEscapingSlashes]] {
            let body = try JSONSerialization.data(withJSONObject: object, options: options)
            let header = try CatalogHeader.read(body)
            let decoded = try CatalogDocumentDecoder.decode(body, origin: "test")
            #expect(header.catalogVersion == decoded.catalogVersion && header.publication == decoded.publication)
            #expect(header.entryCount == entries.count && decoded.entries.count + decoded.undecodableRows.count == entries.count)
        }
        #expect(try CatalogHeader.read(Data(#"{"entries": [], "catalogVersion": 1}"#.utf8)).entryCount == 0)
        // Found by the fuzzer: the decoder tolerates a trailing comma, and the count must too.
        let trailing = Data(#"{"version": "v", "entries": [{"a": [1, 2,]}, {},], "catalogVersion": 1.0}"#.utf8)
        let lenient = try CatalogDocumentDecoder.decode(trailing, origin: "test")
        #expect(try CatalogHeader.read(trailing) == CatalogHeader(catalogVersion: 1, publication: nil, entryCount: 2))
        #expect(lenient.entries.count + lenient.undecodableRows.count == 2 && lenient.catalogVersion == 1)
        // The catalog object's own last member may have one too.
        let closing = Data(#"{"version": "v", "entries": [{}], "catalogVersion": 4, }"#.utf8)
        #expect(try CatalogDocumentDecoder.decode(closing, origin: "test").catalogVersion == 4)
        #expect(try CatalogHeader.read(closing) == CatalogHeader(catalogVersion: 4, publication: nil, entryCount: 1))
        // Foundation skips an unknown member's string without reading its escapes (`\u\04\`
        // here); the decoder no longer lets it, so the header has nothing to agree with.
        let skipped = Data(#"{"version": "1", "entries": [{"other": "x\\\u\04\\\"}], "catalogVersion": 2}"#.utf8)
        #expect {
            try CatalogDocumentDecoder.decode(skipped, origin: "test")
        } throws: { ($0 as? CatalogDocumentError)?.detail.contains("four hexadecimal digits") == true }
        #expect(
            try CatalogHeader.read(Data(#" { } "#.utf8)) == CatalogHeader(catalogVersion: nil, publication: nil, entryCount: nil))
    }

    /// What the decoder would read otherwise is refused, not guessed: a member given twice
    /// (the decoder refuses it too), text after the object, a document cut short.
    @Test(arguments: [
        #"{"catalogVersion": 1, "catalogVersion": 9, "entries": []}"#, #"{"entries": []} {"#, #"{"entries": [{"a": "b"#,
        #"[1, 2]"#, #"{"catalogVersion": 1.5}"#, #"{"catalogVersion": "2"}"#, #"{"entries": {}}"#, "",
        #"{"publication": {"reviewer": 3}}"#,
    ])
    func whatCouldBeReadTwoWaysIsRefused(_ text: String) {
        #expect(throws: CatalogHeader.Unreadable.self) { try CatalogHeader.read(Data(text.utf8)) }
    }

    /// The signed path: verify gives the header, and keeps every refusal `open` makes.
    @Test func verifyRefusesWhatOpenRefuses() throws {
        struct Accepting: CatalogSignatureVerifying {
            func verify(document: Data, signature: Data) throws(CatalogSignatureError) -> String { "ok" }
        }
        let body = Data(#"{"version": "v", "catalogVersion": 3, "entries": [{}, {}]}"#.utf8)
        let header = try SignedCatalog.verify(
            body, signature: Data("sig".utf8), verifier: Accepting(), origin: "t", heldVersion: 2)
        #expect(header.catalogVersion == 3 && header.entryCount == 2)
        #expect(throws: SignedCatalogRefusal.signature(.rolledBack(offered: 3, held: 4))) {
            try SignedCatalog.verify(body, signature: Data("sig".utf8), verifier: Accepting(), origin: "t", heldVersion: 4)
        }
        #expect(throws: SignedCatalogRefusal.signature(.missing)) {
            try SignedCatalog.verify(body, signature: nil, verifier: Accepting(), origin: "t", heldVersion: nil)
        }
        #expect(throws: SignedCatalogRefusal.signature(.unversioned)) {
            try SignedCatalog.verify(
                Data(#"{"entries": []}"#.utf8), signature: Data("s".utf8), verifier: Accepting(), origin: "t", heldVersion: nil)
        }
    }
}
