import Foundation
import NFCBench
import NFCBenchRecords
import NFCBenchStoreSQLite
import NFCBenchUseCases
import NFCLocatorCore
import NFCTestSupport
import Testing

@Suite("Refine as a use case")
struct RefineEvidenceTests {
    let scratch: TemporaryDirectory
    init() throws { scratch = try TemporaryDirectory("refine-use-case") }

    @Test func simulatedSessionsAreLeftOutUnlessAskedAndThePatchIsValid() async throws {
        let store = try await SQLiteBenchStore.open(path: scratch.database())
        let asked = try request(model: "SM-S921B")
        guard case .model(_, _, let resolver) = asked.subject else {
            Issue.record("a model's request has no resolver: \(asked.subject)")
            return
        }
        for _ in 0..<2 {
            _ = try await RunStart.prepare(asked, store: store) { prepared in
                try await RunExecution().run(prepared, store: store, commands: nil, events: { _ in })
            }
        }
        var refine = RefineRequest()
        do {
            _ = try await RefineEvidence.run(refine, resolver: resolver, store: store)
            Issue.record("simulated sessions counted as evidence")
        } catch RefineFailure.noEvidence(let simulated, let void, _) {
            #expect(simulated == 2 && void == 0)
        }
        refine.includeSimulated = true
        refine.wantsPatch = true
        let outcome = try await RefineEvidence.run(refine, resolver: resolver, store: store)
        #expect(outcome.report.entries.count == 1 && outcome.report.entries[0].evidence.sessionIDs.count == 2)
        let patch = try RefinementPatch.read(try #require(outcome.patch))
        #expect(patch.entries.count == 1)
        #expect(
            Catalog(
                document: CatalogResponseDTO(
                    version: patch.version, generatedAt: patch.generatedAt, entries: patch.entries.map(\.entry))
            ).skippedRows.isEmpty)
    }
}
