import NFCBenchRecords

/// How long a plan's moves take on a rig, from its feeds alone: every position is a rise
/// to the crossing height (safe-z, or clearance-z when the reader's field is off while the
/// machine crosses), the XY move, the descent and the rise after the tap. Acceleration
/// is not counted, so a real machine takes somewhat longer on short moves; `rig check
/// --move` times the moves on the machine itself.
public struct MoveTiming: Sendable, Equatable {
    public let positions: Int
    /// Distance across, at the crossing height.
    public let acrossMm: Double
    /// Distance up and down.
    public let verticalMm: Double
    public let seconds: Double

    /// `crossingZ` is the safe height unless given.
    public init(probes: [Probe], geometry: RigGeometry, crossingZ: Double? = nil, from start: (x: Double, y: Double)? = nil) {
        let rig = geometry.rig
        let crossing = crossingZ ?? rig.safeZ
        var at = start
        var across = 0.0
        for probe in probes {
            let point = geometry.machinePoint(probe)
            if let from = at {
                across += ((point.x - from.x) * (point.x - from.x) + (point.y - from.y) * (point.y - from.y)).squareRoot()
            }
            at = point
        }
        positions = probes.count
        acrossMm = across
        // Down from the crossing height to the tap's height above the back, and up again.
        verticalMm = probes.map { 2 * max(0, crossing - rig.tapZ - $0.heightMm) }.reduce(0, +)
        seconds = across / (rig.feedXY / 60) + verticalMm / (rig.feedZ / 60)
    }

    /// Positions per minute, counting the tap window of `windowSeconds` at each.
    public func positionsPerMinute(windowSeconds: Double) -> Double {
        let total = seconds + windowSeconds * Double(positions)
        return total > 0 ? Double(positions) / total * 60 : 0
    }
}
