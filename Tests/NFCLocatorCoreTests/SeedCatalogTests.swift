import Foundation
import Testing

@testable import NFCLocatorCore

/// The seed catalog's documented facts (docs/catalog.md).
@Suite("Seed catalog")
struct SeedCatalogTests {
    let document = try! CatalogDocumentDecoder.load(contentsOf: Checkout.resources.seedCatalogURL)
    var seed: Catalog { Catalog(document: document) }

    @Test func has37ValidEntries() {
        #expect(document.entries.count == 37)
        #expect(seed.profiles.count == 37 && seed.skippedRows.isEmpty)
    }

    @Test(arguments: ["iPhone15,2", "SM-S911B", "SM-S918B", "SM-S921B", "SM-S926B", "SM-S928B", "Pixel 8", "Pixel 8 Pro"])
    func includesRequiredModels(model: String) {
        #expect(document.entries.contains { $0.modelIdentifier == model })
    }

    @Test func onlyAHandfulVerifiedAndFoldablesPresent() {
        let verified = seed.profiles.filter(\.verified)
        #expect((1...6).contains(verified.count))
        #expect(seed.profiles.contains { $0.formFactor == .foldBook })
        #expect(seed.profiles.contains { $0.formFactor == .foldFlip })
    }

    @Test func aspectRatiosComeFromPublishedDimensions() {
        for e in document.entries {
            guard let w = e.bodyWidthMm, let h = e.bodyHeightMm else {
                Issue.record("\(e.modelIdentifier) has no published dimensions")
                continue
            }
            #expect(abs(e.aspectRatio - (w / h * 10_000).rounded() / 10_000) < 1e-9, "\(e.modelIdentifier)")
        }
    }

    @Test func expansionRowsAreUnverifiedAndReuseTheirFamilyZone() {
        let expansion = document.entries.filter { $0.zoneProvenance?.hasPrefix("inferred: reuses") == true }
        #expect(expansion.count == 20)
        #expect(expansion.allSatisfy { $0.verified == nil && $0.lastVerifiedAt == nil })
        let byKey = Dictionary(uniqueKeysWithValues: seed.profiles.map { ($0.lookupKey, $0.zone) })
        for key in ["iphone15_4", "iphone16_1", "iphone17_2"] { #expect(byKey[key] == byKey["iphone15_2"]) }
        #expect(byKey["sm_s921b"] == byKey["sm_s911b"] && byKey["sm_s926b"] == byKey["sm_s911b"])
        #expect(byKey["sm_s928b"] == byKey["sm_s918b"])
    }

    @Test func everyRowSaysWhereItsZoneCameFrom() {
        #expect(document.entries.allSatisfy { ($0.zoneProvenance ?? "").contains(":") })
    }
}

@Suite("Strings")
struct StringCatalogTests {
    let strings = try! StringCatalog.load(contentsOf: Checkout.resources.stringsURL)

    @Test func everyHintKeyTheLibraryUsesExists() {
        var keys = ["nfc_locator.marker.hint", "nfc_locator.marker.stale_hint"]
        for shape in [FormFactor?.none] + FormFactor.allCases.map(Optional.some) {
            for fold in [FoldState?.none] + FoldState.allCases.map(Optional.some) {
                keys.append(
                    GenericFallbackSource().guidance(
                        for: DeviceIdentitySignals(model: "x", formFactor: shape, foldState: fold)
                    ).hintKey)
            }
        }
        keys += Confidence.allCases.map { "nfc_locator.confidence.\($0.rawValue)" }
        keys += DataSource.allCases.map { "nfc_locator.source.\($0.rawValue)" }
        for key in Set(keys) { #expect(strings.string(key) != key, "missing string \(key)") }
    }

    @Test func sweepHintNamesNoOperatingSystem() {
        for key in strings.keys where key.hasPrefix("nfc_locator.") {
            let text = strings.string(key).lowercased()
            for os in ["ios", "android", "iphone", "pixel", "samsung"] {
                #expect(!text.split(whereSeparator: { !$0.isLetter }).contains(Substring(os)), "\(key) names \(os)")
            }
        }
    }

    @Test func fillsPlaceholdersInOrder() {
        let s = StringCatalog(table: ["k": ["en": "%@ of %lld (100%%)"]])
        #expect(s.string("k", "3", "5") == "3 of 5 (100%)")
        #expect(s.string("missing") == "missing")
    }
}
