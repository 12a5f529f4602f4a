import Foundation
import Testing

@testable import NFCLocatorCore

@Suite("Wire format")
struct WireFormatTests {
    @Test func encodesTheExactKeyNames() throws {
        let doc = CatalogResponseDTO(
            version: "v1", generatedAt: "2026-11-01T00:00:00Z",
            entries: [
                CatalogEntryDTO(
                    modelIdentifier: "SM-F946B", manufacturer: "Samsung", displayName: "Fold5",
                    formFactor: "foldBook", foldState: "unfolded", screenSizeClass: "large",
                    aspectRatio: 0.8386, zoneX: 0.1, zoneY: 0.4, zoneWidth: 0.8, zoneHeight: 0.38,
                    silhouetteTemplateId: "samsung.galaxy.zfold", verified: true,
                    lastVerifiedAt: "2026-09-15T00:00:00Z")
            ])
        let object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(doc)) as! [String: Any]
        #expect(Set(object.keys) == ["version", "generatedAt", "entries"])
        let entry = (object["entries"] as! [[String: Any]])[0]
        #expect(
            Set(entry.keys) == [
                "modelIdentifier", "manufacturer", "displayName", "formFactor", "foldState", "screenSizeClass",
                "aspectRatio", "zoneX", "zoneY", "zoneWidth", "zoneHeight", "silhouetteTemplateId", "verified",
                "lastVerifiedAt",
            ])
        let back = try CatalogDocumentDecoder.decode(JSONEncoder().encode(doc), origin: "t")
        #expect(back == doc)
    }

    @Test func seedCatalogRoundTripsUnchanged() throws {
        let data = try Data(contentsOf: Checkout.resources.seedCatalogURL)
        let doc = try CatalogDocumentDecoder.decode(data, origin: "seed")
        let again = try CatalogDocumentDecoder.decode(JSONEncoder().encode(doc), origin: "again")
        #expect(again.entries == doc.entries && again.version == doc.version)
        let original = try JSONSerialization.jsonObject(with: data) as! [String: Any]
        let rows = original["entries"] as! [[String: Any]]
        #expect(rows.count == doc.entries.count)
        #expect(rows.allSatisfy { $0["zoneX"] != nil && $0["silhouetteTemplateId"] != nil })
    }

    @Test func numericVersionIsKeptAsText() throws {
        let doc = try CatalogDocumentDecoder.decode(Data("{\"version\":7,\"entries\":[]}".utf8), origin: "t")
        #expect(doc.version == "7")
    }
}
