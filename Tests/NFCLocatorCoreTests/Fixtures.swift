import Foundation

@testable import NFCLocatorCore

/// Paths into this checkout, found from the test file's own location.
enum Checkout {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let resources = ResourceLocator(directory: root.appendingPathComponent("Resources"))
}

/// A valid wire row to mutate in tests.
func sampleEntry(
    _ model: String = "SM-S921B", verified: Bool? = nil, lastVerifiedAt: String? = nil,
    zone: (Double, Double, Double, Double) = (0.1, 0.36, 0.8, 0.38)
) -> CatalogEntryDTO {
    CatalogEntryDTO(
        modelIdentifier: model, manufacturer: "Samsung", displayName: "Test \(model)", formFactor: "phone",
        aspectRatio: 0.48, zoneX: zone.0, zoneY: zone.1, zoneWidth: zone.2, zoneHeight: zone.3,
        silhouetteTemplateId: "test", verified: verified, lastVerifiedAt: lastVerifiedAt)
}

func catalog(_ entries: [CatalogEntryDTO], version: String = "test") -> Catalog {
    Catalog(document: CatalogResponseDTO(version: version, entries: entries))
}

/// Records analytics calls.
final class RecordingAnalytics: NFCLocatorAnalytics, @unchecked Sendable {
    // @unchecked: every access to `events` goes through `lock`.
    private let lock = NSLock()
    private var events: [String] = []
    var recorded: [String] { lock.withLock { events } }
    func catalogRowSkipped(source: DataSource, row: SkippedCatalogRow) {
        lock.withLock { events.append("skipped \(source.rawValue) \(row.index): \(row.reason)") }
    }
    func catalogLayerFailed(source: DataSource, reason: String) {
        lock.withLock { events.append("failed \(source.rawValue)") }
    }
    func antennaResolved(lookupKey: String, source: DataSource, confidence: Confidence, stale: Bool) {
        lock.withLock { events.append("resolved \(lookupKey) \(source.rawValue)") }
    }
}
