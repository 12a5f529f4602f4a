import Foundation
import NFCLocatorCore
import NFCStore

extension SessionRecord {
    /// A new session as `resolution` predicts it. The prediction (zone, confidence,
    /// source, staleness, catalog version) is stored with the taps, so a session is always
    /// scored against the catalog it was run with. Reader fields and the plan's probes
    /// are filled in once the reader is open and the plan is known.
    public init(id: String, model: String, resolution r: AntennaResolution, plan: PlanKind, planPass: Int = 0,
                unit: String?, operatorName: String?, repeats: Int, tapTimeout: Double, startedAt: Date,
                defaultAspectRatio: Double = 0.48) {
        self.init(
            id: id, modelInput: model, lookupKey: r.lookupKey, displayName: r.profile?.displayName,
            predicted: r.zone.map { [$0.x, $0.y, $0.width, $0.height] }, confidence: r.confidence.rawValue,
            source: r.source.rawValue, stale: r.isStale, catalogVersion: r.catalogVersion,
            aspectRatio: r.profile?.aspectRatio ?? defaultAspectRatio, readerBackend: "", readerName: "", readerFirmware: nil,
            unit: unit, operatorName: operatorName, planKind: plan.rawValue, planJSON: "", repeats: repeats,
            tapTimeout: tapTimeout, startedAt: startedAt, planPass: planPass)
    }
}
