import Foundation
import NFCBenchRecords
import NFCLocatorCore

/// What a new adaptive session learns from the store before its first tap.
public enum PlanLearning {
    /// A learned focus and the sessions it was learned from.
    public struct Learned: Sendable, Equatable {
        public let focus: PlanFocus
        public let sessionIDs: [String]
    }

    /// The focus of a new session of `model`: the pooled evidence of its completed,
    /// non-void sessions, bench evidence only unless `includeSimulated` (a demo may learn
    /// from simulations when asked to; nothing plans from them by default).
    /// `earlier`: the model's sessions (`SessionSelection.sessions(of:in:)`); taps are
    /// read only for those that count.
    public static func focus(
        for model: String, earlier: [SessionRecord], resolver: AntennaZoneResolver, store: any BenchReading,
        includeSimulated: Bool
    ) async throws -> Learned? {
        let refiner = CatalogRefiner(resolver: resolver, includeSimulated: includeSimulated)
        var evidence: [SessionEvidence] = []
        for session in earlier where refiner.counts(session, since: nil) {
            guard let taps = try await store.intactTaps(of: session) else { continue }
            evidence.append(SessionEvidence(session: session, taps: taps))
        }
        return refiner.learnedFocus(for: model, from: evidence)
    }
}
