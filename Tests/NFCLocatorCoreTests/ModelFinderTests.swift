import Foundation
import Testing

@testable import NFCLocatorCore

/// Phones found by the names people use, against the shipped seed catalog.
@Suite("Model finder")
struct ModelFinderTests {
    static let finder: ModelFinder = {
        let document = try! CatalogDocumentDecoder.load(
            contentsOf: Checkout.root.appendingPathComponent("Resources/seed_catalog.json"))
        return ModelFinder(resolver: AntennaZoneResolver(remote: nil, seed: Catalog(document: document)))
    }()

    func found(_ typed: String) -> ModelFinder.Match? {
        if case .found(let m) = Self.finder.find(typed) { return m }
        return nil
    }

    /// What the operator typed loses its white space at both ends, Unicode's included, and
    /// nothing else: the printable-ASCII fast path and the Character path agree.
    @Test(arguments: [
        ("SM-S921B", "SM-S921B"), (" SM-S921B\n", "SM-S921B"), ("\u{3000}Galaxy S24\u{00A0}", "Galaxy S24"),
        ("\t\r\n", ""), ("", ""), ("a", "a"), ("a b", "a b"), ("\u{2028}x", "x"), ("x\r\n", "x"),
        ("Pixel 8\u{301}", "Pixel 8\u{301}"), ("\u{0600}a", "\u{0600}a"), (" \u{0600}a ", "\u{0600}a"),
        ("~iPhone15,2~", "~iPhone15,2~"), ("\u{85}Pixel\u{85}", "Pixel"),
    ])
    func typedTextLosesOnlyItsOuterWhiteSpace(_ typed: String, _ kept: String) {
        #expect(typed.trimmingWhitespace() == kept)
        #expect(typed[...].trimmingWhitespace() == kept)
    }

    @Test(arguments: [
        ("SM-S921B", "sm_s921b", ModelFinder.Reason.identifier), (" SM-S921B\n", "sm_s921b", .identifier),
        ("SM-S921U1", "sm_s921b", .family), ("sm s921b", "sm_s921b", .identifier), ("sms921b", "sm_s921b", .spelling),
        ("pixel8", "pixel_8", .spelling),
        ("PIXEL 8", "pixel_8", .identifier), ("Galaxy S24", "sm_s921b", .name), ("galaxy-s24", "sm_s921b", .name),
        ("Samsung Galaxy S24", "sm_s921b", .name), ("galaxy s24+", "sm_s926b", .name), ("iPhone 14 Pro", "iphone15_2", .name),
        ("iphone 14 pro max", "iphone15_3", .name), ("  Apple iPhone 14  ", "iphone14_7", .name),
    ])
    func findsWhatPeopleType(_ typed: String, _ key: String, _ reason: ModelFinder.Reason) throws {
        let match = try #require(found(typed), "'\(typed)' found nothing")
        #expect(match.profile.lookupKey == key && match.reason == reason, "\(typed): \(match.profile.lookupKey) \(match.reason)")
        // What a session stores resolves straight to the same entry next time.
        #expect(found(match.identifier)?.profile.lookupKey == key)
        #expect(!match.identifier.hasPrefix(" ") && !match.identifier.hasSuffix("\n"))
    }

    /// A name several entries share is never guessed: all of them come back.
    @Test func aSharedNameListsEveryEntry() {
        let entries = [("SM-X100A", "Galaxy Test"), ("SM-Y200B", "Galaxy Test (folded)")].map { id, name in
            CatalogEntryDTO(
                modelIdentifier: id, manufacturer: "Samsung", displayName: name, formFactor: "phone", aspectRatio: 0.48,
                zoneX: 0.1, zoneY: 0.3, zoneWidth: 0.8, zoneHeight: 0.4, silhouetteTemplateId: "t")
        }
        let finder = ModelFinder(resolver: AntennaZoneResolver(remote: nil, seed: catalog(entries)))
        guard case .ambiguous(let profiles) = finder.find("galaxy test") else {
            Issue.record("not ambiguous")
            return
        }
        #expect(Set(profiles.map(\.modelIdentifier)) == ["SM-X100A", "SM-Y200B"])
    }

    @Test func aNearMissSuggestsTheClosestEntries() {
        guard case .unknown(let id, let suggestions) = Self.finder.find("Galxy S24") else {
            Issue.record("a misspelt name matched")
            return
        }
        #expect(id == "Galxy S24" && suggestions.first?.modelIdentifier == "SM-S921B" && suggestions.count <= 3)
        guard case .unknown(_, let none) = Self.finder.find("Nokia 3310") else {
            Issue.record("a phone the catalog lacks was matched")
            return
        }
        #expect(none.isEmpty)
    }

    @Test func searchMatchesAnySpellingOfPartOfANameOrIdentifier() {
        let s24 = Self.finder.search("galaxy s24").map(\.modelIdentifier)
        #expect(s24.contains("SM-S921B") && s24.contains("SM-S928B") && !s24.contains("SM-S911B"))
        #expect(Self.finder.search("sm-s92").map(\.modelIdentifier).allSatisfy { $0.hasPrefix("SM-S92") })
        #expect(Self.finder.search("PIXEL").count >= 2)
    }
}
