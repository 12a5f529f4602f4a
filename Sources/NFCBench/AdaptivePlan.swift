import Foundation
import NFCBenchRecords
import NFCBenchSeams
import NFCLocatorCore

/// Starts at the predicted centre (else walks a coarse grid to the first hit), bounds the
/// zone's top and bottom along the column through that hit, then its left and right
/// along the row halfway between the top and bottom reads. Each edge is tried just
/// inside and just outside where it is expected (two taps confirm a right prediction),
/// then bisected until bounded within `tolerance`.
///
/// The row is re-centred because the first hit is often near an edge (a prediction
/// shifted by half its height puts its centre at the coil's border): widths measured
/// along that row are measured in the reader's fall-off, where reads come and go.
///
/// With a `focus` (the pooled evidence of earlier sessions) the edges are first tried at
/// the ends of their pooled intervals, and the taps left up to `budget` go where those
/// intervals are widest, at jittered offsets around each edge and jittered positions
/// along it: repeated sessions then narrow the weakest edge instead of re-tapping the
/// strongest (`docs/refine.md`, `bench/refine`).
public struct AdaptivePlan: ProbeStrategy {
    public let start: Probe
    public let predicted: NormalizedRect?
    public let focus: PlanFocus?
    public let aspectRatio: Double
    /// An edge is bounded when its last read and first silence are this close (body heights).
    public let tolerance: Double
    /// How far inside and outside an expected edge its first two probes go (body heights).
    public let margin: Double
    /// How close to the body's edge the outermost probe goes (fractions of the back).
    public let inset: Double
    /// With a focus, the taps a session spends in all (bounding may need more).
    public let budget: Int
    let fallback: GridPlan
    /// Kept with the plan, so the coils it read after one tap are read on after the next.
    let graded: GradedDesign
    public var kind: PlanKind { .adaptive }
    public var shape: PlanShape {
        PlanShape(plannedLength: nil, maximumPositions: maximumPositions, cells: nil, gradedPositions: Self.gradedBudget)
    }

    public init(
        around zone: NormalizedRect?, aspectRatio: Double = 0.48, focus: PlanFocus? = nil, tolerance: Double = 0.06,
        margin: Double = 0.05, inset: Double = 0.03, budget: Int = 12
    ) {
        precondition(aspectRatio > 0 && tolerance > 0 && margin > 0 && (0..<0.5).contains(inset), "plan geometry out of range")
        start = zone.map { Probe(x: $0.midX, y: $0.midY) } ?? Probe(x: 0.5, y: 0.3)
        predicted = zone
        self.focus = focus
        self.aspectRatio = aspectRatio
        self.tolerance = tolerance
        self.margin = margin
        self.inset = inset
        self.budget = budget
        fallback = GridPlan(around: zone, aspectRatio: aspectRatio)
        graded = GradedDesign(
            aspectRatio: aspectRatio, predicted: zone, model: Self.gradedModel, budget: Self.gradedBudget)
    }

    enum Direction: CaseIterable {
        case left, right, up, down
        var horizontal: Bool { self == .left || self == .right }
        var towardZero: Bool { self == .left || self == .up }
        var edge: ZoneEdge {
            switch self {
            case .left: .left
            case .right: .right
            case .up: .top
            case .down: .bottom
            }
        }
    }

    /// A line of probes through the zone: a column (x fixed) or a row (y fixed), walked
    /// both ways from `origin`, a point known to read.
    struct Line {
        let origin: Probe
        let horizontal: Bool
        func contains(_ p: Probe) -> Bool { horizontal ? p.y == origin.y : p.x == origin.x }
        func point(_ v: Double) -> Probe { horizontal ? Probe(x: v, y: origin.y) : Probe(x: origin.x, y: v) }
    }

    /// Along one direction of `line`: the farthest hit, the nearest miss beyond it, and the
    /// next coordinate to probe, if the edge is not bounded yet.
    func bounds(_ d: Direction, along line: Line, history: [(probe: Probe, hit: Bool)]) -> (
        inner: Double, outer: Double?, next: Double?
    ) {
        let border = d.towardZero ? inset : 1 - inset
        let origin = d.horizontal ? line.origin.x : line.origin.y
        func beyond(_ a: Double, _ b: Double) -> Bool { d.towardZero ? a < b : a > b }
        var tally: [Double: (hits: Int, taps: Int)] = [:]
        for (probe, hit) in history where line.contains(probe) {
            let value = d.horizontal ? probe.x : probe.y
            guard beyond(value, origin) else { continue }
            tally[value, default: (0, 0)].taps += 1
            if hit { tally[value]!.hits += 1 }
        }
        // A position is inside when most of its taps read, outside when most were silent:
        // the half-read boundary the estimate fits. A phone misses now and then over its
        // coil, and reads now and then in the reader's fall-off beyond it, so a tie (a
        // retapped silence that read, a retapped border read that did not) is tapped again
        // rather than taken either way.
        var inner = origin
        var outer: Double?
        var tie: Double?
        for (value, t) in tally {
            if 2 * t.hits == t.taps {
                // The nearest tie first: the dictionary's order must not choose the probe.
                if tie.map({ beyond($0, value) }) ?? true { tie = value }
                continue
            }
            if 2 * t.hits > t.taps {
                if beyond(value, inner) { inner = value }
            } else if outer.map({ beyond($0, value) }) ?? true {
                outer = value
            }
        }
        let probed = Set(tally.keys)
        if let tie { return (inner, outer, tie) }
        // A single silence where the zone was expected to continue is tapped once more
        // before the edge is drawn there: one random miss would otherwise send the
        // bisection the wrong way for the rest of the session.
        if let outer, tally[outer]!.taps == 1, !beyond(inner, outer), let expected = expectedEdge(d),
            !beyond(outer, Self.rounded(expected.inside))
        {
            return (inner, outer, outer)
        }
        if let outer, beyond(inner, outer) { return (inner, outer, nil) }  // inconsistent taps: stop here
        let scale = d.horizontal ? aspectRatio : 1
        if let outer {
            // An edge found within its pooled interval is left to the sharpening taps,
            // which sample that interval where the pool needs it most.
            var enough = tolerance
            if focus?.edges[d.edge] != nil, let expected = expectedEdge(d) {
                enough = max(enough, abs(expected.inside - expected.outside) * scale)
                // Silent just outside its pooled interval: as the pool expected, so bounded.
                if outer == clamped(expected.outside) { return (inner, outer, nil) }
            }
            if abs(outer - inner) * scale <= enough + 1e-9 {
                // A bracket closed by one silence the prediction did not foresee is tapped
                // once more: a phone misses now and then over its coil, and one such miss
                // would otherwise become the edge (the estimate cannot undo it).
                if focus == nil, tally[outer]!.taps == 1, !foreseen(outer, d) { return (inner, outer, outer) }
                return (inner, outer, nil)
            }
            return (inner, outer, Self.rounded((inner + outer) / 2))
        }
        if inner == border {
            // The coil reaches the body's edge, or the reader's reach carries a read past
            // a coil ending a few millimetres short of it: one more tap tells them apart.
            return (inner, nil, tally[border]!.taps == 1 ? border : nil)
        }
        // No miss yet: just inside and just outside the expected edge, then the border.
        // With a focus only outside: the pool already knows the inside reads.
        var candidates: [Double] = []
        if let (inside, outside) = expectedEdge(d) {
            candidates = (focus == nil ? [inside, outside] : [outside]).map(clamped)
        }
        candidates.append(border)
        let next = candidates.first { beyond($0, inner) && !probed.contains($0) }
        return (inner, nil, next)
    }

    /// Where an edge's first two probes go: the ends of its pooled interval (widened to
    /// the margin), else the margin either side of the predicted edge.
    func expectedEdge(_ d: Direction) -> (inside: Double, outside: Double)? {
        let margin = self.margin / (d.horizontal ? aspectRatio : 1)
        let sign = d.towardZero ? 1.0 : -1.0  // towards the inside
        if let pooled = focus?.edges[d.edge] {
            let inside = d.towardZero ? pooled.high : pooled.low, outside = d.towardZero ? pooled.low : pooled.high
            return (
                sign * (inside - pooled.value) >= margin / 2 ? inside : pooled.value + sign * margin / 2,
                sign * (pooled.value - outside) >= margin / 2 ? outside : pooled.value - sign * margin / 2
            )
        }
        guard let zone = predicted else { return nil }
        let edge = d.horizontal ? (d.towardZero ? zone.x : zone.maxX) : (d.towardZero ? zone.y : zone.maxY)
        // Inside a coil smaller than twice the margin, halfway to its centre: still inside.
        let halfExtent = (d.horizontal ? zone.width : zone.height) / 2
        return (edge + sign * min(margin, halfExtent / 2), edge - sign * margin)
    }

    /// Whether a silence at `value` is where the predicted edge put the zone's end (within
    /// the margin of it), so one tap there is enough.
    func foreseen(_ value: Double, _ d: Direction) -> Bool {
        guard let zone = predicted else { return false }
        let edge = d.horizontal ? (d.towardZero ? zone.x : zone.maxX) : (d.towardZero ? zone.y : zone.maxY)
        return abs(value - edge) <= margin / (d.horizontal ? aspectRatio : 1) + 1e-9
    }

    /// The column through the first hit, and once its ends are bounded, the row halfway
    /// between its top and bottom reads.
    func lines(_ history: [(probe: Probe, hit: Bool)]) -> (column: Line, row: Line?)? {
        guard let anchor = history.first(where: \.hit)?.probe else { return nil }
        let column = Line(origin: anchor, horizontal: false)
        let up = bounds(.up, along: column, history: history), down = bounds(.down, along: column, history: history)
        guard up.next == nil, down.next == nil else { return (column, nil) }
        return (column, Line(origin: Probe(x: anchor.x, y: Self.rounded((up.inner + down.inner) / 2)), horizontal: true))
    }

    /// The next probe of the bounding phase, or `nil` when every edge is bounded.
    func nextBounding(_ history: [(probe: Probe, hit: Bool)]) -> Probe? {
        guard let (column, row) = lines(history) else {
            // No hit yet: the predicted centre, then the coarse grid outward until
            // something answers.
            if !history.contains(where: { $0.probe == start }) { return start }
            return fallback.order.first { cell in !history.contains { $0.probe == cell } } ?? nil
        }
        for d in [Direction.up, .down] {
            if let v = bounds(d, along: column, history: history).next { return column.point(v) }
        }
        guard let row else { return nil }
        for d in [Direction.left, .right] {
            if let v = bounds(d, along: row, history: history).next { return row.point(v) }
        }
        return nil
    }

    /// No session of this plan taps more positions: a walk of the coarse grid to the
    /// first hit, then per edge its two first probes, the bisection down to `tolerance`
    /// over the whole back, and two confirmations (of a silence inside the predicted zone,
    /// and of the silence closing an unforeseen edge), each settled by a third tap if the
    /// two disagree. The run tells the operator this bound.
    public var maximumPositions: Int {
        fallback.order.count + 4 * (6 + Int(log2(1 / tolerance).rounded(.up)))
    }

    public func next(after history: [(probe: Probe, hit: Bool)]) -> Probe? {
        guard history.count < maximumPositions else { return nil }
        if let probe = nextBounding(history) { return probe }
        guard let focus, history.count < budget, history.contains(where: \.hit) else { return nil }
        // Where bounding ended: the sharpening taps are counted from there.
        var bounded = history.count
        while bounded > 0, nextBounding(Array(history.prefix(bounded - 1))) == nil { bounded -= 1 }
        guard let (column, row) = lines(history) else { return nil }
        let sharpening = EdgeSharpening(
            focus: focus, aspectRatio: aspectRatio, inset: inset, avoid: (column.origin.x, row?.origin.y ?? -1))
        return sharpening.probe(history.count - bounded)
    }

    /// The positions a graded session taps in all.
    public static let gradedBudget = 12
    /// The reader's reach the graded design assumes, in body heights: 3 mm on a 150 mm
    /// phone, as `refine --reach-mm`'s default (2.94 mm) on the phones the catalog holds.
    static let gradedModel = DetectionModel(reach: 0.02)

    /// A graded session (`grades` not `nil`, even empty) follows the graded design
    /// (`GradedDesign`) from its second position on, within `gradedBudget` positions: the
    /// grades place edges that a binary plan must bisect.
    public func next(
        after history: [(probe: Probe, hit: Bool)], grades: [(probe: Probe, coupling: Double)]?, skipped: Set<Probe>
    ) -> Probe? {
        guard let grades else { return next(after: history) }
        return graded.next(after: history, grades: grades, skipped: skipped, first: start)
    }

    /// A graded session's taps lie on no line of the binary plan: its zone is the fit of
    /// its reads and grades (`ZoneEstimator`), as `refine` would fit them.
    public func measuredZone(
        from history: [(probe: Probe, hit: Bool)], grades: [(probe: Probe, coupling: Double)]
    ) -> NormalizedRect? {
        guard !grades.isEmpty else { return measuredZone(from: history) }
        let tallies = PositionTally.pool(
            history.map { ($0.probe.x, $0.probe.y, $0.hit) }, grades: grades.map { ($0.probe.x, $0.probe.y, $0.coupling) })
        return ZoneEstimator(model: Self.gradedModel, aspectRatio: aspectRatio).estimate(tallies)?.zone
    }

    public func measuredZone(from history: [(probe: Probe, hit: Bool)]) -> NormalizedRect? {
        guard let (column, row) = lines(history) else { return nil }
        func edge(_ d: Direction, _ line: Line?) -> Double {
            guard let line, let outer = bounds(d, along: line, history: history).outer else { return d.towardZero ? 0 : 1 }
            return (bounds(d, along: line, history: history).inner + outer) / 2
        }
        let x0 = edge(.left, row), x1 = edge(.right, row), y0 = edge(.up, column), y1 = edge(.down, column)
        return try? NormalizedRect(x: x0, y: y0, width: max(x1 - x0, 0.01), height: max(y1 - y0, 0.01))
    }

    /// Probes land on a 1/1000 lattice, so a probe recomputed from a stored history is
    /// the very same value.
    static func rounded(_ v: Double) -> Double { (v * 1000).rounded() / 1000 }

    func clamped(_ v: Double) -> Double { min(max(Self.rounded(v), inset), 1 - inset) }
}
