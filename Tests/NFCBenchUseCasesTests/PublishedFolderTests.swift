import Foundation
import NFCCatalogRemote
import NFCLocatorCore
import NFCTestSupport
import Testing

@testable import NFCBenchUseCases

/// Issue 53: the served document and its signature change together. Each version lives in
/// its own folder, `v1/current` is swapped to it in one rename, and `v1/catalog` and
/// `v1/catalog.minisig` are fixed links through it.
@Suite("The published folder")
struct PublishedFolderTests {
    let scratch: TemporaryDirectory
    init() throws { scratch = try TemporaryDirectory("published") }

    func document(_ version: Int) throws -> CatalogResponseDTO {
        var document = try CatalogDocumentDecoder.load(contentsOf: Checkout.seedCatalog)
        document.catalogVersion = version
        return document
    }

    @Test func eachVersionIsServedThroughOneLinkSwappedInOneRename() throws {
        let key = try MinisignSecretKey.generate()
        let folder = PublishedFolder(URL(fileURLWithPath: scratch.file("www")))
        let files = FileManager.default
        for version in 1...2 {
            _ = try folder.write(try document(version), version: version, key: key, reviewer: "R", at: Date())
            #expect(try files.destinationOfSymbolicLink(atPath: scratch.file("www/v1/current")) == "versions/\(version)")
            #expect(try folder.lastVersion(verifiedWith: key.publicKey)?.catalogVersion == version)
        }
        #expect(try files.destinationOfSymbolicLink(atPath: scratch.file("www/v1/catalog")) == "current/catalog")
        #expect(
            try files.destinationOfSymbolicLink(atPath: scratch.file("www/v1/catalog.minisig")) == "current/catalog.minisig")
        // Every version is kept whole, and nothing is left staged.
        for version in 1...2 {
            let kept = try Data(contentsOf: URL(fileURLWithPath: scratch.file("www/v1/versions/\(version)/catalog")))
            #expect(try CatalogDocumentDecoder.decode(kept, origin: "kept").catalogVersion == version)
        }
        #expect(
            try files.contentsOfDirectory(atPath: scratch.file("www/v1")).sorted()
                == ["catalog", "catalog.minisig", "current", "versions"])
    }

    /// A folder published before the links holds the pair as files: the next version
    /// replaces each by its link, and is served.
    @Test func aFolderFromBeforeTheLinksIsTakenOver() throws {
        let key = try MinisignSecretKey.generate()
        let folder = PublishedFolder(URL(fileURLWithPath: scratch.file("old")))
        _ = try folder.write(try document(1), version: 1, key: key, reviewer: "R", at: Date())
        let files = FileManager.default
        for name in ["catalog", "catalog.minisig"] {
            let link = scratch.file("old/v1/" + name)
            let bytes = try Data(contentsOf: URL(fileURLWithPath: link))
            try files.removeItem(atPath: link)
            try bytes.write(to: URL(fileURLWithPath: link))
        }
        try files.removeItem(atPath: scratch.file("old/v1/current"))
        #expect(try folder.lastVersion(verifiedWith: key.publicKey)?.catalogVersion == 1)
        _ = try folder.write(try document(2), version: 2, key: key, reviewer: "R", at: Date())
        #expect(try files.destinationOfSymbolicLink(atPath: scratch.file("old/v1/catalog")) == "current/catalog")
        #expect(try folder.lastVersion(verifiedWith: key.publicKey)?.catalogVersion == 2)
    }
}
