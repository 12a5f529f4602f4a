import Foundation

/// The emulated gantry's log (`<dir>/gantry.log`, `SECONDS EVENT` per line), as the tests
/// that check the order of a machine's moves read it.
public struct GantryLog {
    /// The events, without their times.
    public let events: [String]

    public init(directory: String) {
        events = ((try? String(contentsOfFile: directory + "/gantry.log", encoding: .utf8)) ?? "")
            .split(separator: "\n").map { String($0.split(separator: " ", maxSplits: 1).last ?? "") }
    }

    public func count(_ prefix: String) -> Int { events.filter { $0.hasPrefix(prefix) }.count }

    /// `move A -> B F...` events as (start, end) points.
    public var moves: [(start: [Double], end: [Double])] { events.compactMap(Self.move) }

    static func move(_ event: String) -> (start: [Double], end: [Double])? {
        guard event.hasPrefix("move ") else { return nil }
        let parts = event.split(separator: " ")
        let point = { (s: Substring) in s.split(separator: ",").compactMap { Double($0) } }
        return (point(parts[1]), point(parts[3]))
    }

    /// What breaks the placement rules, in words (empty when none does): an XY move below
    /// `crossingZ` (the safe height, or clearance-z when the reader's field is off while the
    /// machine crosses), a move that leaves `tapZ` before a barrier said the machine stopped
    /// there, and with `fieldOff`, an XY move while the emulated PN532's field was on.
    public func placementViolations(crossingZ: Double, tapZ: Double, fieldOff: Bool = false) -> [String] {
        var violations: [String] = []
        var descended = false
        for event in events {
            if event.hasPrefix("barrier") { descended = false }
            guard let (start, end) = Self.move(event) else { continue }
            if descended { violations.append("moved on from the tap height before a barrier: \(event)") }
            let acrossXY = abs(start[0] - end[0]) > 1e-6 || abs(start[1] - end[1]) > 1e-6
            if acrossXY, start[2] < crossingZ - 0.001 || end[2] < crossingZ - 0.001 {
                violations.append("XY move below the crossing height: \(event)")
            }
            if fieldOff, acrossXY, !event.hasSuffix("field off") {
                violations.append("XY move with the reader's field on: \(event)")
            }
            descended = abs(end[2] - tapZ) < 0.001
        }
        return violations
    }
}
