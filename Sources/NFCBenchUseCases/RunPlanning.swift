import Foundation
import NFCBench
import NFCBenchRecords
import NFCBenchSeams
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
        store: (any BenchReading)?, includeSimulated: Bool, pass: Int? = nil, raster: RasterRequest? = nil,
        physics: PlanPhysics? = nil
    ) async throws -> PlannedRun {
        if kind == .raster {
            guard let raster, let height = raster.bodyHeightMm, height > 0 else { throw PlanRefusal.rasterNeedsBodySize }
            guard let plan = RasterPlan(stepMm: raster.stepMm, bodyWidthMm: height * aspectRatio, bodyHeightMm: height)
            else { throw PlanRefusal.rasterTooFine(maximum: RasterPlan.maximumPositions) }
            return PlannedRun(kind: kind, pass: 0, focus: nil, learnedFrom: [], strategy: plan)
        }
        var earlier: [SessionRecord] = []
        if let store { earlier = SessionSelection.sessions(of: model, in: try await store.sessions()) }
        var learned: PlanLearning.Learned?
        if let store, ProbePlans.registration(kind).usesFocus {
            learned = try await PlanLearning.focus(
                for: model, earlier: earlier, resolver: resolver, store: store, includeSimulated: includeSimulated)
        }
        let chosenPass = pass ?? earlier.count
        let strategy = ProbePlans.make(
            kind, around: zone, aspectRatio: aspectRatio, pass: chosenPass, focus: learned?.focus, physics: physics)
        return PlannedRun(
            kind: kind, pass: chosenPass, focus: learned?.focus, learnedFrom: learned?.sessionIDs ?? [], strategy: strategy)
    }
}

/// A raster's step, with the published body height that turns it into positions.
public struct RasterRequest: Sendable {
    public let stepMm: Double
    public let bodyHeightMm: Double?

    public init(stepMm: Double, bodyHeightMm: Double?) {
        self.stepMm = stepMm
        self.bodyHeightMm = bodyHeightMm
    }
}

/// Why a plan cannot be made for a model.
public enum PlanRefusal: Error, Sendable, Equatable {
    /// A raster is laid out in millimetres; the catalog has no body size for the model.
    case rasterNeedsBodySize
    case rasterTooFine(maximum: Int)
}
