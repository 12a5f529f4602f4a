import Foundation
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
}

extension ProbeStrategy {
    public func storedProbes(for expected: NormalizedRect?) -> [Probe] { expectedProbes(for: expected) }

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

/// One point per cell of a columns x rows grid over the whole back, visited from the
/// predicted zone's centre outward, so the first taps tell the most.
///
/// Pass 0 taps the cell centres. Later passes (the n-th session of a model) shift every
/// point within its cell by the n-th term of a base-3 van der Corput sequence, along both
/// axes: three sessions tap three interleaved grids, nine sessions nine. Pooled by
/// `nfcbench refine`, repeated grid sessions thus bound each zone edge ever more finely
/// instead of re-tapping the same 15 points.
public struct GridPlan: ProbeStrategy {
    public let columns: Int
    public let rows: Int
    public let pass: Int
    public let order: [Probe]
    public var kind: PlanKind { .grid }
    public var shape: PlanShape {
        PlanShape(plannedLength: order.count, maximumPositions: order.count, cells: PlanShape.Cells(columns: columns, rows: rows))
    }

    public init(columns: Int = 3, rows: Int = 5, around zone: NormalizedRect?, aspectRatio: Double = 0.48, pass: Int = 0) {
        precondition(columns > 0 && rows > 0, "a grid needs cells")
        precondition(pass >= 0, "grid passes count from 0")
        self.columns = columns
        self.rows = rows
        self.pass = pass
        let centre = zone.map { Probe(x: $0.midX, y: $0.midY) } ?? Probe(x: 0.5, y: 0.3)
        let offset = Self.cellOffset(pass: pass)
        var cells: [Probe] = []
        for r in 0..<rows {
            for c in 0..<columns {
                cells.append(Probe(x: (Double(c) + offset) / Double(columns), y: (Double(r) + offset) / Double(rows)))
            }
        }
        func distance(_ p: Probe) -> Double {
            let dx = (p.x - centre.x) * aspectRatio, dy = p.y - centre.y
            return dx * dx + dy * dy
        }
        // The predicted zone's own probes first, so even a coil smaller than a cell is
        // probed inside (a shifted pass may put no cell point in it); cell points that
        // would repeat one of them are dropped.
        let inner = zone.map { ProbePlans.innerProbes(of: $0, aspectRatio: aspectRatio) } ?? []
        let outer = cells.sorted { (distance($0), $0.y, $0.x) < (distance($1), $1.y, $1.x) }.filter { cell in
            !inner.contains { ProbePlans.bodyDistance($0, cell, aspectRatio) < ProbePlans.minimumSpacing }
        }
        order = inner + outer
    }

    /// Where in its cell (0...1) pass `n` taps: 1/2, 5/6, 1/6, 11/18, ...
    static func cellOffset(pass: Int) -> Double {
        var n = pass, base = 1.0, value = 0.0
        while n > 0 {
            base /= 3
            value += Double(n % 3) * base
            n /= 3
        }
        return (0.5 + value).truncatingRemainder(dividingBy: 1)
    }

    public func next(after history: [(probe: Probe, hit: Bool)]) -> Probe? {
        history.count < order.count ? order[history.count] : nil
    }

    /// The bounding box of the cells that hit.
    public func measuredZone(from history: [(probe: Probe, hit: Bool)]) -> NormalizedRect? {
        let hits = history.filter(\.hit).map(\.probe)
        guard !hits.isEmpty else { return nil }
        let w = 1 / Double(columns), h = 1 / Double(rows)
        let x0 = hits.map { $0.x - w / 2 }.min()!, x1 = hits.map { $0.x + w / 2 }.max()!
        let y0 = hits.map { $0.y - h / 2 }.min()!, y1 = hits.map { $0.y + h / 2 }.max()!
        return try? NormalizedRect(x: max(0, x0), y: max(0, y0), width: min(1, x1) - max(0, x0), height: min(1, y1) - max(0, y0))
    }
}

public enum ProbePlans {
    /// Probes closer than this (body heights) add nothing to each other.
    static let minimumSpacing = 0.03

    /// The predicted centre, then two points a quarter of the zone's longer side away
    /// from it along that side: probes inside even a small coil.
    public static func innerProbes(of zone: NormalizedRect, aspectRatio: Double) -> [Probe] {
        let centre = Probe(x: zone.midX, y: zone.midY)
        if zone.width * aspectRatio >= zone.height {
            return [
                centre, Probe(x: zone.midX - zone.width / 4, y: zone.midY), Probe(x: zone.midX + zone.width / 4, y: zone.midY),
            ]
        }
        return [centre, Probe(x: zone.midX, y: zone.midY - zone.height / 4), Probe(x: zone.midX, y: zone.midY + zone.height / 4)]
    }

    static func bodyDistance(_ a: Probe, _ b: Probe, _ aspectRatio: Double) -> Double {
        let dx = (a.x - b.x) * aspectRatio, dy = a.y - b.y
        return (dx * dx + dy * dy).squareRoot()
    }

    /// Every plan a session can follow, registered once: its name, its help, whether it
    /// learns a focus from earlier sessions, and how to build it. A new plan is one file and
    /// one line here (and its case in `PlanKind`, the stored name).
    public static let registered: [PlanRegistration] = [
        PlanRegistration(
            .adaptive, summary: "bounds each edge from the prediction and learns from earlier sessions", usesFocus: true
        ) { zone, aspectRatio, _, focus, _ in AdaptivePlan(around: zone, aspectRatio: aspectRatio, focus: focus) },
        PlanRegistration(.grid, summary: "3x5 cells over the whole back", usesFocus: false) { zone, aspectRatio, pass, _, _ in
            GridPlan(around: zone, aspectRatio: aspectRatio, pass: pass)
        },
        PlanRegistration(.raster, summary: "every --step-mm over the whole back, for a motion stage", usesFocus: false) {
            _, _, _, _, planned in RasterPlan(stored: planned)
        },
    ]

    public static func registration(_ kind: PlanKind) -> PlanRegistration {
        guard let found = registered.first(where: { $0.kind == kind }) else {
            preconditionFailure("plan '\(kind.rawValue)' has a stored name but no registration in ProbePlans.registered")
        }
        return found
    }

    /// `grid|adaptive|raster`, for an option's value placeholder.
    public static var choices: String { PlanKind.allCases.map(\.rawValue).joined(separator: "|") }
    /// `grid, adaptive or raster`, for an option's error.
    public static var expectedChoices: String {
        let names = PlanKind.allCases.map(\.rawValue)
        return names.dropLast().joined(separator: ", ") + " or " + names.last!
    }

    /// `pass`: how many sessions of this model came before (grid plans interleave by it).
    /// `focus`: where those sessions left the edges uncertain (plans that use one learn from it).
    /// `planned`: the positions a session stored (a raster rebuilds itself from them).
    public static func make(
        _ kind: PlanKind, around zone: NormalizedRect?, aspectRatio: Double,
        pass: Int = 0, focus: PlanFocus? = nil, planned: [Probe] = []
    ) -> any ProbeStrategy {
        let plan = registration(kind)
        return plan.build(zone, aspectRatio, pass, plan.usesFocus ? focus : nil, planned)
    }
}
