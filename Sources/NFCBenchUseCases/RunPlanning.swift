import Foundation
import NFCBench
import NFCBenchRecords
import NFCLocatorCore

/// The positions a new session of a model would tap now, computed once for `run`, `plan`
/// and `template`, so what is printed is what is tapped: the grid pass the model's
/// earlier sessions give, and the focus an adaptive plan learns from their bench
/// evidence (simulated sessions only when asked for).
public struct PlannedRun: Sendable {
    public let kind: PlanKind
    public let pass: Int
    public let focus: PlanFocus?
    /// The sessions the focus was learned from (empty without a focus).
    public let learnedFrom: [String]
    public let strategy: any ProbeStrategy
}

public enum RunPlanning {
    /// `earlier`: the model's sessions in the store (none without a store); `pass`: a grid
    /// pass to use instead of the count of earlier sessions.
    public static func plan(
        model: String, kind: PlanKind, zone: NormalizedRect?, aspectRatio: Double, resolver: AntennaZoneResolver,
        store: (any BenchReading)?, includeSimulated: Bool, pass: Int? = nil
    ) async throws -> PlannedRun {
        var earlier: [SessionRecord] = []
        if let store { earlier = SessionSelection.sessions(of: model, in: try await store.sessions()) }
        var learned: PlanLearning.Learned?
        if let store, ProbePlans.registration(kind).usesFocus {
            learned = try await PlanLearning.focus(
                for: model, earlier: earlier, resolver: resolver, store: store, includeSimulated: includeSimulated)
        }
        let chosenPass = pass ?? earlier.count
        let strategy = ProbePlans.make(kind, around: zone, aspectRatio: aspectRatio, pass: chosenPass, focus: learned?.focus)
        return PlannedRun(
            kind: kind, pass: chosenPass, focus: learned?.focus, learnedFrom: learned?.sessionIDs ?? [], strategy: strategy)
    }
}
