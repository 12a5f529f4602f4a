import Foundation
import NFCBench
import NFCBenchRecords
import NFCLocatorCore

/// What `refine` is asked to do, checked and resolved by the caller (the model's catalog key).
public struct RefineRequest: Sendable {
    /// Only the entry with this catalog key; `nil`: every entry with sessions.
    public var lookupKey: String?
    public var since: Date?
    public var minimumSessions = 1
    public var promote = false
    public var reachMm = 0.0
    /// The layer of taps refined: 0, the taps on the back (sessions with `--heights` tap higher too).
    public var heightMm = 0.0
    public var includeSimulated = false
    /// Only sessions of this mode; `nil`: both (card and tag reads locate the same coil).
    public var mode: TapMode?
    /// An earlier patch whose rows the new one carries; `nil`: none.
    public var carrying: RefinementPatch?
    /// Build the patch (checked as `catalog validate` would); without it, report only.
    public var wantsPatch = false

    public init() {}
}

/// What refine found, and the patch when one was asked for.
public struct RefineOutcome: Sendable {
    public let report: RefinementReport
    public let policy: PromotionPolicy
    /// The patch's bytes, valid by construction; `nil` unless asked for.
    public let patch: Data?
}

/// Why refine has nothing to give.
public enum RefineFailure: Error, Sendable {
    /// No completed session counts; what was left out, and models without an entry.
    case noEvidence(leftOutSimulated: Int, leftOutVoid: Int, unmatchedModels: [String])
    /// The refined patch would hold rows catalog validation rejects: a bug in refine.
    case invalidPatch(reasons: [String])
}

/// `refine`: the sessions that count as evidence, read from any store (taps only for
/// those that count), pooled per catalog entry, and the patch they support.
public enum RefineEvidence {
    public static func run(
        _ request: RefineRequest, resolver: AntennaZoneResolver, store: any BenchReading
    ) async throws -> RefineOutcome {
        let refiner = CatalogRefiner(
            resolver: resolver, minimumSessions: request.minimumSessions, promote: request.promote,
            reachMm: request.reachMm, includeSimulated: request.includeSimulated)
        var evidence: [SessionEvidence] = []
        let stored = try await store.sessions()
        for session in stored where refiner.counts(session, since: request.since) {
            if let only = request.lookupKey, refiner.entry(for: session)?.lookupKey != only { continue }
            if let mode = request.mode, session.mode != mode { continue }
            guard let taps = try await store.intactTaps(of: session) else { continue }
            evidence.append(SessionEvidence(session: session, taps: taps, heightMm: request.heightMm))
        }
        let report = refiner.refine(evidence, only: request.lookupKey, since: request.since)
        guard !report.entries.isEmpty else {
            let leftOut = stored.filter { $0.status == .completed && ($0.isVoid || $0.simulated && !request.includeSimulated) }
            throw RefineFailure.noEvidence(
                leftOutSimulated: leftOut.filter { $0.simulated && !$0.isVoid }.count,
                leftOutVoid: leftOut.filter(\.isVoid).count, unmatchedModels: report.unmatchedModels.keys.sorted())
        }
        guard request.wantsPatch else { return RefineOutcome(report: report, policy: refiner.policy, patch: nil) }
        let patch = RefinementPatch(report, policy: refiner.policy, carrying: request.carrying)
        // A patch is only given when `catalog validate` would accept every row of it.
        let rejected = Catalog(
            document: CatalogResponseDTO(
                version: patch.version, generatedAt: patch.generatedAt, entries: patch.entries.map(\.entry))
        ).skippedRows
        guard rejected.isEmpty else { throw RefineFailure.invalidPatch(reasons: rejected.map(\.reason)) }
        return RefineOutcome(report: report, policy: refiner.policy, patch: try patch.encoded())
    }
}
