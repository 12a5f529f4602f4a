import Foundation
import Testing

@testable import NFCLocatorCore

@Suite("Resolver chain")
struct ResolverTests {
    let now = Date()
    let s24 = DeviceFingerprint(manufacturer: "samsung", model: "sm_s921b")
    let phone = DeviceIdentitySignals(manufacturer: "samsung", model: "SM-S921B", formFactor: .phone)

    @Test func remoteBeatsSeed() {
        let remote = catalog([sampleEntry(zone: (0.1, 0.05, 0.6, 0.3))], version: "remote-1")
        let seed = catalog([sampleEntry()], version: "seed-1")
        let r = AntennaZoneResolver(remote: remote, seed: seed).resolve(s24, signals: phone, now: now)
        #expect(r.source == .remoteCatalog && r.catalogVersion == "remote-1" && r.zone?.y == 0.05)
    }

    @Test func seedAnswersWhatRemoteDoesNotName() {
        let remote = catalog([sampleEntry("Pixel 8")])
        let r = AntennaZoneResolver(remote: remote, seed: catalog([sampleEntry()])).resolve(s24, signals: phone, now: now)
        #expect(r.source == .seedCatalog && r.matchedBy == .exact)
    }

    @Test func seedBeatsHeuristic() {
        let r = AntennaZoneResolver(remote: nil, seed: catalog([sampleEntry()])).resolve(s24, signals: phone, now: now)
        #expect(r.source == .seedCatalog)
    }

    @Test func heuristicWhenNoCatalogKnowsTheModel() {
        let r = AntennaZoneResolver(remote: catalog([]), seed: catalog([sampleEntry("Pixel 8")]))
            .resolve(s24, signals: phone, now: now)
        #expect(r.source == .heuristic && r.matchedBy == .none && r.matchedKey == nil && r.profile == nil)
        #expect(r.confidence == .generic)
    }

    @Test func familyMatchSaysSo() {
        let fp = ModelIdentifierFingerprintProvider(modelIdentifier: "SM-S921U1").fingerprint()
        let r = AntennaZoneResolver(remote: nil, seed: catalog([sampleEntry()])).resolve(fp, signals: phone, now: now)
        #expect(r.matchedBy == .family && r.matchedKey == "sm_s921b" && r.lookupKey == "sm_s921u1")
    }

    @Test func failingRemoteFallsThroughToSeed() async throws {
        struct Down: CatalogRemoteAPI {
            func fetchCatalog() async throws -> CatalogResponseDTO { throw URLError(.cannotConnectToHost) }
        }
        let analytics = RecordingAnalytics()
        let (resolver, layers) = await ResolverChainLoader.load(
            remote: Down(), seedURL: Checkout.resources.seedCatalogURL, analytics: analytics)
        guard case .failed = layers[0].state else { Issue.record("remote should fail"); return }
        let r = resolver.resolve(s24, signals: phone, now: now)
        #expect(r.source == .seedCatalog)
        #expect(analytics.recorded.contains("failed remoteCatalog"))
        #expect(analytics.recorded.last == "resolved sm_s921b seedCatalog")
    }

    @Test func missingSeedFallsThroughToHeuristic() async {
        let missing = URL(fileURLWithPath: "/nonexistent/seed_catalog.json")
        let (resolver, layers) = await ResolverChainLoader.load(remote: nil, seedURL: missing)
        guard case .failed(let reason) = layers[1].state else { Issue.record("seed should fail"); return }
        #expect(reason.contains("/nonexistent/seed_catalog.json"))
        #expect(resolver.resolve(s24, signals: phone, now: now).source == .heuristic)
    }

    @Test func verifiedEntryResolvesExact() {
        let r = AntennaZoneResolver(remote: nil, seed: catalog([sampleEntry(verified: true)]))
            .resolve(s24, signals: phone, now: now)
        #expect(r.confidence == .exact && !r.isStale)
    }

    @Test func patchLaidOverBaseKeepsUnnamedEntries() {
        let patch = catalog([sampleEntry(zone: (0.1, 0.05, 0.6, 0.3))], version: "patch")
        let base = catalog([sampleEntry(), sampleEntry("Pixel 8")], version: "seed")
        let merged = patch.laid(over: base)
        #expect(merged.profiles.map(\.lookupKey) == ["sm_s921b", "pixel_8"])
        #expect(merged.profiles[0].zone.y == 0.05)
    }
}

@Suite("Heuristic layer")
struct HeuristicTests {
    let source = GenericFallbackSource()

    @Test(arguments: [
        (FormFactor?.none, FoldState?.none, Confidence.unknown, "nfc_locator.fallback.unknown"),
        (.phone, nil, .generic, "nfc_locator.fallback.phone"),
        (.tablet, nil, .generic, "nfc_locator.fallback.tablet"),
        (.foldBook, .folded, .generic, "nfc_locator.fallback.fold_book_folded"),
        (.foldBook, .unfolded, .generic, "nfc_locator.fallback.fold_book_unfolded"),
        (.foldFlip, .folded, .generic, "nfc_locator.fallback.fold_flip_folded"),
        (.foldFlip, .unfolded, .generic, "nfc_locator.fallback.fold_flip_unfolded"),
    ])
    func branches(formFactor: FormFactor?, fold: FoldState?, confidence: Confidence, hint: String) {
        let g = source.guidance(for: DeviceIdentitySignals(model: "x", formFactor: formFactor, foldState: fold))
        #expect(g.confidence == confidence)
        #expect(g.hintKey == hint)
        #expect((g.sweepRegion == nil) == (confidence == .unknown))
    }

    @Test func screenSizeClassDoesNotMoveTheRegion() {
        let regions = ScreenSizeClass.allCases.map {
            source.guidance(for: DeviceIdentitySignals(model: "x", formFactor: .phone, screenSizeClass: $0)).sweepRegion
        }
        #expect(Set(regions).count == 1)
    }

    @Test func flipUnfoldedSweepsLowerHalfAndBookUnfoldedTheMiddle() {
        let flip = source.guidance(for: DeviceIdentitySignals(model: "x", formFactor: .foldFlip, foldState: .unfolded))
        let book = source.guidance(for: DeviceIdentitySignals(model: "x", formFactor: .foldBook, foldState: .unfolded))
        #expect(flip.sweepRegion!.midY > 0.6)
        #expect(abs(book.sweepRegion!.midY - 0.5) < 0.1)
    }

    @Test(arguments: [("sm_f946b", FormFactor.foldBook), ("sm_f731b", .foldFlip), ("pixel_8", .phone)])
    func signalsInferShapeFromIdentifier(key: String, shape: FormFactor) {
        let fp = DeviceFingerprint(manufacturer: "x", model: key)
        #expect(DeviceIdentitySignals.inferred(from: fp, model: key).formFactor == shape)
        #expect(
            DeviceIdentitySignals.inferred(from: DeviceFingerprint(manufacturer: "", model: "nokia"), model: "n")
                .formFactor == nil)
    }
}
