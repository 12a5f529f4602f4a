import Foundation
import NFCBench
import NFCBenchRecords
import NFCCatalogRemote
import NFCLocatorCore
import NFCPhysics

/// What `catalog publish` is asked to do, checked by the caller.
public struct PublishRequest: Sendable {
    /// The folder a web server serves: the document goes to `v1/catalog` beside its
    /// signature `v1/catalog.minisig`, and every version stays under `v1/versions/N/`.
    public var folder: URL
    public var key: MinisignSecretKey
    /// Who approved the version; required to publish, not for `--dry-run`.
    public var reviewer: String?
    public var dryRun: Bool
    public var policy: PromotionPolicy
    /// Where the evidence was read (no password), recorded in the version.
    public var source: String
    /// The catalog a first version starts from (the seed catalog).
    public var base: CatalogResponseDTO
    public var now: Date

    public init(
        folder: URL, key: MinisignSecretKey, reviewer: String?, dryRun: Bool, policy: PromotionPolicy, source: String,
        base: CatalogResponseDTO, now: Date = Date()
    ) {
        self.folder = folder
        self.key = key
        self.reviewer = reviewer
        self.dryRun = dryRun
        self.policy = policy
        self.source = source
        self.base = base
        self.now = now
    }
}

/// One entry the new version changes, with the evidence behind it.
public struct PublishedChange: Sendable {
    public let key: String
    public let displayName: String
    /// Against the zone in the last version (or the base catalog).
    public let iou: Double
    public let centreShiftMm: Double
    public let sessions: Int
    public let units: Int
    public let readers: [CatalogReaderAntennaDTO]
    public let coil: CatalogCoilDTO
}

/// An entry with bench evidence that the policy kept out, and why.
public struct WithheldEntry: Sendable {
    public let key: String
    public let reasons: [String]
}

/// What publishing did, or would do.
public struct PublishOutcome: Sendable {
    public let previousVersion: Int?
    /// `nil` when nothing changed: no new version is written.
    public let version: Int?
    public let changes: [PublishedChange]
    public let withheld: [WithheldEntry]
    /// Sessions that were never evidence: simulated or void.
    public let leftOutSimulated: Int
    public let leftOutVoid: Int
    public let keyID: String
    public let written: [String]
}

/// Why nothing could be published.
public enum PublishFailure: Error, Sendable, CustomStringConvertible {
    /// The folder holds a last version that this key does not verify.
    case previousUntrusted(String)
    /// Another publisher wrote this version's folder meanwhile.
    case versionTaken(Int)
    case unwritable(String)

    public var description: String {
        switch self {
        case .previousUntrusted(let why): "the last published version in the folder cannot be trusted: \(why)"
        case .versionTaken(let n): "version \(n) already exists in the folder: another publish ran meanwhile"
        case .unwritable(let why): why
        }
    }
}

/// `catalog publish`: the next signed catalog version from the bench evidence that meets
/// the promotion policy. Bench sessions only (simulated and void sessions never count);
/// the published zone is the coil the pooled fit gives (`SessionCoil.pooled`), with its
/// 95 % intervals in the entry's `provenance`; every other entry is carried from the last
/// version unchanged.
public enum CatalogPublishing {
    public static func run(_ request: PublishRequest, store: any BenchReading) async throws -> PublishOutcome {
        let previous = try PublishedFolder(request.folder).lastVersion(verifiedWith: request.key.publicKey)
        let base = previous ?? Self.firstVersionBase(request.base)
        // An entry the lab published itself is refitted from all its evidence, old and new;
        // only entries verified elsewhere are held as they are.
        var refinable = base
        refinable.entries = base.entries.map { entry in
            var entry = entry
            if entry.provenance?.method == CatalogProvenanceDTO.benchRefined { entry.verified = false }
            return entry
        }
        let resolver = AntennaZoneResolver(remote: nil, seed: Catalog(document: refinable))
        // The refiner groups the sessions by entry; whether an entry is published is decided
        // on the coil (`CoilPromotion`), not on the read region the refiner fits.
        var refine = RefineRequest()
        refine.includeSimulated = false
        let outcome: RefineOutcome?
        var leftOutSimulated = 0, leftOutVoid = 0
        do {
            outcome = try await RefineEvidence.run(refine, resolver: resolver, store: store)
        } catch RefineFailure.noEvidence(let simulated, let void, _) {
            (outcome, leftOutSimulated, leftOutVoid) = (nil, simulated, void)
        }
        if outcome != nil {
            let stored = try await store.sessions().filter { $0.status == .completed }
            leftOutSimulated = stored.filter { $0.simulated && !$0.isVoid }.count
            leftOutVoid = stored.filter(\.isVoid).count
        }
        var entries = base.entries
        var changes: [PublishedChange] = []
        var withheld: [WithheldEntry] = []
        for refined in outcome?.report.entries ?? [] {
            if let carried = entries.first(where: { $0.lookupKey() == refined.profile.lookupKey })?.provenance,
                Self.sameEvidence(carried, refined, outcome?.evidence ?? [])
            {
                continue  // published from exactly these sessions: the fit would give the same coil
            }
            switch promotedEntry(refined, evidence: outcome?.evidence ?? [], policy: request.policy) {
            case .success(let (entry, change)):
                guard let index = entries.firstIndex(where: { $0.lookupKey() == refined.profile.lookupKey }) else { continue }
                if entries[index] != entry {
                    entries[index] = entry
                    changes.append(change)
                }
            case .failure(let refusal):
                withheld.append(WithheldEntry(key: refined.profile.lookupKey, reasons: refusal.reasons))
            }
        }
        let previousVersion = previous?.catalogVersion
        guard !changes.isEmpty || previous == nil else {
            return PublishOutcome(
                previousVersion: previousVersion, version: nil, changes: [], withheld: withheld,
                leftOutSimulated: leftOutSimulated, leftOutVoid: leftOutVoid, keyID: request.key.publicKey.keyIDText,
                written: [])
        }
        let version = (previousVersion ?? 0) + 1
        let approvedAt = request.now.formatted(.iso8601)
        let document = CatalogResponseDTO(
            version: "lab-\(version)", generatedAt: approvedAt, entries: entries, catalogVersion: version,
            publication: CatalogPublicationDTO(reviewer: request.reviewer ?? "", approvedAt: approvedAt, source: request.source))
        var written: [String] = []
        if !request.dryRun {
            precondition(request.reviewer?.isEmpty == false, "publishing needs a reviewer; the caller checks")
            written = try PublishedFolder(request.folder).write(
                document, version: version, key: request.key, reviewer: request.reviewer!, at: request.now)
        }
        return PublishOutcome(
            previousVersion: previousVersion, version: version, changes: changes, withheld: withheld,
            leftOutSimulated: leftOutSimulated, leftOutVoid: leftOutVoid, keyID: request.key.publicKey.keyIDText,
            written: written)
    }

    /// Whether an entry the lab published already rests on these very sessions.
    static func sameEvidence(_ carried: CatalogProvenanceDTO, _ refined: EntryRefinement, _ evidence: [SessionEvidence])
        -> Bool
    {
        guard carried.method == CatalogProvenanceDTO.benchRefined else { return false }
        let ids = Set(refined.evidence.sessionIDs)
        let sessions = evidence.filter { ids.contains($0.session.id) }
        return carried.sessions == sessions.count && carried.lastSession == newest(sessions)?.session.id
    }

    static func newest(_ sessions: [SessionEvidence]) -> SessionEvidence? {
        sessions.max {
            ($0.session.endedAt ?? $0.session.startedAt, $0.session.id) < (
                $1.session.endedAt ?? $1.session.startedAt, $1.session.id
            )
        }
    }

    /// A first version starts from the seed catalog, each entry marked by where it came
    /// from: a verified seed row was measured by someone else (imported), the rest inferred.
    static func firstVersionBase(_ seed: CatalogResponseDTO) -> CatalogResponseDTO {
        var base = seed
        base.entries = seed.entries.map { entry in
            var entry = entry
            if entry.provenance == nil {
                entry.provenance = CatalogProvenanceDTO(
                    method: entry.verified == true ? CatalogProvenanceDTO.imported : CatalogProvenanceDTO.inferred)
            }
            return entry
        }
        return base
    }

    /// The entry as published, when its evidence meets the policy and locates the coil.
    static func promotedEntry(_ refined: EntryRefinement, evidence: [SessionEvidence], policy: PromotionPolicy) -> Result<
        (CatalogEntryDTO, PublishedChange), PublishRefusal
    > {
        switch refined.outcome {
        case .refined: break
        case .noReads: return .failure(PublishRefusal(["no tap read"]))
        case .tooFewSessions(let needed): return .failure(PublishRefusal(["fewer than \(needed) sessions"]))
        case .verifiedAgrees, .verifiedDisagrees:
            return .failure(PublishRefusal(["verified by another source; bench evidence is compared with it, not published"]))
        }
        let profile = refined.profile
        guard let bodyHeight = profile.bodyHeightMm else {
            return .failure(PublishRefusal(["the catalog publishes no body size for this model"]))
        }
        let bodyWidth = profile.entry.bodyWidthMm ?? bodyHeight * profile.aspectRatio
        let ids = Set(refined.evidence.sessionIDs)
        let sessions = evidence.filter { ids.contains($0.session.id) }
        let promotion = CoilPromotion(policy: policy, bodyWidthMm: bodyWidth, bodyHeightMm: bodyHeight)
        let coil: CoilEstimate
        switch promotion.judge(sessions, units: refined.evidence.units.count) {
        case .success(let estimate): coil = estimate
        case .failure(let refusal): return .failure(refusal)
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
        let newest = Self.newest(sessions)
        func interval(_ i: CoilEstimate.Interval) -> CatalogIntervalDTO {
            func r(_ v: Double) -> Double { (v * 10).rounded() / 10 }
            return CatalogIntervalDTO(value: r(i.value), low: r(i.low), high: r(i.high))
        }
        let coilDTO = CatalogCoilDTO(
            centreXMm: interval(coil.centreX), centreYMm: interval(coil.centreY), widthMm: interval(coil.width),
            heightMm: interval(coil.height))
        var entry = profile.entry
        entry.zoneX = zone.x
        entry.zoneY = zone.y
        entry.zoneWidth = zone.width
        entry.zoneHeight = zone.height
        entry.verified = true
        entry.lastVerifiedAt = refined.evidence.newestBench?.formatted(.iso8601)
        entry.zoneProvenance =
            "bench-refined: the coil fitted to \(sessions.count) bench session(s) on \(refined.evidence.units.count) "
            + "labelled unit(s) with \(readers.count) reader antenna size(s); nfcbench catalog publish"
        entry.provenance = CatalogProvenanceDTO(
            method: CatalogProvenanceDTO.benchRefined, sessions: sessions.count, units: refined.evidence.units.count,
            readerAntennas: readers, coil: coilDTO, lastSession: newest?.session.id,
            lastSessionAt: newest.map { ($0.session.endedAt ?? $0.session.startedAt).formatted(.iso8601) })
        let old = profile.zone
        let shift = hypot(
            (zone.x + zone.width / 2 - old.x - old.width / 2) * bodyWidth,
            (zone.y + zone.height / 2 - old.y - old.height / 2) * bodyHeight)
        let change = PublishedChange(
            key: profile.lookupKey, displayName: profile.entry.displayName, iou: zone.iou(with: old), centreShiftMm: shift,
            sessions: sessions.count, units: refined.evidence.units.count, readers: readers, coil: coilDTO)
        return .success((entry, change))
    }
}

/// Why an entry with evidence was not published.
public struct PublishRefusal: Error, Sendable {
    public let reasons: [String]
    init(_ reasons: [String]) { self.reasons = reasons }
}
