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

    /// What `catalog publish` adds travels under these names, and reads back the same
    /// whichever reader reads it; a reader that knows none of them still reads the rows.
    @Test func aPublishedVersionsMembersRoundTrip() throws {
        let interval = CatalogIntervalDTO(value: 35.3, low: 34.1, high: 36.2)
        var entry = CatalogEntryDTO(
            modelIdentifier: "SM-S921B", manufacturer: "Samsung", displayName: "Galaxy S24", formFactor: "phone",
            aspectRatio: 0.4803, zoneX: 0.2, zoneY: 0.2, zoneWidth: 0.5, zoneHeight: 0.2, silhouetteTemplateId: "s",
            verified: true)
        entry.provenance = CatalogProvenanceDTO(
            method: CatalogProvenanceDTO.benchRefined, sessions: 4, units: 2,
            readerAntennas: [CatalogReaderAntennaDTO(widthMm: 20, heightMm: 20)],
            coil: CatalogCoilDTO(centreXMm: interval, centreYMm: interval, widthMm: interval, heightMm: interval),
            lastSession: "B3", lastSessionAt: "2026-11-02T10:00:00Z")
        let document = CatalogResponseDTO(
            version: "lab-7", entries: [entry], catalogVersion: 7,
            publication: CatalogPublicationDTO(reviewer: "Ana", approvedAt: "2026-11-03T09:00:00Z", source: "bench.sqlite"))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = try encoder.encode(document)
        let text = String(decoding: data, as: UTF8.self)
        for name in [
            "\"catalogVersion\":7", "\"publication\"", "\"reviewer\"", "\"approvedAt\"", "\"provenance\"", "\"method\"",
            "\"readerAntennas\"", "\"centreXMm\"", "\"lastSessionAt\"",
        ] {
            #expect(text.contains(name), "\(name)")
        }
        #expect(try CatalogDocumentDecoder.decode(data, origin: "t") == document)
        #expect(try JSONDecoder().decode(CatalogResponseDTO.self, from: data) == document)
        // An old client's view: the same rows, the new members ignored.
        var old = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        old.removeValue(forKey: "catalogVersion")
        #expect(try CatalogDocumentDecoder.decode(JSONSerialization.data(withJSONObject: old), origin: "t").entries.count == 1)
    }
}
