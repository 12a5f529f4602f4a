// In-process resolver throughput on a synthetic 10,000-entry catalog, against a bare
// dictionary probe of pre-normalized keys measured in the same run (the baseline).
import Foundation
import NFCLocatorCore

func entry(_ model: String) -> CatalogEntryDTO {
    CatalogEntryDTO(
        modelIdentifier: model, manufacturer: "Samsung", displayName: model, formFactor: "phone",
        aspectRatio: 0.48, zoneX: 0.1, zoneY: 0.3, zoneWidth: 0.8, zoneHeight: 0.4,
        silhouetteTemplateId: "bench", lastVerifiedAt: "2026-11-01T00:00:00Z")
}

// 10,000 Samsung-shaped identifiers: SM-<series><3 digits>B.
let series = Array("ASGFMNX")
var models: [String] = []
for s in series { for n in 0..<1_000 where models.count < 10_000 { models.append("SM-\(s)\(String(format: "%03d", n))B") } }
for n in 0..<(10_000 - models.count) { models.append("Phone \(n)") }
let catalog = Catalog(document: CatalogResponseDTO(version: "bench", entries: models.map(entry)))
precondition(catalog.profiles.count == 10_000)
let resolver = AntennaZoneResolver(remote: nil, seed: catalog)

// Queries as typed at the bench: exact, regional variants (family), unknown.
var queries: [String] = []
for i in stride(from: 0, to: 10_000, by: 3) {
    queries.append(models[i])
    queries.append(models[i].hasPrefix("SM-") ? String(models[i].dropLast()) + "U1" : "Unknown \(i)")
    queries.append("Nokia \(i)")
}
let signals = DeviceIdentitySignals(model: "x", formFactor: .phone)
let now = Date()

func measure(_ label: String, iterations: Int, perIteration: Int, _ body: () -> Int) -> Double {
    _ = body()  // warm-up
    let clock = ContinuousClock()
    var checksum = 0
    let elapsed = clock.measure { for _ in 0..<iterations { checksum &+= body() } }
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    let rate = Double(iterations * perIteration) / seconds
    print("\(label): \(String(format: "%.0f", rate)) lookups/s (checksum \(checksum))")
    return rate
}

let normalizedQueries = queries.map(CatalogKey.normalize)
let baselineTable = Dictionary(uniqueKeysWithValues: catalog.profiles.enumerated().map { ($1.lookupKey, $0) })
let iterations = Int(CommandLine.arguments.dropFirst().first ?? "") ?? 100
let baseline = measure("baseline dictionary probe (pre-normalized)", iterations: iterations, perIteration: queries.count) {
    var hits = 0
    for q in normalizedQueries where baselineTable[q] != nil { hits += 1 }
    return hits
}
let full = measure("resolve (normalize + family keys + chain)", iterations: iterations, perIteration: queries.count) {
    var hits = 0
    for q in queries {
        let fp = ModelIdentifierFingerprintProvider(modelIdentifier: q).fingerprint()
        if resolver.resolve(fp, signals: signals, now: now).source == .seedCatalog { hits += 1 }
    }
    return hits
}
print(String(format: "ratio resolve/baseline: %.2fx the baseline's time per lookup", baseline / full))
print(full >= 1_000_000 ? "target met: >= 1,000,000 lookups/s" : "TARGET MISSED: < 1,000,000 lookups/s")
