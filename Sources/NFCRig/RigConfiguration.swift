import Foundation

/// How a motion stage holds the phone and moves over it: the `rig.conf` a lab writes
/// once per rig (`key = value` lines, as lab.conf), read by `--positioner gcode` and
/// written by `nfcbench rig calibrate` and by the virtual bench's emulated gantry.
///
/// Coordinates are the machine's, in millimetres, as it reports them with no work
/// offset. Heights are measured upwards from `tapZ`, where the phone's back lies on the
/// reader; `safeZ` is high enough that the phone no longer couples, so XY moves there
/// never drag the phone across the antenna. A rig whose reader can switch its RF field
/// off may cross at `clearanceZ` instead, a few millimetres above the back: with the field
/// off the phone is out of the field electrically, however close it is.
public struct RigConfiguration: Sendable, Equatable {
    /// A machine axis the phone's own axis runs along, and in which direction.
    public struct AxisDirection: Sendable, Equatable, CustomStringConvertible {
        public enum Axis: String, Sendable { case x = "X", y = "Y" }
        public let axis: Axis
        /// `+1` when the phone's coordinate grows with the machine's, `-1` against it.
        public let sign: Double

        public init(axis: Axis, sign: Double) {
            precondition(sign == 1 || sign == -1, "an axis direction is +1 or -1")
            self.axis = axis
            self.sign = sign
        }

        /// `+X`, `-Y`; a bare `X` means `+X`.
        public init?(_ text: String) {
            var body = Substring(text.uppercased())
            var sign = 1.0
            if body.first == "+" || body.first == "-" {
                sign = body.first == "-" ? -1 : 1
                body = body.dropFirst()
            }
            guard let axis = Axis(rawValue: String(body)) else { return nil }
            self.init(axis: axis, sign: sign)
        }

        public var description: String { (sign < 0 ? "-" : "+") + axis.rawValue }
    }

    public var device: String?
    public var dialect: MachineDialect
    public var baud: Int
    /// Machine X and Y of the phone's back top-left corner, as it lies in the jig.
    public var originX: Double
    public var originY: Double
    /// Which machine axis runs along the phone's x (left to right on the back) and y (top to bottom).
    public var xAxis: AxisDirection
    public var yAxis: AxisDirection
    public var safeZ: Double
    public var tapZ: Double
    /// Machine Z to cross at between taps while the reader's field is off (above `tapZ`,
    /// at most `safeZ`); `nil` crosses at `safeZ` always.
    public var clearanceZ: Double?
    /// mm/min.
    public var feedXY: Double
    public var feedZ: Double
    /// The machine's travel from 0, in mm.
    public var travelX: Double
    public var travelY: Double
    public var travelZ: Double
    /// Whether the run homes the machine (`$H`, `G28`) before its first move.
    public var homes: Bool
    /// The tap window a run on this rig takes when `--tap-timeout` is not given, seconds;
    /// `nil`: `recommendedTapWindow`.
    public var tapWindow: Double?
    /// Whether the jig (origin, axes, tap and safe heights) has been marked. `rig init`
    /// writes a file with the machine's keys only; `rig calibrate` marks the jig. A file
    /// without it is read only by `rig calibrate`: a run over an unmarked jig would place
    /// the reader at made-up heights.
    public var jigMarked = true

    /// One whole libnfc poll round (InAutoPoll, 150 ms for each of ISO 14443 A, 4A and B): a
    /// machine stops at the barrier before the window opens, so the phone is at rest and
    /// answers the first poll it hears (docs/rig.md, "The tap window"). A hand needs 5 s.
    public static let recommendedTapWindow = 0.4
    /// Windows a rig file may set, seconds: one poll round at the least, a slow phone's wake at most.
    public static let tapWindows: ClosedRange<Double> = 0.1...30

    /// The window a run on this rig takes by default.
    public var defaultTapWindow: Double { tapWindow ?? Self.recommendedTapWindow }

    public init(
        device: String? = nil, dialect: MachineDialect, baud: Int = 115_200, originX: Double, originY: Double,
        xAxis: AxisDirection = AxisDirection(axis: .x, sign: 1), yAxis: AxisDirection = AxisDirection(axis: .y, sign: 1),
        safeZ: Double, tapZ: Double, feedXY: Double, feedZ: Double, travelX: Double, travelY: Double, travelZ: Double,
        homes: Bool, clearanceZ: Double? = nil, tapWindow: Double? = nil
    ) {
        self.device = device
        self.dialect = dialect
        self.baud = baud
        self.originX = originX
        self.originY = originY
        self.xAxis = xAxis
        self.yAxis = yAxis
        self.safeZ = safeZ
        self.tapZ = tapZ
        self.feedXY = feedXY
        self.feedZ = feedZ
        self.travelX = travelX
        self.travelY = travelY
        self.travelZ = travelZ
        self.homes = homes
        self.clearanceZ = clearanceZ
        self.tapWindow = tapWindow
    }

    /// The rig file's text, every key in the documented order (docs/rig.md), numbers to
    /// the micrometre: `parse` reads it back to the same rig.
    public var text: String {
        var lines = ["# nfcbench rig file (docs/rig.md): machine coordinates in mm, feeds in mm/min"]
        if let device { lines.append("device = \(device)") }
        lines += ["dialect = \(dialect.rawValue)", "baud = \(baud)"]
        if jigMarked {
            lines += [
                "origin-x = \(Self.number(originX))", "origin-y = \(Self.number(originY))",
                "x-axis = \(xAxis)", "y-axis = \(yAxis)",
                "safe-z = \(Self.number(safeZ))", "tap-z = \(Self.number(tapZ))",
            ]
            if let clearanceZ { lines.append("clearance-z = \(Self.number(clearanceZ))") }
        } else {
            lines.append("# no jig yet: 'nfcbench rig calibrate --model MODEL' marks origin, axes, tap-z and safe-z")
        }
        lines += [
            "feed-xy = \(Self.number(feedXY))", "feed-z = \(Self.number(feedZ))",
            "travel-x = \(Self.number(travelX))", "travel-y = \(Self.number(travelY))",
            "travel-z = \(Self.number(travelZ))", "homes = \(homes ? "yes" : "no")",
        ]
        if let tapWindow { lines.append("tap-window = \(Self.number(tapWindow))") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A millimetre figure to 3 decimals, without trailing zeros (`20`, `12.5`).
    public static func number(_ value: Double) -> String {
        var text = String(format: "%.3f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "-0" ? "0" : text
    }
}

/// The G-code dialect a machine speaks.
public enum MachineDialect: String, Sendable, CaseIterable {
    /// GRBL 1.1 (gnea/grbl): `ok`/`error:N` per line, `?` status reports, `ALARM:N` pushes.
    case grbl
    /// Marlin firmware (3D printers): `ok` per line, `busy:`/`echo:` lines, `M400` waits for moves.
    case marlin

    public var displayName: String { self == .grbl ? "GRBL" : "Marlin" }
}
