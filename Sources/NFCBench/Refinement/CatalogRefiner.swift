import Foundation
import NFCBenchRecords
import NFCLocatorCore
import NFCPhysics

/// One stored session with its taps: the unit of bench evidence.
public struct SessionEvidence: Sendable {
    public let session: SessionRecord
    public let taps: [TapRecord]
    /// Only the taps at one height: on the back (0) by default, since a motion stage's
    /// layers above it (`--heights`) map how far the field reaches, not where the coil is;
    /// `refine --at-height MM` asks for another layer. A position that missed lower down
    /// was not tapped that high (`HeightLayers`): its miss stands for this layer too, as
    /// the run's own rule says (the field only weakens with distance), so the layer's fit
    /// is bounded by misses and not by the hits alone.
    public init(session: SessionRecord, taps: [TapRecord], heightMm: Double = 0) {
        self.session = session
        let layer = taps.filter { $0.probe.heightMm == heightMm }
        guard heightMm > 0 else {
            self.taps = layer
            return
        }
        let tappedHere = Set(layer.map { Probe(x: $0.probe.x, y: $0.probe.y) })
        var missedBelow: [Probe: TapRecord] = [:]
        for tap in taps where tap.probe.heightMm < heightMm && tap.result == .miss {
            let point = Probe(x: tap.probe.x, y: tap.probe.y)
            if !tappedHere.contains(point), missedBelow[point] == nil { missedBelow[point] = tap }
        }
        self.taps = layer + missedBelow.values.sorted { ($0.step, $0.attempt) < ($1.step, $1.attempt) }
    }

    /// Answered taps only: a skipped position says nothing about the coil. A partial tag
    /// read counts as one read in two tries: the phone's field powered the tag (so the
    /// position is within reach) but not well enough to finish, which is what the edge's
    /// fall-off band looks like, where the read rate is about a half.
    var observations: [(x: Double, y: Double, hit: Bool)] {
        taps.filter { $0.result != .skipped }.flatMap { t -> [(x: Double, y: Double, hit: Bool)] in
            t.result == .partial
                ? [(t.probeX, t.probeY, true), (t.probeX, t.probeY, false)] : [(t.probeX, t.probeY, t.result == .hit)]
        }
    }

    /// `run --coupling`: the graded reads, each with its grade on the standard ladder (a
    /// read graded on another ladder counts as a plain read: `TapRecord.grade(on:)`).
    var gradedReads: [(x: Double, y: Double, grade: Double)] {
        taps.filter { $0.result == .hit }.compactMap { t in t.grade().map { (t.probeX, t.probeY, $0) } }
    }

    /// Taps the operator made, and those that read (a partial read counts as a read here;
    /// the fit weighs it as half of one).
    var answeredTaps: Int { taps.filter { $0.result != .skipped }.count }
    var readTaps: Int { taps.filter { $0.result.read }.count }

    /// When the evidence was complete.
    var finishedAt: Date { session.endedAt ?? session.startedAt }
}

/// Turns completed sessions into refined catalog entries.
///
/// Sessions are grouped by the catalog entry their model resolves to in the given
/// catalog, so regional variants (SM-S921U, SM-S921N) count toward their family's entry.
/// Taps are pooled per entry and fitted by `ZoneEstimator`, which gives the read region;
/// the sessions that record their reader's antenna also pool into one coil fit under the
/// physics of two loops (`SessionCoil.pooled`, each bench with its own threshold), and
/// where there is one, the coil is the zone compared and written (docs/physics.md).
/// Verified entries are never changed: evidence against them is reported as a
/// disagreement, with figures.
public struct CatalogRefiner: Sendable {
    public var resolver: AntennaZoneResolver
    public var minimumSessions: Int
    public var promote: Bool
    public var policy: PromotionPolicy
    /// The reader's reach in millimetres (`DetectionModel.reach`), converted per model
    /// with its published body height.
    public var reachMm: Double
    /// Below this IoU, evidence and a verified zone disagree.
    public var disagreementIoU: Double
    /// Count sessions taken with a simulated reader or a virtual bench
    /// (`--include-simulated`). Their entries are never promoted, and the patch says so.
    public var includeSimulated: Bool

    public init(
        resolver: AntennaZoneResolver, minimumSessions: Int = 1, promote: Bool = false,
        policy: PromotionPolicy = PromotionPolicy(), reachMm: Double = 0, disagreementIoU: Double = 0.5,
        includeSimulated: Bool = false
    ) {
        precondition(minimumSessions >= 1, "refinement needs at least one session")
        precondition(reachMm >= 0, "reach cannot be negative")
        self.resolver = resolver
        self.minimumSessions = minimumSessions
        self.promote = promote
        self.policy = policy
        self.reachMm = reachMm
        self.disagreementIoU = disagreementIoU
        self.includeSimulated = includeSimulated
    }

    /// Body height used to convert `reachMm` when an entry has none published.
    public static let assumedBodyHeightMm = 150.0

    /// Whether a session is evidence at all: completed, not void, not older than `since`,
    /// and bench evidence (not simulated) unless `includeSimulated`.
    public func counts(_ session: SessionRecord, since: Date?) -> Bool {
        session.status == .completed && !session.isVoid && (includeSimulated || !session.simulated)
            && since.map { session.startedAt >= $0 } ?? true
    }

    /// The catalog entry a session's taps count toward: the one its model resolves to.
    public func entry(for session: SessionRecord) -> DeviceAntennaProfile? {
        let fingerprint = ModelIdentifierFingerprintProvider(modelIdentifier: session.modelInput).fingerprint()
        return resolver.resolve(fingerprint, signals: .inferred(from: fingerprint, model: session.modelInput)).profile
    }

    /// `only`: a catalog key to refine alone (`--model`); `since`: ignore older sessions.
    public func refine(_ evidence: [SessionEvidence], only: String? = nil, since: Date? = nil) -> RefinementReport {
        var groups: [String: (profile: DeviceAntennaProfile, sessions: [SessionEvidence])] = [:]
        var unmatched: [String: Int] = [:]
        for item in evidence where counts(item.session, since: since) {
            guard let profile = entry(for: item.session) else {
                if only == nil { unmatched[item.session.modelInput, default: 0] += 1 }
                continue
            }
            guard only == nil || only == profile.lookupKey else { continue }
            groups[profile.lookupKey, default: (profile, [])].sessions.append(item)
        }
        let entries = groups.keys.sorted().map { key in refine(groups[key]!.profile, groups[key]!.sessions) }
        return RefinementReport(entries: entries, unmatchedModels: unmatched)
    }

    func refine(_ profile: DeviceAntennaProfile, _ sessions: [SessionEvidence]) -> EntryRefinement {
        let sessions = sessions.sorted { $0.session.startedAt < $1.session.startedAt }
        let observations = sessions.flatMap(\.observations)
        let tallies = PositionTally.pool(observations, grades: sessions.flatMap(\.gradedReads))
        let bodyHeight = profile.bodyHeightMm ?? Self.assumedBodyHeightMm
        let estimator = ZoneEstimator(model: DetectionModel(reach: reachMm / bodyHeight), aspectRatio: profile.aspectRatio)
        let units = Set(sessions.compactMap { $0.session.unit?.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
        let evidence = EntryRefinement.Evidence(
            sessionIDs: sessions.map(\.session.id), taps: sessions.map(\.answeredTaps).reduce(0, +),
            hits: sessions.map(\.readTaps).reduce(0, +),
            units: units.sorted(), first: sessions.first?.finishedAt, newest: sessions.map(\.finishedAt).max(),
            positions: tallies, reachMm: reachMm, assumedBodyHeight: profile.bodyHeightMm == nil,
            simulatedSessions: sessions.filter(\.session.simulated).count,
            newestBench: sessions.filter { !$0.session.simulated }.map(\.finishedAt).max(),
            tagSessions: sessions.filter { $0.session.mode == .tag }.count)
        guard let estimate = estimator.estimate(tallies) else {
            return EntryRefinement(profile: profile, evidence: evidence, estimate: nil, sessionDeviance: [], outcome: .noReads)
        }
        let coil = Self.coil(profile, sessions)
        // Likelihood-ratio deviance of each session: how much better its own best
        // rectangle explains its taps than the pooled one does.
        let deviance = sessions.map { s in
            let own = PositionTally.pool(s.observations, grades: s.gradedReads)
            guard let alone = estimator.estimate(own) else { return 0.0 }
            return max(0, 2 * (alone.logLikelihood - estimator.logLikelihood(of: estimate.zone, own)))
        }
        let outcome: EntryRefinement.Outcome
        let compared = coil.flatMap { EntryRefinement.zone(of: $0.estimate, profile) } ?? estimate.zone
        if profile.verified {
            outcome = compared.iou(with: profile.zone) < disagreementIoU ? .verifiedDisagrees : .verifiedAgrees
        } else if sessions.count < minimumSessions {
            outcome = .tooFewSessions(needed: minimumSessions)
        } else {
            var unmet = promotionUnmet(profile, sessions, units: units.count, deviance: deviance, estimate, coil: coil)
            if evidence.simulatedSessions > 0 {
                unmet.insert(
                    "\(evidence.simulatedSessions) of the sessions are simulated (--include-simulated): never promotable", at: 0)
            }
            outcome = .refined(promoted: promote && unmet.isEmpty, unmet: unmet)
        }
        // Graded evidence: what the binary taps alone would have fitted, to say what the grades added.
        let graded = tallies.map(\.grades.count).reduce(0, +)
        let binary = graded > 0 ? estimator.estimate(PositionTally.binary(tallies)) : nil
        return EntryRefinement(
            profile: profile, evidence: evidence, estimate: estimate, sessionDeviance: deviance, outcome: outcome,
            gradedReads: graded, binaryEstimate: binary,
            gradesSetAside: sessions.map { $0.taps.filter { $0.result == .hit && $0.gradeSetAside() }.count }.reduce(0, +),
            coil: coil?.estimate, coilSessions: coil?.sessions ?? 0)
    }

    /// What promotion still needs: the policy asked of the coil where the coil is what is
    /// written (`CoilPromotion`, as `catalog publish` asks it), else of the read region.
    func promotionUnmet(
        _ profile: DeviceAntennaProfile, _ sessions: [SessionEvidence], units: Int, deviance: [Double], _ estimate: ZoneEstimate,
        coil: (estimate: CoilEstimate, sessions: Int)?
    ) -> [String] {
        guard let coil, let body = profile.coilBodyMm else {
            return policy.unmet(sessions: sessions.count, units: units, sessionDeviance: deviance, estimate: estimate)
        }
        let measured = sessions.filter { $0.session.readerGeometry != nil }
        let measuredUnits = Set(
            measured.compactMap { $0.session.unit?.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
        let promotion = CoilPromotion(policy: policy, bodyWidthMm: body.width, bodyHeightMm: body.height)
        switch promotion.judge(measured, units: measuredUnits.count, pooled: coil.estimate) {
        case .success: return []
        case .failure(let unmet): return unmet.reasons
        }
    }

    /// The coil the sessions that record their reader's antenna say together, and how many
    /// they are; `nil` without such sessions, without a published body, or without a read.
    static func coil(_ profile: DeviceAntennaProfile, _ sessions: [SessionEvidence]) -> (
        estimate: CoilEstimate, sessions: Int
    )? {
        guard let body = profile.coilBodyMm else { return nil }
        let measured = sessions.filter { $0.session.readerGeometry != nil }
        guard !measured.isEmpty,
            case .success(let estimate) = SessionCoil.pooled(
                measured.map { ($0.session, $0.taps) }, bodyWidthMm: body.width, bodyHeightMm: body.height)
        else { return nil }
        return (estimate, measured.count)
    }
}

/// What `refine` found for every entry with evidence.
public struct RefinementReport: Sendable {
    public let entries: [EntryRefinement]
    /// Models with completed sessions but no catalog entry to refine, with session
    /// counts (with `only`, none: they are not what was asked about).
    public let unmatchedModels: [String: Int]
}

/// The evidence for one catalog entry, the fitted zone and what was decided.
public struct EntryRefinement: Sendable {
    public struct Evidence: Sendable {
        public let sessionIDs: [String]
        public let taps: Int
        public let hits: Int
        public let units: [String]
        public let first: Date?
        public let newest: Date?
        public let positions: [PositionTally]
        public let reachMm: Double
        /// The entry publishes no body height; `reachMm` was converted with a typical one.
        public let assumedBodyHeight: Bool
        /// Sessions taken with a simulated reader or a virtual bench, counted only with
        /// `--include-simulated`.
        public let simulatedSessions: Int
        /// The newest session a real reader took: only it may refresh `lastVerifiedAt`,
        /// so simulated evidence never makes a stale entry look fresh.
        public let newestBench: Date?
        /// Of `sessionIDs`, those in tag mode (the phone's reader read an emulated tag);
        /// the rest are card mode. Both modes locate the same coil and are pooled.
        public var tagSessions = 0
    }

    public enum Outcome: Sendable, Equatable {
        /// Patched; `unmet` lists the promotion conditions that failed (empty: all passed).
        case refined(promoted: Bool, unmet: [String])
        case tooFewSessions(needed: Int)
        case verifiedAgrees
        case verifiedDisagrees
        case noReads
    }

    public let profile: DeviceAntennaProfile
    public let evidence: Evidence
    public let estimate: ZoneEstimate?
    /// Per session, oldest first: twice the log-likelihood its own best rectangle gains
    /// over the pooled one on its taps. Near 0: the session agrees with the others.
    public let sessionDeviance: [Double]
    public let outcome: Outcome
    /// `run --coupling` evidence: how many reads were graded, and the fit the binary taps
    /// alone give (`nil` without grades), to show what the grades added.
    public var gradedReads = 0
    public var binaryEstimate: ZoneEstimate? = nil
    /// Reads graded on another ladder than the standard one, fitted as plain reads: a grade
    /// is a share of its own ladder (`TapRecord.grade(on:)`).
    public var gradesSetAside = 0
    /// The coil in millimetres, pooled over the `coilSessions` sessions that record their
    /// reader's antenna (`nil`: none do, or the entry publishes no body size).
    public var coil: CoilEstimate? = nil
    public var coilSessions = 0

    /// The zone compared with the catalog and written to the patch: the coil where the
    /// sessions give one (the read region is larger than the coil, by an amount that
    /// depends on the reader), else the read region's fit.
    public var zone: NormalizedRect? { coil.flatMap { Self.zone(of: $0, profile) } ?? estimate?.zone }

    /// A coil in millimetres as a share of the entry's back.
    static func zone(of coil: CoilEstimate, _ profile: DeviceAntennaProfile) -> NormalizedRect? {
        guard let height = profile.bodyHeightMm else { return nil }
        let width = height * profile.aspectRatio
        let r = coil.rectangle
        return try? NormalizedRect(x: r.x / width, y: r.y / height, width: r.width / width, height: r.height / height)
    }

    public var iouWithPrevious: Double? { zone.map { $0.iou(with: profile.zone) } }
    /// In body heights.
    public var centreShift: Double? {
        zone.map { $0.centreDistance(to: profile.zone, aspectRatio: profile.aspectRatio) }
    }

    /// For a verified entry the evidence agrees with: the reader reach (mm) that would
    /// make the measured zone coincide with the verified one, averaged over the edges the
    /// evidence bounds. A lab calibrates `--reach-mm` with it on phones it trusts.
    public var impliedReachMm: Double? {
        guard outcome == .verifiedAgrees, coil == nil, let estimate else { return nil }
        let verified = profile.zone, aspect = profile.aspectRatio
        var offsets: [Double] = []
        for (edge, e) in estimate.edges where !e.open {
            switch edge {
            case .left: offsets.append((verified.x - e.value) * aspect)
            case .right: offsets.append((e.value - verified.maxX) * aspect)
            case .top: offsets.append(verified.y - e.value)
            case .bottom: offsets.append(e.value - verified.maxY)
            }
        }
        guard !offsets.isEmpty else { return nil }
        let bodyHeight = profile.bodyHeightMm ?? CatalogRefiner.assumedBodyHeightMm
        return evidence.reachMm + offsets.reduce(0, +) / Double(offsets.count) * bodyHeight
    }

    /// The patched catalog row, when the outcome is `.refined`.
    public var patchedEntry: CatalogEntryDTO? {
        guard case .refined(let promoted, _) = outcome, let zone else { return nil }
        var entry = profile.entry
        entry.zoneX = zone.x; entry.zoneY = zone.y; entry.zoneWidth = zone.width; entry.zoneHeight = zone.height
        if let newestBench = evidence.newestBench {
            entry.lastVerifiedAt = newestBench.formatted(.iso8601)
        }
        if promoted { entry.verified = true }
        entry.zoneProvenance =
            "refined: bench evidence, \(evidence.sessionIDs.count) session(s), \(evidence.taps) taps on "
            + "\(evidence.units.count) labelled unit(s); nfcbench refine, "
            + (coil != nil
                ? "the coil by maximum likelihood under the mutual inductance of two loops, from \(coilSessions) session(s) "
                    + "that record their reader's antenna"
                : "maximum-likelihood fit of the read region")
            + (promoted ? "; promoted to verified" : "; unverified")
            + (evidence.simulatedSessions > 0
                ? "; SIMULATED evidence: \(evidence.simulatedSessions) session(s) from a simulated reader, not bench evidence"
                : "")
        return entry
    }
}
