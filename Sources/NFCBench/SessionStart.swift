import Foundation
import NFCBenchRecords
import NFCBenchSeams
import NFCLocatorCore
import NFCReaders

extension SessionRecord {
    /// A new session as `resolution` predicts it. The prediction (zone, confidence,
    /// source, staleness, catalog version) is stored with the taps, so a session is always
    /// scored against the catalog it was run with.
    public init(
        id: String, model: String, resolution r: AntennaResolution, plan: PlanKind, planPass: Int = 0,
        planFocus: PlanFocus? = nil,
        reader: ReaderSpec, readerFirmware: String?, simulated: Bool, unit: String?, operatorName: String?,
        repeats: Int, tapTimeout: Double, startedAt: Date, defaultAspectRatio: Double = 0.48,
        strategy planned: (any ProbeStrategy)? = nil
    ) {
        let aspectRatio = r.profile?.aspectRatio ?? defaultAspectRatio
        let focus = ProbePlans.registration(plan).usesFocus ? planFocus : nil
        // A plan made with more than the catalog knows (a raster's step) is passed in made.
        let strategy =
            planned ?? ProbePlans.make(plan, around: r.zone, aspectRatio: aspectRatio, pass: planPass, focus: focus)
        self.init(
            id: id, modelInput: model, lookupKey: r.lookupKey, displayName: r.profile?.displayName, predicted: r.zone,
            confidence: r.confidence, source: r.source, stale: r.isStale, catalogVersion: r.catalogVersion,
            aspectRatio: aspectRatio, reader: reader, readerFirmware: readerFirmware, unit: unit, operatorName: operatorName,
            plan: plan, planPass: planPass, plannedProbes: strategy.storedProbes(for: r.zone), repeats: repeats,
            tapTimeout: tapTimeout, startedAt: startedAt, bodyHeightMm: r.profile?.bodyHeightMm, simulated: simulated,
            planFocus: focus)
    }

    /// The plan this session follows, rebuilt from what it stored.
    public var strategy: any ProbeStrategy {
        HeightLayers.rebuild(from: plannedProbes) { planned in
            ProbePlans.make(
                plan, around: predicted, aspectRatio: aspectRatio, pass: planPass, focus: planFocus, planned: planned,
                physics: PlanPhysics(self))
        }
    }
}
