import Foundation
import Testing

@testable import NFCLocatorCore

@Suite("Catalog loading skips bad rows with reasons")
struct CatalogLoadingTests {
    static let good = """
        {"modelIdentifier":"SM-S921B","manufacturer":"Samsung","displayName":"Galaxy S24","formFactor":"phone",
         "aspectRatio":0.4803,"zoneX":0.1,"zoneY":0.36,"zoneWidth":0.8,"zoneHeight":0.38,"silhouetteTemplateId":"s"}
        """

    func row(_ patch: (inout [String: Any]) -> Void) -> String {
        var object = try! JSONSerialization.jsonObject(with: Data(Self.good.utf8)) as! [String: Any]
        patch(&object)
        return String(decoding: try! JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    }

    func load(_ rows: [String]) throws -> Catalog {
        let json = "{\"version\":\"t\",\"entries\":[\(rows.joined(separator: ","))]}"
        return Catalog(document: try CatalogDocumentDecoder.decode(Data(json.utf8), origin: "test"))
    }

    /// A signed publication's number and approval survive loading, printing and layering
    /// over the seed: `catalog list --json` says which version it is.
    @Test func aPublicationsVersionAndApprovalAreKept() throws {
        let json = """
            {"version":"lab","catalogVersion":7,"publication":{"reviewer":"Ana","approvedAt":"2026-12-06T10:00:00Z",
             "source":"sqlite:bench.sqlite"},"entries":[\(Self.good)]}
            """
        let signed = Catalog(document: try CatalogDocumentDecoder.decode(Data(json.utf8), origin: "test"))
        #expect(signed.catalogVersion == 7 && signed.publication?.reviewer == "Ana")
        let seed = try load([row { $0["modelIdentifier"] = "SM-A556B" }])
        let effective = signed.laid(over: seed)
        #expect(effective.profiles.count == 2)
        #expect(effective.document.catalogVersion == 7 && effective.document.publication == signed.publication)
        let printed = try JSONEncoder().encode(effective.document)
        let again = try CatalogDocumentDecoder.decode(printed, origin: "printed")
        #expect(again.catalogVersion == 7 && again.publication?.approvedAt == "2026-12-06T10:00:00Z")
        #expect(seed.laid(over: signed).document.catalogVersion == nil, "the version is the top layer's")
    }

    @Test func malformedRowsAreSkippedWhileGoodRowsLoad() throws {
        let rows = [
            Self.good,
            row {
                $0["modelIdentifier"] = "A"; $0["zoneWidth"] = 0
            },
            row {
                $0["modelIdentifier"] = "B"; $0["zoneX"] = "NaN"
            },
            row {
                $0["modelIdentifier"] = "C"; $0["zoneY"] = 1.5
            },
            row {
                $0["modelIdentifier"] = "D"; $0.removeValue(forKey: "zoneHeight")
            },
            row {
                $0["modelIdentifier"] = "E"; $0["aspectRatio"] = "wide"
            },
            row {
                $0["modelIdentifier"] = "F"; $0["formFactor"] = "brick"
            },
            row {
                $0["modelIdentifier"] = "G"; $0["lastVerifiedAt"] = "last tuesday"
            },
            row { $0["modelIdentifier"] = "Pixel 8" },
        ]
        let catalog = try load(rows)
        #expect(catalog.profiles.map(\.lookupKey) == ["sm_s921b", "pixel_8"])
        let reasons = Dictionary(uniqueKeysWithValues: catalog.skippedRows.map { ($0.index, $0.reason) })
        #expect(reasons.keys.sorted() == [1, 2, 3, 4, 5, 6, 7])
        #expect(reasons[1]!.contains("zoneWidth") && reasons[1]!.contains("greater than 0"))
        #expect(reasons[2]!.contains("zoneX") && reasons[2]!.contains("not a finite number"))
        #expect(reasons[3]!.contains("zoneY") && reasons[3]!.contains("outside"))
        #expect(reasons[4]! == "field 'entries[4].zoneHeight' is missing")
        #expect(reasons[5]!.contains("aspectRatio"))
        #expect(reasons[6]!.contains("formFactor 'brick'"))
        #expect(reasons[7]!.contains("lastVerifiedAt"))
        #expect(catalog.skippedRows.first { $0.index == 1 }?.key == "a")
    }

    @Test func duplicateKeysKeepTheFirst() throws {
        let catalog = try load([
            Self.good,
            row {
                $0["modelIdentifier"] = "sm s921b"; $0["zoneX"] = 0.2
            },
        ])
        #expect(catalog.profiles.count == 1 && catalog.profiles[0].zone.x == 0.1)
        #expect(catalog.skippedRows.map(\.index) == [1])
    }

    @Test(arguments: ["", "nope", "{\"entries\": 3}", "[]", "{\"version\":\"1\"}"])
    func nonCatalogsFailAsAWhole(text: String) {
        #expect(throws: CatalogDocumentError.self) { try CatalogDocumentDecoder.decode(Data(text.utf8), origin: "t") }
    }

    @Test func notJSONIsToldApartFromNotACatalog() {
        for (text, kind) in [("{oops", CatalogDocumentError.Kind.notJSON), ("[1,2]", .notACatalog)] {
            do {
                _ = try CatalogDocumentDecoder.decode(Data(text.utf8), origin: "t")
                Issue.record("\(text) decoded")
            } catch {
                #expect(error.kind == kind)
            }
        }
    }

    @Test func unknownKeysAreIgnored() throws {
        let catalog = try load([
            row {
                $0["futureField"] = ["nested": true]; $0["android14"] = 1
            }
        ])
        #expect(catalog.profiles.count == 1 && catalog.skippedRows.isEmpty)
    }

    @Test func skippedRowsReachAnalytics() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("remote.json")
        try Data("{\"version\":\"r\",\"entries\":[\(Self.good),\(row { $0["zoneWidth"] = -1 })]}".utf8).write(to: file)
        let analytics = RecordingAnalytics()
        let (_, layers) = await ResolverChainLoader.load(
            remote: FileCatalogRemote(url: file), seedURL: nil,
            analytics: analytics)
        #expect(analytics.recorded.contains { $0.hasPrefix("skipped remoteCatalog 1: zoneWidth") })
        guard case .loaded(let entries, let skipped) = layers[0].state else {
            Issue.record("remote layer did not load")
            return
        }
        #expect(entries == 1 && skipped.count == 1)
    }
}
