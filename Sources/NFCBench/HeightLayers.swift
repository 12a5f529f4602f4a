import NFCBenchRecords
import NFCBenchSeams
import NFCLocatorCore

/// A plan's positions tapped at several heights above the back (`--heights 0,5,10,20`),
/// layer by layer: every position on the back first, in the base plan's order; then, one
/// height up, each position that read in the layer below. A position that misses at a
/// height is not tapped higher: a reader's field only weakens with distance. The greatest
/// height that read at each position is the phone's operating volume there.
///
/// Layers, not columns, because a machine crossing above its clearance height needs no Z
/// move between positions of one layer; each layer runs backwards through the one below,
/// so it starts where that one ended (a serpentine raster stays a serpentine).
///
/// The plan itself (its next position, its measured zone) sees only the taps on the back,
/// as do the verdict and refine: the layers above map the volume, they do not move zones.
public struct HeightLayers: ProbeStrategy {
    public let base: any ProbeStrategy
    /// Rising, from 0.
    public let heights: [Double]

    public init(base: any ProbeStrategy, heights: [Double]) {
        precondition(heights.first == 0 && zip(heights, heights.dropFirst()).allSatisfy { $0 < $1 }, "heights rise from 0")
        self.base = base
        self.heights = heights
    }

    public var kind: PlanKind { base.kind }
    public var shape: PlanShape {
        PlanShape(
            plannedLength: nil, maximumPositions: base.shape.maximumPositions * heights.count, cells: base.shape.cells)
    }

    public func next(after history: [(probe: Probe, hit: Bool)]) -> Probe? {
        if let onTheBack = base.next(after: Self.onTheBack(history)) { return onTheBack }
        for level in heights.indices.dropFirst() {
            let tapped = Set(history.filter { $0.probe.heightMm == heights[level] }.map { Spot($0.probe) })
            let below = history.filter { $0.probe.heightMm == heights[level - 1] }.reversed()
            if let read = below.first(where: { $0.hit && !tapped.contains(Spot($0.probe)) }) {
                return read.probe.at(heightMm: heights[level])
            }
        }
        return nil
    }

    /// A position on the back, whatever the height.
    private struct Spot: Hashable {
        let x: Double, y: Double
        init(_ probe: Probe) { (x, y) = (probe.x, probe.y) }
    }

    public func measuredZone(from history: [(probe: Probe, hit: Bool)]) -> NormalizedRect? {
        base.measuredZone(from: Self.onTheBack(history))
    }

    public func expectedProbes(for expected: NormalizedRect?) -> [Probe] {
        base.expectedProbes(for: expected).flatMap { probe in
            expected?.contains(x: probe.x, y: probe.y) == true ? heights.map { probe.at(heightMm: $0) } : [probe]
        }
    }

    /// Every position at every height, the most the plan can take: what a session stores,
    /// so its heights come back with it (`SessionRecord.strategy`).
    public func storedProbes(for expected: NormalizedRect?) -> [Probe] {
        base.expectedProbes(for: expected).flatMap { probe in heights.map { probe.at(heightMm: $0) } }
    }

    static func onTheBack(_ history: [(probe: Probe, hit: Bool)]) -> [(probe: Probe, hit: Bool)] {
        history.filter { $0.probe.isAtTapHeight }
    }

    /// The plan a session stored: its heights are those of its stored positions, and the
    /// base plan's positions those on the back.
    public static func rebuild(from planned: [Probe], _ base: ([Probe]) -> any ProbeStrategy) -> any ProbeStrategy {
        let heights = Set(planned.map(\.heightMm)).sorted()
        let onTheBack = planned.filter(\.isAtTapHeight)
        guard heights.count > 1, heights.first == 0 else { return base(planned) }
        return HeightLayers(base: base(onTheBack), heights: heights)
    }
}
