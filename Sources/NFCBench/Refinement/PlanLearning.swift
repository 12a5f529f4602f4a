import Foundation
import NFCBenchRecords
import NFCLocatorCore

/// What a new adaptive session learns from the store before its first tap.
public enum PlanLearning {
    /// The focus of a new session of `model`: the pooled evidence of its completed,
    /// non-void sessions, bench evidence only unless the new session is itself simulated
    /// (a simulated demo may learn from simulations; a bench run never plans from them).
    /// `earlier`: the model's sessions (`SessionSelection.sessions(of:in:)`); taps are
    /// read only for those that count.
    public static func focus(
        for model: String, earlier: [SessionRecord], resolver: AntennaZoneResolver, store: any BenchReading,
        simulated: Bool
    ) async throws -> PlanFocus? {
        let refiner = CatalogRefiner(resolver: resolver, includeSimulated: simulated)
        var evidence: [SessionEvidence] = []
        for session in earlier where refiner.counts(session, since: nil) {
            guard let taps = try await store.intactTaps(of: session) else { continue }
            evidence.append(SessionEvidence(session: session, taps: taps))
        }
        return refiner.focus(for: model, from: evidence)
    }
}
