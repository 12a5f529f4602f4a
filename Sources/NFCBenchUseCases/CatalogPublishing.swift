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
        // Sessions are grouped by the entry their model resolves to, as refine groups them;
        // taps are read only for the entries whose evidence changed since the last version.
        let refiner = CatalogRefiner(resolver: AntennaZoneResolver(remote: nil, seed: Catalog(document: refinable)))
        let completed = try await store.sessions().filter { $0.status == .completed }
        var groups: [String: (profile: DeviceAntennaProfile, sessions: [SessionRecord])] = [:]
        for session in completed where refiner.counts(session, since: nil) {
            guard let profile = refiner.entry(for: session) else { continue }
            groups[profile.lookupKey, default: (profile, [])].sessions.append(session)
        }
        var entries = base.entries
        // Each entry's key once: a search per group re-normalised 10,000 keys 10,000 times.
        var position: [String: Int] = [:]
        for (index, entry) in entries.enumerated() {
            let key = entry.lookupKey()
            if position[key] == nil { position[key] = index }
        }
        var changes: [PublishedChange] = []
        var withheld: [WithheldEntry] = []
        for key in groups.keys.sorted() {
            let (profile, sessions) = groups[key]!
            guard let index = position[key] else { continue }
            if let carried = entries[index].provenance, PublishedEntry.sameEvidence(carried, sessions) {
                continue  // published from exactly these sessions: the fit would give the same coil
            }
            guard !profile.verified else {
                withheld.append(
                    WithheldEntry(
                        key: key, reasons: ["verified by another source; bench evidence is compared with it, not published"]))
                continue
            }
            var evidence: [SessionEvidence] = []
            for session in sessions {
                guard let taps = try await store.intactTaps(of: session) else { continue }  // damaged: said by the caller
                evidence.append(SessionEvidence(session: session, taps: taps))
            }
            switch PublishedEntry.judge(profile, evidence, policy: request.policy) {
            case .success(let (entry, change)):
                if entries[index] != entry {
                    entries[index] = entry
                    changes.append(change)
                }
            case .failure(let refusal):
                withheld.append(WithheldEntry(key: key, reasons: refusal.reasons))
            }
        }
        let leftOutSimulated = completed.filter { $0.simulated && !$0.isVoid }.count
        let leftOutVoid = completed.filter(\.isVoid).count
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
}

/// Why an entry with evidence was not published.
public struct PublishRefusal: Error, Sendable {
    public let reasons: [String]
    init(_ reasons: [String]) { self.reasons = reasons }
}
