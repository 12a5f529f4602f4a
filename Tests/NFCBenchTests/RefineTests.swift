import Foundation
import NFCBench
import NFCBenchRecords
import NFCLocatorCore
import NFCReaders
import NFCTestSupport
import Testing

/// The shipped seed catalog, read from the repository.
let seedCatalog = Catalog(
    document: try! CatalogDocumentDecoder.load(
        contentsOf: Checkout.seedCatalog))

/// The seed entry a model resolves to (regional variants to their family's).
func seedProfile(_ model: String) -> DeviceAntennaProfile {
    let fingerprint = ModelIdentifierFingerprintProvider(modelIdentifier: model).fingerprint()
    return AntennaZoneResolver(remote: nil, seed: seedCatalog)
        .resolve(fingerprint, signals: .inferred(from: fingerprint, model: model)).profile!
}

@Suite("Zone estimation")
struct ZoneEstimationTests {
    @Test func wilsonIntervalsAreHonestAtTheExtremes() {
        let none = Wilson.interval(successes: 0, trials: 3), all = Wilson.interval(successes: 3, trials: 3)
        #expect(none.lowerBound == 0 && abs(none.upperBound - 0.5615) < 0.001)
        #expect(abs(all.lowerBound - 0.4385) < 0.001 && all.upperBound == 1)
        let half = Wilson.interval(successes: 10, trials: 20)
        #expect(abs(half.lowerBound - 0.2993) < 0.001 && abs(half.upperBound - 0.7007) < 0.001)
    }

    @Test func poolingCountsEveryTapAtAPosition() {
        let tallies = PositionTally.pool([(0.5, 0.5, true), (0.5, 0.5, false), (0.50001, 0.5, true), (0.2, 0.1, false)])
        #expect(tallies.count == 2)
        let centre = tallies.first { $0.x == 0.5 }!
        #expect(centre.taps == 3 && centre.hits == 2 && abs(centre.rate - 2.0 / 3) < 1e-9)
    }

    /// A dense, noise-free scan: every edge lands between its last read and first miss,
    /// and the intervals contain the truth.
    @Test func edgesLandBetweenTheLastReadAndTheFirstMiss() async throws {
        let truth = try NormalizedRect(x: 0.22, y: 0.31, width: 0.46, height: 0.2)
        var observations: [(x: Double, y: Double, hit: Bool)] = []
        for i in 0...40 {
            for j in 0...40 {
                let x = Double(i) / 40, y = Double(j) / 40
                observations.append((x, y, truth.contains(x: x, y: y)))
            }
        }
        let tallies = PositionTally.pool(observations)
        let estimate = try #require(try await offThePool { ZoneEstimator(aspectRatio: 0.48).estimate(tallies) })
        #expect(estimate.zone.iou(with: truth) > 0.9)
        for (edge, value) in [(ZoneEdge.left, truth.x), (.top, truth.y), (.right, truth.maxX), (.bottom, truth.maxY)] {
            let e = try #require(estimate.edges[edge])
            #expect(abs(e.value - value) <= 0.03, "\(edge): \(e.value) vs \(value)")
            #expect(e.low <= value + 0.0125 && value - 0.0125 <= e.high && !e.open, "\(edge): \(e.low)...\(e.high)")
        }
    }

    /// One simulated first session of the S24+ whose coil sits 0.2 body heights above the
    /// prediction (truth x 0.1-0.9, y 0.16-0.54), as `bench/refine` recorded it. A read
    /// 7 mm below the coil (a 7% chance) widened the fit's starting box downwards; a single
    /// sweep moved the left edge first, past the two misses at y 0.55, to x 0.64, and
    /// stopped there (IoU 0.29). Sweeping in every edge order finds the likelier fit (IoU 0.80).
    @Test func aStrayReadInTheStartingBoxDoesNotTrapTheFit() async throws {
        let taps: [(x: Double, y: Double, hit: Bool)] = [
            (0.5, 0.55, false), (0.3, 0.55, false), (0.7, 0.55, true), (0.7, 0.41, true), (0.7, 0.31, true),
            (0.7, 0.03, false), (0.7, 0.17, true), (0.7, 0.1, false), (0.7, 0.135, false), (0.7, 0.135, false),
            (0.7, 0.69, false), (0.7, 0.69, false), (0.7, 0.62, false), (0.7, 0.62, false), (0.7, 0.585, true),
            (0.204, 0.378, true), (0.03, 0.378, false), (0.117, 0.378, false), (0.796, 0.378, true), (0.97, 0.378, false),
            (0.883, 0.378, true),
        ]
        let estimator = ZoneEstimator(model: DetectionModel(reach: 2.94 / 158.5), aspectRatio: 0.4789)
        let tallies = PositionTally.pool(taps)
        let estimate = try #require(try await offThePool { estimator.estimate(tallies) })
        let stuck = try NormalizedRect(x: 0.64, y: 0.1825, width: 0.25, height: 0.39)
        #expect(estimate.logLikelihood > estimator.logLikelihood(of: stuck, tallies) + 0.1, "\(estimate.zone)")
        let truth = try NormalizedRect(x: 0.1, y: 0.16, width: 0.8, height: 0.38)
        #expect(estimate.zone.iou(with: truth) > 0.75, "\(estimate.zone)")
    }

    @Test func noReadsNoZone() {
        #expect(ZoneEstimator(aspectRatio: 0.48).estimate(PositionTally.pool([(0.5, 0.5, false), (0.1, 0.1, false)])) == nil)
    }

    @Test func gridPassesInterleave() {
        let passes = (0..<3).map { GridPlan(around: nil, pass: $0).order }
        #expect(passes[0].contains(Probe(x: 0.5, y: 0.5)))
        // Three passes tap 9 distinct columns and 15 distinct rows each.
        let xs = Set(passes.flatMap { $0.map { ($0.x * 1000).rounded() } }),
            ys = Set(passes.flatMap { $0.map { ($0.y * 1000).rounded() } })
        #expect(xs.count == 9 && ys.count == 15)
        #expect(passes.allSatisfy { $0.count == 15 && $0.allSatisfy { (0...1).contains($0.x) && (0...1).contains($0.y) } })
    }
}

/// Serialized: the simulated labs are CPU-bound, and one core is enough for them while
/// the other serves the tests that drive readers and processes.
@Suite("Refinement", .serialized)
struct RefinementTests {
    struct Case: Sendable, CustomStringConvertible {
        let name: String
        let model: String
        let truth: (Double, Double, Double, Double)
        var description: String { name }
    }

    static let cases = [
        Case(name: "S24 at gematik's rectangle", model: "SM-S921B", truth: (0.028, 0.068, 0.671, 0.274)),
        Case(name: "shifted 0.2 body heights", model: "SM-S926B", truth: (0.1, 0.16, 0.8, 0.38)),
        Case(name: "half the predicted area", model: "SM-S926B", truth: (0.2, 0.45, 0.6, 0.25)),
    ]

    /// Reach of the simulated reader (its `readerRadius`, 0.02 body heights) in mm.
    static func reach(_ model: String) -> Double { 0.02 * (seedProfile(model).bodyHeightMm ?? 150) }

    func lab(_ c: Case, plan: PlanKind, seed: UInt64, units: [String] = ["unit-A", "unit-B"]) -> SimulatedLab {
        let profile = seedProfile(c.model)
        return SimulatedLab(
            model: c.model, phone: SimulatedPhone(antenna: c.truth, aspectRatio: profile.aspectRatio), plan: plan,
            seed: seedCatalog, units: units,
            refiner: CatalogRefiner(resolver: AntennaZoneResolver(remote: nil, seed: seedCatalog), reachMm: Self.reach(c.model)),
            randomSeed: seed)
    }

    /// Mean IoU with the truth over simulated labs after each session (index n-1 for n
    /// sessions). The adaptive plan refines after every session: its next probes follow
    /// the refined prediction. The grid's probes do not depend on it, so the grid refines
    /// only where measured (`checkpoints`); other entries stay 0.
    func meanIoU(_ c: Case, plan: PlanKind, sessions: Int, checkpoints: Set<Int>? = nil, labs: Int = 8) throws -> [Double] {
        let truth = try NormalizedRect(x: c.truth.0, y: c.truth.1, width: c.truth.2, height: c.truth.3)
        var sums = Array(repeating: 0.0, count: sessions)
        for seed in 1...labs {
            var l = lab(c, plan: plan, seed: UInt64(seed))
            for n in 1...sessions {
                l.runSession()
                guard checkpoints?.contains(n) ?? true else { continue }
                sums[n - 1] += l.refine().entries.first?.estimate?.zone.iou(with: truth) ?? 0
            }
        }
        return sums.map { $0 / Double(labs) }
    }

    @Test(arguments: cases)
    func threeSessionsReachTheTruth(_ c: Case) async throws {
        let truth = try NormalizedRect(x: c.truth.0, y: c.truth.1, width: c.truth.2, height: c.truth.3)
        #expect(seedProfile(c.model).zone.iou(with: truth) < 0.5, "the catalog must start out wrong")
        let (grid, adaptive) = try await offThePool {
            (try meanIoU(c, plan: .grid, sessions: 6, checkpoints: [1, 3, 6]), try meanIoU(c, plan: .adaptive, sessions: 3))
        }
        #expect(grid[2] >= 0.7, "grid after 3 sessions: \(grid)")
        // Converges: more sessions, a better zone.
        #expect(grid[5] > grid[2] && grid[2] > grid[0], "grid: \(grid)")
        #expect(adaptive[2] >= 0.7, "adaptive after 3 sessions: \(adaptive)")
    }

    @Test func theS24ReferenceCaseUsesGematiksRectangle() throws {
        let truth = try gematikS24()
        let c = Self.cases[0]
        #expect(abs(truth.x - c.truth.0) < 0.001 && abs(truth.y - c.truth.1) < 0.001)
        #expect(abs(truth.width - c.truth.2) < 0.001 && abs(truth.height - c.truth.3) < 0.001)
        #expect(seedProfile("SM-S921B").zone.iou(with: truth) == 0)
    }

    @Test func regionalVariantsCountTowardTheFamilyEntry() throws {
        let c = Self.cases[0]
        var evidence: [SessionEvidence] = []
        for (i, model) in ["SM-S921B", "SM-S921U", "SM-S921N"].enumerated() {
            var l = lab(Case(name: c.name, model: model, truth: c.truth), plan: .grid, seed: UInt64(i + 1))
            let item = l.runSession()
            var session = item.session
            session.startedAt += Double(i) * 86_400
            evidence.append(SessionEvidence(session: session, taps: item.taps))
        }
        let refiner = CatalogRefiner(resolver: AntennaZoneResolver(remote: nil, seed: seedCatalog))
        let report = refiner.refine(evidence)
        let entry = try #require(report.entries.count == 1 ? report.entries.first : nil)
        #expect(entry.profile.lookupKey == "sm_s921b")
        #expect(entry.evidence.sessionIDs.count == 3 && entry.evidence.taps == evidence.map(\.taps.count).reduce(0, +))
        // --model picks the entry; --since drops older sessions.
        #expect(refiner.refine(evidence, only: "sm_s911b").entries.isEmpty)
        let late = evidence[1].session.startedAt
        #expect(refiner.refine(evidence, since: late).entries.first?.evidence.sessionIDs.count == 2)
    }

    @Test func verifiedEntriesAreNeverChanged() throws {
        // SM-S911B is verified in the seed catalog.
        #expect(seedProfile("SM-S911B").verified)
        var far = lab(Case(name: "far", model: "SM-S911B", truth: (0.05, 0.05, 0.5, 0.15)), plan: .grid, seed: 2)
        var near = lab(Case(name: "near", model: "SM-S911B", truth: (0.1, 0.36, 0.8, 0.38)), plan: .grid, seed: 2)
        for _ in 0..<3 { far.runSession(); near.runSession() }
        let disagreeing = far.refine().entries[0], agreeing = near.refine().entries[0]
        #expect(
            disagreeing.outcome == .verifiedDisagrees && (disagreeing.iouWithPrevious ?? 1) < 0.5
                && disagreeing.patchedEntry == nil)
        #expect(agreeing.outcome == .verifiedAgrees && agreeing.patchedEntry == nil)
        #expect(far.patch?.entries.isEmpty == true && near.patch?.entries.isEmpty == true)
        #expect(far.resolution.zone == seedProfile("SM-S911B").zone)
        #expect(disagreeing.impliedReachMm == nil)
    }

    /// A phone whose verified zone is its true coil calibrates the reader's reach: the
    /// simulated reader reads half the time 0.02 body heights (2.9 mm on an S23) out.
    @Test func aVerifiedPhoneCalibratesTheReach() async throws {
        var l = lab(Case(name: "S23", model: "SM-S911B", truth: (0.1, 0.36, 0.8, 0.38)), plan: .grid, seed: 4)
        l.refiner = CatalogRefiner(resolver: AntennaZoneResolver(remote: nil, seed: seedCatalog))
        let entry = try await offThePool { [l] in
            var l = l
            for _ in 0..<9 { l.runSession() }
            return l.refine().entries[0]
        }
        let reach = try #require(entry.impliedReachMm)
        #expect(abs(reach - 0.02 * 146.3) < 1.5, "implied reach \(reach) mm")
    }

    @Test func promotionPolicyAtAndBelowItsThresholds() throws {
        let right = Case(name: "right", model: "SM-S926B", truth: (0.1, 0.36, 0.8, 0.38))
        var l = lab(right, plan: .grid, seed: 5)
        for _ in 0..<3 { l.runSession() }
        let evidence = l.evidence
        let entry = try #require(l.refine().entries.first)
        let estimate = try #require(entry.estimate)
        let widest = ZoneEdge.allCases.map { estimate.edges[$0]!.widthInBodyHeights }.max()!
        let worstDeviance = entry.sessionDeviance.max()!
        func outcome(_ policy: PromotionPolicy, _ items: [SessionEvidence]) -> EntryRefinement.Outcome {
            CatalogRefiner(
                resolver: AntennaZoneResolver(remote: nil, seed: seedCatalog), promote: true, policy: policy,
                reachMm: Self.reach(right.model)
            ).refine(items).entries[0].outcome
        }
        let atThresholds = PromotionPolicy(
            minimumSessions: 3, minimumUnits: 2, maximumSessionDeviance: worstDeviance,
            maximumEdgeUncertainty: widest)
        #expect(outcome(atThresholds, evidence) == .refined(promoted: true, unmet: []))
        // One session short.
        guard case .refined(false, let fewer) = outcome(atThresholds, Array(evidence.prefix(2))) else {
            Issue.record("promoted"); return
        }
        #expect(fewer.contains { $0.contains("2 session(s), needs 3") })
        // One unit: the three sessions relabelled to the same phone.
        let oneUnit = evidence.map { e in
            var s = e.session
            s.unit = "unit-A"
            return SessionEvidence(session: s, taps: e.taps)
        }
        guard case .refined(false, let units) = outcome(atThresholds, oneUnit) else { Issue.record("promoted"); return }
        #expect(units == ["1 labelled unit(s), needs 2 (label them with run --unit)"])
        // Just past the stability and precision thresholds.
        var strict = atThresholds
        strict.maximumSessionDeviance = worstDeviance - 0.001
        strict.maximumEdgeUncertainty = widest - 0.001
        guard case .refined(false, let unmet) = outcome(strict, evidence) else { Issue.record("promoted"); return }
        #expect(
            unmet.count >= 2 && unmet.contains { $0.contains("disagrees with the others") }
                && unmet.contains { $0.contains("edge known only to") })
        // A unit whose coil sits elsewhere breaks stability under the default policy.
        var other = lab(Case(name: "elsewhere", model: right.model, truth: (0.1, 0.05, 0.8, 0.2)), plan: .grid, seed: 6)
        for _ in 0..<3 { other.runSession() }
        let mixed = Array(evidence.prefix(2)) + [other.evidence[2]]
        let defaultPolicy = CatalogRefiner(
            resolver: AntennaZoneResolver(remote: nil, seed: seedCatalog), promote: true,
            reachMm: Self.reach(right.model)
        ).refine(mixed).entries[0]
        #expect(
            defaultPolicy.sessionDeviance.max()! > PromotionPolicy().maximumSessionDeviance, "\(defaultPolicy.sessionDeviance)")
        // Without --promote nothing is promoted, whatever the evidence.
        let plain = CatalogRefiner(
            resolver: AntennaZoneResolver(remote: nil, seed: seedCatalog), policy: atThresholds, reachMm: Self.reach(right.model))
        #expect(plain.refine(evidence).entries[0].outcome == .refined(promoted: false, unmet: []))
    }

    @Test(arguments: [PlanKind.adaptive, .grid])
    func theDefaultPolicyPromotesConsistentEvidence(_ plan: PlanKind) async throws {
        let right = Case(name: "right", model: "SM-S926B", truth: (0.1, 0.36, 0.8, 0.38))
        var l = lab(right, plan: plan, seed: 8)
        l.refiner.promote = true
        let (outcomes, finished) = try await offThePool { [l] in
            var l = l
            var outcomes: [EntryRefinement.Outcome] = []
            for _ in 0..<6 {
                l.runSession()
                outcomes.append(l.refine().entries[0].outcome)
            }
            return (outcomes, l.resolution.confidence)
        }
        let promoted = try #require(outcomes.firstIndex(of: .refined(promoted: true, unmet: [])), "\(outcomes)")
        #expect(promoted >= 2, "never before 3 sessions")
        // Promoted means verified: later sessions are compared with it, never move it.
        #expect(outcomes[(promoted + 1)...].allSatisfy { $0 == .verifiedAgrees }, "\(outcomes)")
        #expect(finished == .exact)
    }

    @Test func thePatchIsAWireCatalogTheResolverReads() throws {
        var l = lab(Self.cases[0], plan: .adaptive, seed: 3)
        for _ in 0..<2 { l.runSession() }
        let report = l.refine()
        let refined = try #require(report.entries.first?.estimate?.zone)
        let patch = try #require(l.patch)
        let data = try patch.encoded()
        // A reader that knows only the wire format.
        let document = try JSONDecoder().decode(CatalogResponseDTO.self, from: data)
        #expect(document.entries.count == 1 && document.undecodableRows.isEmpty)
        let row = document.entries[0]
        #expect(row.modelIdentifier == "SM-S921B" && row.zoneX == refined.x && row.zoneHeight == refined.height)
        #expect(row.verified != true && row.lastVerifiedAt == l.evidence.last!.session.endedAt!.formatted(.iso8601))
        let raw = try JSONSerialization.jsonObject(with: data) as! [String: Any]
        let block = ((raw["entries"] as! [[String: Any]])[0]["refinement"] as! [String: Any])
        #expect(block["sessionCount"] as? Int == 2 && block["taps"] as? Int == l.evidence.map(\.taps.count).reduce(0, +))
        #expect(block["distinctUnits"] as? Int == 2 && block["iouWithPrevious"] as? Double == 0 && block["method"] is String)
        // Laid over the seed: the refined zone, fresh (lastVerifiedAt refreshed), other models untouched.
        let resolver = AntennaZoneResolver(remote: Catalog(document: document), seed: seedCatalog)
        let fp = ModelIdentifierFingerprintProvider(modelIdentifier: "SM-S921U").fingerprint()
        let r = resolver.resolve(
            fp, signals: .inferred(from: fp, model: "SM-S921U"), now: l.evidence.last!.session.endedAt! + 86_400)
        #expect(r.zone == refined && r.source == .remoteCatalog && r.confidence == .approximate && !r.isStale)
        let other = ModelIdentifierFingerprintProvider(modelIdentifier: "Pixel 8").fingerprint()
        #expect(resolver.resolve(other, signals: .inferred(from: other, model: "Pixel 8")).source == .seedCatalog)
        // Read back with its provenance, and carried into the next patch when not refined again.
        let again = try RefinementPatch.read(data)
        #expect(again.entries[0].refinement == patch.entries[0].refinement)
        var plus = lab(Self.cases[1], plan: .grid, seed: 3)
        plus.runSession()
        let next = RefinementPatch(plus.refine(), policy: PromotionPolicy(), carrying: again)
        #expect(next.entries.map { $0.entry.lookupKey() } == ["sm_s921b", "sm_s926b"])
        #expect(next.entries[0].entry == patch.entries[0].entry && next.entries[0].refinement == patch.entries[0].refinement)
    }
}
