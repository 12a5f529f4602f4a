import Foundation
import NFCBenchRecords
import NFCLocatorCore
import NFCPhysics
import NFCReaders

/// A lab that runs sessions of one model against a simulated phone and refines after
/// each: the closed loop `run` -> `refine -o PATCH` -> `run --catalog PATCH` that a real
/// lab follows, without the reader's timing, so accuracy can be studied over many
/// sessions and seeds (`bench/refine`, and the refinement tests).
///
/// Its sessions model a lab's bench sessions, so they are not marked simulated: they
/// never reach a store or a lab's catalog, and exist to study how refinement converges.
/// Sessions a *run* takes with a simulated reader are marked simulated and never count.
///
/// Taps are drawn from `SimulatedPhone.detectionProbability`, the same world the
/// simulated reader and the virtual bench use; prediction, plan (with its grid pass),
/// estimation and patching are the production code.
public struct SimulatedLab: Sendable {
    public let model: String
    public let phone: SimulatedPhone
    public let plan: PlanKind
    /// Unit labels, used round-robin.
    public let units: [String]
    public let seed: Catalog
    public var refiner: CatalogRefiner
    public private(set) var evidence: [SessionEvidence] = []
    public private(set) var patch: RefinementPatch?
    /// What the last refinement left uncertain, for the next session's plan.
    public private(set) var focus: PlanFocus?
    /// Whether sessions plan from `focus` (adaptive plans learn from earlier sessions).
    public var learns = true
    /// `run --coupling`: each HIT graded down this ladder, as the emulated PN532 grades it
    /// (the phone's coupling against each profile's threshold, docs/coupling.md).
    public var coupling: CouplingLadder?
    /// How far a placement lands from the position asked for, in body heights: the spread
    /// of a normal on each axis. 0 (the default) is a rig's exact placement; a hand is off
    /// by a millimetre or two. The tap is recorded at the position asked for and judged
    /// where the phone landed, as at a real bench.
    public var placementJitter = 0.0 {
        willSet { precondition(newValue.isFinite && newValue >= 0, "a placement's spread is a finite distance") }
    }
    /// The benches' readers in the physical world, one per session in turn: each session
    /// records its reader's antenna, so `refine` pools the coil fit over benches with
    /// different readers (each with its own threshold); the phone couples under that
    /// reader and gap; and a coil plan chooses its positions under it. Empty (the
    /// default): the phone's own world, and sessions that record no antenna.
    public var readers: [ReaderGeometry] = [] {
        willSet {
            precondition(
                newValue.isEmpty || phone.physics != nil, "a lab's readers couple its phone only in the physical world")
        }
    }
    private let randomSeed: UInt64
    private var clock: Date

    public init(
        model: String, phone: SimulatedPhone, plan: PlanKind, seed: Catalog, units: [String] = ["unit-A", "unit-B"],
        refiner: CatalogRefiner? = nil, randomSeed: UInt64, start: Date = Date(timeIntervalSince1970: 1_790_000_000)
    ) {
        precondition(!units.isEmpty, "a lab needs at least one unit")
        self.model = model
        self.phone = phone
        self.plan = plan
        self.units = units
        self.seed = seed
        self.refiner = refiner ?? CatalogRefiner(resolver: AntennaZoneResolver(remote: nil, seed: seed))
        self.randomSeed = randomSeed
        clock = start
    }

    /// What the current catalog (seed, with the latest patch laid over it) predicts.
    public var resolution: AntennaResolution {
        let fingerprint = ModelIdentifierFingerprintProvider(modelIdentifier: model).fingerprint()
        return refiner.resolver.resolve(fingerprint, signals: .inferred(from: fingerprint, model: model), now: clock)
    }

    /// Runs one complete session with the plan around the current prediction.
    @discardableResult
    public mutating func runSession() -> SessionEvidence {
        let r = resolution
        let aspect = r.profile?.aspectRatio ?? phone.aspectRatio
        let reader = readers.isEmpty ? nil : readers[evidence.count % readers.count]
        let world = reader.map { phone.under($0) } ?? phone
        let physics = reader.flatMap { geometry in
            r.profile?.bodyHeightMm.map { PlanPhysics(reader: geometry, bodyHeightMm: $0) }
        }
        precondition(plan != .coil || physics != nil, "a coil plan needs the reader's antenna and the body's height")
        let strategy = ProbePlans.make(
            plan, around: r.zone, aspectRatio: aspect, pass: evidence.count, focus: learns ? focus : nil, physics: physics)
        let id = "S-lab-\(evidence.count + 1)"
        var history: [(probe: Probe, hit: Bool)] = []
        var taps: [TapRecord] = []
        var placements: [Probe: UInt64] = [:]
        var grades: [(probe: Probe, coupling: Double)] = []
        while let probe = strategy.next(after: history, grades: coupling == nil ? nil : grades), history.count < 100 {
            placements[probe, default: 0] += 1
            let landed = landing(session: evidence.count, probe, placements[probe]!)
            let hit =
                draw(session: evidence.count, probe, placements[probe]!)
                < world.detectionProbability(x: landed.x, y: landed.y)
            history.append((probe, hit))
            let grade =
                hit
                ? coupling.map { ladder in
                    Self.grade(on: ladder) { world.answers(fieldThreshold: $0, x: landed.x, y: landed.y) }
                } : nil
            if let grade { grades.append((probe, grade)) }
            clock += 20
            taps.append(
                TapRecord(
                    sessionID: id, step: taps.count, attempt: 0, probe: probe,
                    insidePredicted: r.zone?.contains(x: probe.x, y: probe.y) ?? false,
                    result: hit ? .hit : .miss, timestamp: clock,
                    coupling: grade, couplingLadder: grade == nil ? nil : coupling?.name))
        }
        var session = SessionRecord(
            id: id, model: model, resolution: r, plan: plan, planPass: evidence.count,
            reader: .sim, readerFirmware: nil, simulated: false, unit: units[evidence.count % units.count], operatorName: "lab",
            repeats: 1,
            tapTimeout: 1,
            startedAt: clock - Double(20 * taps.count), defaultAspectRatio: phone.aspectRatio)
        session.status = .completed
        session.endedAt = clock
        session.readerGeometry = reader
        let item = SessionEvidence(session: session, taps: taps)
        evidence.append(item)
        clock += 3600
        return item
    }

    /// The grade the walk down `ladder` gives a phone coupled `c`: every rung whose
    /// threshold `c` reaches reads, down to the first that does not.
    public static func grade(_ c: Double, on ladder: CouplingLadder) -> Double {
        grade(on: ladder) { $0 <= c }
    }

    /// The grade the walk down `ladder` gives a phone that answers a field of threshold `t`
    /// when `answers(t)`: every rung that reads, down to the first that does not, as the
    /// emulated PN532 walks it (`SimulatedPhone.answers`: a saturating phone, and in the
    /// physical world the chip's rung law, are in it).
    public static func grade(on ladder: CouplingLadder, answers: (Double) -> Bool) -> Double {
        var weakest = ladder.profiles.count - 1
        for rung in stride(from: ladder.profiles.count - 2, through: 0, by: -1) {
            guard answers(ladder.profiles[rung].threshold) else { break }
            weakest = rung
        }
        return ladder.coupling(weakestRead: weakest)
    }

    /// The chance drawn for the `n`-th placement at `probe` in a session: a function of the
    /// lab's seed, the session and the placement, not of how many taps came before. Two
    /// plans compared on the same labs then see the same luck wherever they tap the same
    /// position (common random numbers), so a study tells a better plan from a lucky one.
    func draw(session: Int, _ probe: Probe, _ n: UInt64, stream: UInt64? = nil) -> Double {
        var mixer = SeededGenerator(seed: randomSeed)
        for part in [UInt64(session), UInt64((probe.x * 1000).rounded()), UInt64((probe.y * 1000).rounded()), n] {
            mixer = SeededGenerator(seed: mixer.next() ^ part)
        }
        // Another stream of chances for the same placement (its landing), leaving the
        // read's own chance what it always was.
        if let stream { mixer = SeededGenerator(seed: mixer.next() ^ stream) }
        return Double(mixer.next() >> 11) / Double(1 << 53)
    }

    /// Where the `n`-th placement at `probe` lands, in fractions of the back: `probe`
    /// moved by `placementJitter` (a normal per axis, Box-Muller from two more chances of
    /// the same placement), kept on the back.
    public func landing(session: Int, _ probe: Probe, _ n: UInt64) -> (x: Double, y: Double) {
        guard placementJitter > 0 else { return (probe.x, probe.y) }
        let u1 = max(draw(session: session, probe, n, stream: 1), .leastNonzeroMagnitude)
        let u2 = draw(session: session, probe, n, stream: 2)
        let radius = placementJitter * (-2 * log(u1)).squareRoot()
        let dx = radius * cos(2 * .pi * u2) / phone.aspectRatio, dy = radius * sin(2 * .pi * u2)
        return (min(max(probe.x + dx, 0), 1), min(max(probe.y + dy, 0), 1))
    }

    /// Refines from every session so far and lays the patch over the seed for the next.
    @discardableResult
    public mutating func refine() -> RefinementReport {
        let report = refiner.refine(evidence)
        let next = RefinementPatch(report, policy: refiner.policy, carrying: patch, now: clock)
        patch = next
        let document = CatalogResponseDTO(
            version: next.version, generatedAt: next.generatedAt, entries: next.entries.map(\.entry))
        refiner.resolver = AntennaZoneResolver(remote: Catalog(document: document), seed: seed)
        focus = refiner.focus(for: model, from: evidence)
        return report
    }
}

extension SimulatedPhone {
    /// The same phone under another bench's reader and gap: what a lab whose benches
    /// differ puts the same phone on.
    fileprivate func under(_ reader: ReaderGeometry) -> SimulatedPhone {
        guard case .mutualInductance(var bench) = couplingModel else { return self }
        bench.reader = ReaderAntenna(widthMm: reader.antennaWidthMm, heightMm: reader.antennaHeightMm)
        bench.gapMm = reader.gapMm
        var phone = self
        phone.couplingModel = .mutualInductance(bench)
        return phone
    }
}
