import Foundation
import NFCBench
import NFCBenchRecords
import NFCLocatorCore
import NFCPhysics

/// One catalog entry as `catalog publish` writes it from its bench sessions: the coil the
/// pooled fit gives (`SessionCoil.pooled`) as its zone, verified, with its provenance.
enum PublishedEntry {
    /// The entry as published, when its sessions meet the policy (`CoilPromotion`) and
    /// locate the coil; else every reason it is withheld.
    static func judge(_ profile: DeviceAntennaProfile, _ sessions: [SessionEvidence], policy: PromotionPolicy) -> Result<
        (CatalogEntryDTO, PublishedChange), PublishRefusal
    > {
        guard let (bodyWidth, bodyHeight) = profile.coilBodyMm else {
            return .failure(PublishRefusal(["the catalog publishes no body size for this model"]))
        }
        let units = Set(sessions.compactMap { $0.session.unit?.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
        let promotion = CoilPromotion(policy: policy, bodyWidthMm: bodyWidth, bodyHeightMm: bodyHeight)
        let coil: CoilEstimate
        switch promotion.judge(sessions, units: units.count) {
        case .success(let estimate): coil = estimate
        case .failure(let unmet): return .failure(PublishRefusal(unmet.reasons))
        }
        let rect = coil.rectangle
        func unit(_ v: Double) -> Double { min(1, max(0, v)) }
        guard
            let zone = try? NormalizedRect(
                x0: unit(rect.x / bodyWidth), y0: unit(rect.y / bodyHeight), x1: unit((rect.x + rect.width) / bodyWidth),
                y1: unit((rect.y + rect.height) / bodyHeight))
        else { return .failure(PublishRefusal(["the fitted coil lies off the phone's back"])) }
        let readers = Array(
            Set(
                sessions.compactMap(\.session.readerGeometry).map {
                    CatalogReaderAntennaDTO(widthMm: $0.antennaWidthMm, heightMm: $0.antennaHeightMm)
                })
        ).sorted { ($0.widthMm, $0.heightMm) < ($1.widthMm, $1.heightMm) }
        let newest = Self.newest(sessions.map(\.session))
        let coilDTO = CatalogCoilDTO(coil)
        var entry = profile.entry
        entry.zoneX = zone.x
        entry.zoneY = zone.y
        entry.zoneWidth = zone.width
        entry.zoneHeight = zone.height
        entry.verified = true
        entry.lastVerifiedAt = newest.map { ($0.endedAt ?? $0.startedAt).formatted(.iso8601) }
        entry.zoneProvenance =
            "bench-refined: the coil fitted to \(sessions.count) bench session(s) on \(units.count) "
            + "labelled unit(s) with \(readers.count) reader antenna size(s); nfcbench catalog publish"
        entry.provenance = CatalogProvenanceDTO(
            method: CatalogProvenanceDTO.benchRefined, sessions: sessions.count, units: units.count,
            readerAntennas: readers, coil: coilDTO, lastSession: newest?.id, lastSessionAt: entry.lastVerifiedAt)
        let old = profile.zone
        let shift = hypot((zone.midX - old.midX) * bodyWidth, (zone.midY - old.midY) * bodyHeight)
        let change = PublishedChange(
            key: profile.lookupKey, displayName: profile.entry.displayName, iou: zone.iou(with: old), centreShiftMm: shift,
            sessions: sessions.count, units: units.count, readers: readers, coil: coilDTO)
        return .success((entry, change))
    }

    /// Whether an entry the lab published already rests on these very sessions: then its
    /// coil would come out the same, and its taps are not even read.
    static func sameEvidence(_ carried: CatalogProvenanceDTO, _ sessions: [SessionRecord]) -> Bool {
        carried.method == CatalogProvenanceDTO.benchRefined && carried.sessions == sessions.count
            && carried.lastSession == newest(sessions)?.id
    }

    /// The session that ended last (ties by id, so the choice never depends on order).
    static func newest(_ sessions: [SessionRecord]) -> SessionRecord? {
        sessions.max { ($0.endedAt ?? $0.startedAt, $0.id) < ($1.endedAt ?? $1.startedAt, $1.id) }
    }
}
