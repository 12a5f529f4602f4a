import NFCBenchRecords
import NFCLocatorCore

/// Chooses where to tap next from what happened so far. Deterministic: the same history
/// gives the same next probe, which is what lets `--resume` continue a killed session.
public protocol ProbeStrategy: Sendable {
    var kind: PlanKind { get }
    /// What the runner and the printer need to know of the plan, so neither downcasts it.
    var shape: PlanShape { get }
    /// `history`: each probe tapped so far, with whether any attempt there hit.
    func next(after history: [(probe: Probe, hit: Bool)]) -> Probe?
    /// The same, in a graded session (`run --coupling`): `grades` holds each graded
    /// position's coupling, `skipped` the positions in `history` the operator skipped,
    /// which read nothing and so are no silence either. A plan that cannot use grades
    /// ignores them.
    func next(
        after history: [(probe: Probe, hit: Bool)], grades: [(probe: Probe, coupling: Double)]?, skipped: Set<Probe>
    ) -> Probe?
    /// The zone the hits say, or `nil` when nothing hit.
    func measuredZone(from history: [(probe: Probe, hit: Bool)]) -> NormalizedRect?
    /// The same, in a graded session: a plan that chose by the grades measures by them.
    func measuredZone(from history: [(probe: Probe, hit: Bool)], grades: [(probe: Probe, coupling: Double)]) -> NormalizedRect?
    /// The probes taken if every probe inside `expected` hits and every other misses.
    func expectedProbes(for expected: NormalizedRect?) -> [Probe]
    /// What a new session stores as its planned probes: the expected ones, unless the plan
    /// needs more to be rebuilt (`HeightLayers` stores every height).
    func storedProbes(for expected: NormalizedRect?) -> [Probe]
    /// A plan that measures the coil judges a session that read by stated tests on it
    /// (`CoilVerdict`); `nil`: the tap rules judge (`SessionScore.judge`).
    func coilJudgement(
        predicted: NormalizedRect, history: [(probe: Probe, hit: Bool)], grades: [(probe: Probe, coupling: Double)]
    ) -> (SessionVerdict, String)?
}

extension ProbeStrategy {
    public func storedProbes(for expected: NormalizedRect?) -> [Probe] { expectedProbes(for: expected) }

    public func coilJudgement(
        predicted: NormalizedRect, history: [(probe: Probe, hit: Bool)], grades: [(probe: Probe, coupling: Double)]
    ) -> (SessionVerdict, String)? { nil }

    public func next(
        after history: [(probe: Probe, hit: Bool)], grades: [(probe: Probe, coupling: Double)]?, skipped: Set<Probe>
    ) -> Probe? {
        next(after: history)
    }

    /// A graded session with nothing skipped.
    public func next(after history: [(probe: Probe, hit: Bool)], grades: [(probe: Probe, coupling: Double)]?) -> Probe? {
        next(after: history, grades: grades, skipped: [])
    }

    public func measuredZone(
        from history: [(probe: Probe, hit: Bool)], grades: [(probe: Probe, coupling: Double)]
    ) -> NormalizedRect? {
        measuredZone(from: history)
    }

    public func expectedProbes(for expected: NormalizedRect?) -> [Probe] {
        var history: [(probe: Probe, hit: Bool)] = []
        while let probe = next(after: history), history.count < 100 {
            history.append((probe, expected?.contains(x: probe.x, y: probe.y) ?? false))
        }
        return history.map(\.probe)
    }
}
