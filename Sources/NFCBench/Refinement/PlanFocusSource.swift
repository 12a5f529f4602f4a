import Foundation
import NFCBenchRecords
import NFCLocatorCore

extension CatalogRefiner {
    /// Where the sessions that count toward `model`'s catalog entry leave its edges
    /// uncertain: the focus of its next adaptive session, or `nil` before any reads.
    ///
    /// Fitted with no reach, whatever the refiner's: a plan needs the half-read boundary,
    /// where a tap's outcome is least certain and so tells the most, not the coil edge
    /// behind it.
    public func focus(for model: String, from evidence: [SessionEvidence]) -> PlanFocus? {
        learnedFocus(for: model, from: evidence)?.focus
    }

    /// The focus and the sessions whose evidence it pools, in the order they were given.
    public func learnedFocus(for model: String, from evidence: [SessionEvidence]) -> PlanLearning.Learned? {
        let fingerprint = ModelIdentifierFingerprintProvider(modelIdentifier: model).fingerprint()
        guard let key = resolver.resolve(fingerprint, signals: .inferred(from: fingerprint, model: model)).profile?.lookupKey
        else { return nil }
        var planner = self
        planner.reachMm = 0
        guard let entry = planner.refine(evidence, only: key).entries.first, let estimate = entry.estimate,
            let focus = PlanFocus(estimate, sessions: entry.evidence.sessionIDs.count)
        else { return nil }
        return PlanLearning.Learned(focus: focus, sessionIDs: entry.evidence.sessionIDs)
    }
}
