import Foundation
import NFCBenchRecords
import NFCBenchSeams
import NFCLocatorCore
import NFCPhysics
import NFCReaders
import Synchronization

/// The last fit a coil plan made, with the taps it was made from: a session's zone and its
/// verdict are asked one after the other, of the same taps. A class, so copies of the plan
/// share it.
final class EstimateMemory: Sendable {
    private let last = Mutex<(taps: [CoilTap], estimate: CoilEstimate?)?>(nil)

    func estimate(_ taps: [CoilTap], fitting: () -> CoilEstimate?) -> CoilEstimate? {
        if let kept = last.withLock({ $0 }), kept.taps == taps { return kept.estimate }
        let estimate = fitting()
        last.withLock { $0 = (taps, estimate) }
        return estimate
    }
}

/// What a plan needs to reason in millimetres under the physics of two loops: the
/// session's reader antenna and gap, and the phone's body.
public struct PlanPhysics: Sendable, Equatable {
    public let reader: ReaderGeometry
    public let bodyHeightMm: Double

    public init(reader: ReaderGeometry, bodyHeightMm: Double) {
        precondition(bodyHeightMm > 0 && bodyHeightMm.isFinite, "a body has a finite positive height")
        self.reader = reader
        self.bodyHeightMm = bodyHeightMm
    }

    /// A session's, when it records both its reader's antenna and the body's size.
    public init?(_ session: SessionRecord) {
        guard let reader = session.readerGeometry, let height = session.bodyHeightMm else { return nil }
        self.init(reader: reader, bodyHeightMm: height)
    }
}

/// `--plan coil`: each position chosen by what its outcome will tell about the phone's coil
/// under the physics of two loops (`CoilDesign`), at most `budget` of them, on the centres
/// of a 16 x 32 lattice of the back; the zone it measures is the coil fitted in
/// millimetres (`CoilFit`), not the read region.
///
/// The adaptive plan bisects the read region's edges, which a big reader moves outwards and
/// a small one inwards; this plan knows the reader's antenna and asks where the coils still
/// possible disagree, at the edges where the null ring and the outer lobe tell a coil's size
/// from the reader's reach (docs/physics.md, bench/physics). Graded sessions (`run
/// --coupling`) use every rung a read reaches down to. It needs the reader's antenna and the
/// body's size; without them a run refuses it.
public struct CoilPlan: ProbeStrategy {
    public let predicted: NormalizedRect?
    public let aspectRatio: Double
    public let physics: PlanPhysics
    let binary: CoilDesign
    let graded: CoilDesign
    let probes: [Probe]
    private let lastEstimate = EstimateMemory()

    /// The positions a session taps at most: a hand session's.
    public static let budget = 16
    static let columns = 16
    static let rows = 32

    public var kind: PlanKind { .coil }
    public var shape: PlanShape {
        PlanShape(
            plannedLength: nil, maximumPositions: Self.budget, cells: PlanShape.Cells(columns: Self.columns, rows: Self.rows),
            gradedPositions: Self.budget, countsRightPrediction: false)
    }

    public init(around zone: NormalizedRect?, aspectRatio: Double, physics: PlanPhysics) {
        precondition(aspectRatio > 0 && aspectRatio.isFinite, "a body has a finite positive aspect ratio")
        predicted = zone
        self.aspectRatio = aspectRatio
        self.physics = physics
        probes = (0..<Self.columns).flatMap { i in
            (0..<Self.rows).map { j in
                Probe(x: (Double(i) + 0.5) / Double(Self.columns), y: (Double(j) + 0.5) / Double(Self.rows))
            }
        }
        let fit = Self.fit(physics, aspectRatio: aspectRatio)
        let candidates = probes.map { CoilDesign.Position(x: $0.x * fit.bodyWidthMm, y: $0.y * fit.bodyHeightMm) }
        let prior = CoilDesign.Prior(around: zone, fit: fit)
        func design(graded: Bool) -> CoilDesign {
            CoilDesign(
                fit: fit, bench: CoilTap.Bench(physics.reader), candidates: candidates, prior: prior, graded: graded,
                budget: Self.budget)
        }
        binary = design(graded: false)
        graded = design(graded: true)
    }

    static func fit(_ physics: PlanPhysics, aspectRatio: Double) -> CoilFit {
        .bench(bodyWidthMm: physics.bodyHeightMm * aspectRatio, bodyHeightMm: physics.bodyHeightMm)
    }

    public func next(after history: [(probe: Probe, hit: Bool)]) -> Probe? {
        chosen(by: binary, history, taps(history, grades: nil, skipped: []), skipped: [])
    }

    public func next(
        after history: [(probe: Probe, hit: Bool)], grades: [(probe: Probe, coupling: Double)]?, skipped: Set<Probe>
    ) -> Probe? {
        chosen(by: grades == nil ? binary : graded, history, taps(history, grades: grades, skipped: skipped), skipped: skipped)
    }

    private func chosen(
        by design: CoilDesign, _ history: [(probe: Probe, hit: Bool)], _ taps: [CoilTap], skipped: Set<Probe>
    ) -> Probe? {
        // A skipped position counts against the budget, though it told nothing.
        let left = Self.budget - taps.count - skipped.count
        guard left > 0 else { return nil }
        let unavailable = Set(probes.indices.filter { skipped.contains(probes[$0]) })
        let reserve = silentSessionReserve(history)
        if let reserve, reserve.isDue(positionsLeft: left), let probe = reserveChoice(reserve, history, unavailable) {
            return probe
        }
        if let index = design.next(after: taps, unavailable: unavailable) { return probes[index] }
        return reserve.flatMap { reserveChoice($0, history, unavailable) }
    }

    /// While nothing has read, what a NO_FIELD verdict still needs (taps inside and around
    /// the predicted zone, `SessionScore.judge`). Silences move the design's cloud off the
    /// prediction and across the back (its prior keeps a share for "anywhere"), so left to
    /// itself a session with no phone could end with too few taps at the zone to say so:
    /// INCONCLUSIVE in 11 % of such sessions over the seed catalog's entries (`bench/verdicts`).
    /// Once anything reads, the coil tests judge and the design spends every position.
    private func silentSessionReserve(_ history: [(probe: Probe, hit: Bool)]) -> VerdictReserve? {
        guard let predicted, !history.contains(where: \.hit) else { return nil }
        return VerdictReserve(predicted: predicted, aspectRatio: aspectRatio, history: history)
    }

    private func reserveChoice(
        _ reserve: VerdictReserve, _ history: [(probe: Probe, hit: Bool)], _ unavailable: Set<Int>
    ) -> Probe? {
        let tapped = Set(history.map(\.probe))
        let open = probes.indices.filter { !unavailable.contains($0) && !tapped.contains(probes[$0]) }
        // Nothing has read: no position is likelier to read than another, none tells more.
        return reserve.choose(from: open.map { VerdictReserve.Candidate(probe: probes[$0], readChance: 0, information: 0) })
    }

    /// The taps as the fit reads them: skipped positions read nothing and are no silence;
    /// a graded read says how many rungs below the default still read.
    func taps(
        _ history: [(probe: Probe, hit: Bool)], grades: [(probe: Probe, coupling: Double)]?, skipped: Set<Probe>
    ) -> [CoilTap] {
        let ladder = CouplingLadder.standard
        var coupling: [Probe: Double] = [:]
        for grade in grades ?? [] { coupling[grade.probe] = grade.coupling }
        let width = physics.bodyHeightMm * aspectRatio, height = physics.bodyHeightMm
        let bench = CoilTap.Bench(physics.reader)
        return history.filter { !skipped.contains($0.probe) }.map { entry in
            let rungs = entry.hit ? coupling[entry.probe].map { ladder.rungsRead(coupling: $0) } : nil
            return CoilTap(
                x: entry.probe.x * width, y: entry.probe.y * height, hit: entry.hit, rungsRead: rungs, bench: bench)
        }
    }

    public func measuredZone(from history: [(probe: Probe, hit: Bool)]) -> NormalizedRect? {
        measured(taps(history, grades: nil, skipped: []))
    }

    public func measuredZone(
        from history: [(probe: Probe, hit: Bool)], grades: [(probe: Probe, coupling: Double)]
    ) -> NormalizedRect? {
        measured(taps(history, grades: grades, skipped: []))
    }

    public func coilJudgement(
        predicted: NormalizedRect, history: [(probe: Probe, hit: Bool)], grades: [(probe: Probe, coupling: Double)]
    ) -> (SessionVerdict, String)? {
        guard let estimate = estimate(taps(history, grades: grades, skipped: [])) else { return nil }
        return CoilVerdict.judge(
            predicted: predicted, estimate: estimate, bodyWidthMm: binary.fit.bodyWidthMm,
            bodyHeightMm: binary.fit.bodyHeightMm)
    }

    /// The fit of `taps`, kept for the next question about the same taps: a session's zone
    /// and its verdict are asked one after the other.
    private func estimate(_ taps: [CoilTap]) -> CoilEstimate? {
        lastEstimate.estimate(taps) {
            // The design that chose the positions has read these taps already: its cloud seeds the fit.
            let design = taps.contains { $0.rungsRead != nil } ? graded : binary
            return binary.fit.estimate(taps, seeds: SessionCoil.seed(taps, design: design).map { [$0] } ?? [])
        }
    }

    /// The coil the taps say, as a share of the back.
    private func measured(_ taps: [CoilTap]) -> NormalizedRect? {
        let fit = binary.fit
        guard let coil = estimate(taps)?.rectangle else { return nil }
        return try? NormalizedRect(
            x: coil.x / fit.bodyWidthMm, y: coil.y / fit.bodyHeightMm, width: coil.width / fit.bodyWidthMm,
            height: coil.height / fit.bodyHeightMm)
    }

    /// A plan that chooses by what each tap said has no list to print ahead: only where it
    /// starts.
    public func expectedProbes(for expected: NormalizedRect?) -> [Probe] {
        next(after: []).map { [$0] } ?? []
    }
}

extension CoilFit {
    /// The bench's one coil fit, for every session's coil (`show`, `refine`, `catalog
    /// publish`) and the coil plan's measured zone alike, so a session tells one story: the
    /// standard ladder's rungs, a threshold scatter of 0.15 and a hand's 1.5 mm per axis
    /// through the coupling's slope (docs/physics.md). A motion stage places more finely;
    /// the hand's figure only widens its intervals.
    public static func bench(bodyWidthMm: Double, bodyHeightMm: Double) -> CoilFit {
        var fit = CoilFit(
            bodyWidthMm: bodyWidthMm, bodyHeightMm: bodyHeightMm,
            rungThresholds: CouplingLadder.standard.profiles.reversed().map(\.threshold))
        fit.spread = 0.15
        fit.placementSpreadMm = 1.5
        return fit
    }
}

extension CoilDesign.Prior {
    /// What a session believes of the coil before its first tap: near its predicted zone
    /// (anywhere without one), no side wider than the body. The coil plan chooses by it, and
    /// every session's fit is seeded by it (`SessionCoil`).
    public init(around zone: NormalizedRect?, fit: CoilFit) {
        self.init(centre: zone.map { CoilDesign.Position(x: $0.midX * fit.bodyWidthMm, y: $0.midY * fit.bodyHeightMm) })
        sideMm = CoilFit.smallestCoilMm...max(CoilFit.smallestCoilMm + 1, min(70, fit.bodyWidthMm))
    }
}
