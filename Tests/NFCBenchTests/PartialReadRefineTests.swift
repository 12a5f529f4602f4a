import Foundation
import NFCBench
import NFCBenchRecords
import NFCLocatorCore
import Testing

/// A partial tag read in refine: a read for the counts, one read in two tries for the fit.
@Suite("Partial tag reads in refine")
struct PartialReadRefineTests {
    @Test func aPartialReadWeighsAsOneReadInTwoTries() throws {
        let start = Date(timeIntervalSince1970: 1_790_000_000)
        let session = SessionRecord(
            id: "S-20261201-010000-part", modelInput: "SM-S921B", lookupKey: "sm_s921b", displayName: "Galaxy S24",
            predicted: try NormalizedRect(x: 0.1, y: 0.36, width: 0.8, height: 0.38), confidence: .approximate,
            source: .seedCatalog, stale: true, catalogVersion: nil, aspectRatio: 0.4803, reader: .sim, readerFirmware: nil,
            unit: "u1", operatorName: nil, plan: .adaptive, repeats: 1, tapTimeout: 2, status: .completed, startedAt: start,
            endedAt: start + 60, mode: .tag)
        let results: [(Probe, TapRecord.Result, TagProgress?)] = [
            (Probe(x: 0.5, y: 0.55), .hit, .ndefRead), (Probe(x: 0.2, y: 0.55), .partial, .capabilitiesRead),
            (Probe(x: 0.5, y: 0.05), .miss, nil),
        ]
        let taps = results.enumerated().map { i, r in
            TapRecord(
                sessionID: session.id, step: i, attempt: 0, probe: r.0, insidePredicted: true, result: r.1,
                timestamp: start + Double(i), tagProgress: r.2)
        }
        let report = CatalogRefiner(resolver: AntennaZoneResolver(remote: nil, seed: seedCatalog), reachMm: 0)
            .refine([SessionEvidence(session: session, taps: taps)])
        let evidence = try #require(report.entries.first?.evidence)
        // Counted as the operator sees them: three taps, two of which read.
        #expect(evidence.taps == 3 && evidence.hits == 2)
        // Fitted as one read in two tries at its position, a full read and a miss as one tap each.
        let partial = try #require(evidence.positions.first { abs($0.x - 0.2) < 1e-9 && abs($0.y - 0.55) < 1e-9 })
        #expect(partial.hits == 1 && partial.taps == 2)
        let hit = try #require(evidence.positions.first { abs($0.x - 0.5) < 1e-9 && abs($0.y - 0.55) < 1e-9 })
        #expect(hit.hits == 1 && hit.taps == 1)
    }
}
