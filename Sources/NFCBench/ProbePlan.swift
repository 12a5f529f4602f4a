import Foundation
import NFCBenchRecords
import NFCBenchSeams
import NFCLocatorCore

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

    /// The cells that hit, bounded by the misses beside them (`ProbePlans.measuredBox`).
    public func measuredZone(from history: [(probe: Probe, hit: Bool)]) -> NormalizedRect? {
        ProbePlans.measuredBox(history, cellWidth: 1 / Double(columns), cellHeight: 1 / Double(rows))
    }
}

public enum ProbePlans {
    /// The box the reads span, each edge half a cell beyond the outermost read, but never
    /// past the midpoint to the nearest miss beyond it within the box's span: the edge lies
    /// between the last read and the first silence. A later grid pass or the predicted
    /// zone's own probes sit off the cell centres, and half a cell from a read once put
    /// the edge beyond a miss (issue 52: misses at 2.1 and 68.5 mm, reads at 8.3 and 62.2
    /// mm, reported as 0-71 mm and open at both sides). On a grid of cell centres a miss in
    /// the next cell is a cell away, so the two rules agree there.
    static func measuredBox(_ history: [(probe: Probe, hit: Bool)], cellWidth w: Double, cellHeight h: Double)
        -> NormalizedRect?
    {
        let hits = history.filter(\.hit).map(\.probe)
        guard let first = hits.first else { return nil }
        var (hx0, hx1, hy0, hy1) = (first.x, first.x, first.y, first.y)
        for p in hits {
            hx0 = min(hx0, p.x); hx1 = max(hx1, p.x); hy0 = min(hy0, p.y); hy1 = max(hy1, p.y)
        }
        let misses = history.filter { !$0.hit }.map(\.probe)
        let inRows = misses.filter { $0.y >= hy0 - h / 2 && $0.y <= hy1 + h / 2 }
        let inColumns = misses.filter { $0.x >= hx0 - w / 2 && $0.x <= hx1 + w / 2 }
        var x0 = hx0 - w / 2, x1 = hx1 + w / 2, y0 = hy0 - h / 2, y1 = hy1 + h / 2
        if let m = inRows.filter({ $0.x < hx0 }).map(\.x).max() { x0 = max(x0, (m + hx0) / 2) }
        if let m = inRows.filter({ $0.x > hx1 }).map(\.x).min() { x1 = min(x1, (m + hx1) / 2) }
        if let m = inColumns.filter({ $0.y < hy0 }).map(\.y).max() { y0 = max(y0, (m + hy0) / 2) }
        if let m = inColumns.filter({ $0.y > hy1 }).map(\.y).min() { y1 = min(y1, (m + hy1) / 2) }
        x0 = max(0, x0); x1 = min(1, x1); y0 = max(0, y0); y1 = min(1, y1)
        return try? NormalizedRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

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
        ) { zone, aspectRatio, _, focus, _, _ in AdaptivePlan(around: zone, aspectRatio: aspectRatio, focus: focus) },
        PlanRegistration(.grid, summary: "3x5 cells over the whole back", usesFocus: false) { zone, aspectRatio, pass, _, _, _ in
            GridPlan(around: zone, aspectRatio: aspectRatio, pass: pass)
        },
        PlanRegistration(.raster, summary: "every --step-mm over the whole back, for a motion stage", usesFocus: false) {
            _, _, _, _, planned, _ in RasterPlan(stored: planned)
        },
        PlanRegistration(
            .coil,
            summary: "chooses each of at most 16 positions by what it tells about the coil under the physics of two loops "
                + "(needs the reader's antenna)", usesFocus: false
        ) { zone, aspectRatio, _, _, _, physics in
            // A run refuses the plan without its physics (`RunRefusal.coilPlanNeedsGeometry`); only
            // a stored session whose geometry was lost (a hand-edited database) gets here
            // without it, and is read by the adaptive plan's rules rather than trapping.
            guard let physics else { return AdaptivePlan(around: zone, aspectRatio: aspectRatio) }
            return CoilPlan(around: zone, aspectRatio: aspectRatio, physics: physics)
        },
    ]

    public static func registration(_ kind: PlanKind) -> PlanRegistration {
        guard let found = registered.first(where: { $0.kind == kind }) else {
            preconditionFailure("plan '\(kind.rawValue)' has a stored name but no registration in ProbePlans.registered")
        }
        return found
    }

    /// The registered plans' names, in order (`adaptive`, the default, first).
    public static var names: [String] { registered.map(\.kind.rawValue) }
    /// `adaptive|grid|raster|coil`, for an option's value placeholder.
    public static var choices: String { names.joined(separator: "|") }
    /// `adaptive, grid, raster or coil`, for an option's error.
    public static var expectedChoices: String { names.dropLast().joined(separator: ", ") + " or " + names.last! }

    /// `pass`: how many sessions of this model came before (grid plans interleave by it).
    /// `focus`: where those sessions left the edges uncertain (plans that use one learn from it).
    /// `planned`: the positions a session stored (a raster rebuilds itself from them).
    public static func make(
        _ kind: PlanKind, around zone: NormalizedRect?, aspectRatio: Double,
        pass: Int = 0, focus: PlanFocus? = nil, planned: [Probe] = [], physics: PlanPhysics? = nil
    ) -> any ProbeStrategy {
        let plan = registration(kind)
        return plan.build(zone, aspectRatio, pass, plan.usesFocus ? focus : nil, planned, physics)
    }
}
