import Foundation

/// A rig file that cannot be used: which line, what is wrong, and what would be right.
public struct RigFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// 1-based; `nil` for a problem of the whole file (a key missing, two values at odds).
    public let line: Int?
    public let message: String

    public init(line: Int?, _ message: String) {
        self.line = line
        self.message = message
    }

    public var description: String { line.map { "line \($0): \(message)" } ?? message }
}

extension RigConfiguration {
    /// The keys a rig file has, in the order `text` writes them. Labs and scripts write
    /// these names, so they never change.
    public static let keys = [
        "device", "dialect", "baud", "origin-x", "origin-y", "x-axis", "y-axis", "safe-z", "tap-z", "clearance-z", "feed-xy",
        "feed-z",
        "travel-x", "travel-y", "travel-z", "homes", "tap-window",
    ]
    static let optionalKeys: Set<String> = ["device", "baud", "clearance-z", "tap-window"]
    /// Generous bounds that still catch a slip of the keyboard (a feed in mm/s, a travel in µm).
    static let travelRange = 1.0...5000
    static let feedRange = 1.0...100_000

    /// Reads a rig file. Every key but `device`, `baud`, `clearance-z` and `tap-window` is required, each once; an
    /// unknown key, a value out of range or a rig at odds with itself (origin outside the
    /// travel, safe height below the tap height) is refused, naming the line.
    public static func parse(_ text: String) throws(RigFileError) -> RigConfiguration {
        try parse(bytes: Array(text.utf8))
    }

    /// The file's bytes, line by line (LF or CRLF). A line that is not UTF-8, or that
    /// holds a NUL or another control character, is refused naming its line: a value read
    /// only up to a NUL (`feed-z = 6<NUL>00` as 6) once made a run's estimate jump to 180
    /// minutes (issue 49, F7).
    public static func parse(bytes: [UInt8]) throws(RigFileError) -> RigConfiguration {
        try parse(bytes: bytes, requiringJig: true)
    }

    /// The keys `rig calibrate` writes from the operator's marks; `rig init` leaves them out.
    public static let jigKeys: Set<String> = ["origin-x", "origin-y", "x-axis", "y-axis", "safe-z", "tap-z", "clearance-z"]

    /// `requiringJig: false` also reads a file `rig init` wrote, with no jig key at all, as
    /// a rig whose jig is not marked (`jigMarked`): only `rig calibrate` asks for that.
    public static func parse(bytes: [UInt8], requiringJig: Bool) throws(RigFileError) -> RigConfiguration {
        var values: [String: (value: String, line: Int)] = [:]
        for (index, rawBytes) in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            let lineBytes = rawBytes.last == UInt8(ascii: "\r") ? rawBytes.dropLast() : rawBytes
            guard let raw = String(validating: lineBytes, as: UTF8.self) else {
                throw RigFileError(line: number, "is not UTF-8 text; save the file as UTF-8")
            }
            if let control = raw.unicodeScalars.first(where: { ($0.value < 0x20 && $0 != "\t") || $0.value == 0x7F }) {
                throw RigFileError(
                    line: number,
                    "holds a control character (\(control.value == 0 ? "NUL" : "U+" + String(control.value, radix: 16, uppercase: true))); "
                        + "only text belongs in a rig file")
            }
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let parts = line.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                throw RigFileError(line: number, "expected 'key = value', found '\(Self.printable(line))'")
            }
            let key = parts[0].lowercased()
            guard keys.contains(key) else {
                throw RigFileError(
                    line: number, "unknown key '\(Self.printable(parts[0]))'; the keys are \(keys.joined(separator: ", "))")
            }
            if let earlier = values[key] {
                throw RigFileError(line: number, "'\(key)' is set twice (first on line \(earlier.line)); keep one")
            }
            values[key] = (parts[1], number)
        }
        if !values.keys.contains(where: jigKeys.contains) {
            guard !requiringJig else {
                throw RigFileError(
                    line: nil,
                    "has no jig yet (origin-x, origin-y, x-axis, y-axis, safe-z, tap-z); mark it with "
                        + "'nfcbench rig calibrate --model MODEL'")
            }
            return try machineOnly(ValueReader(values: values))
        }
        let missing = keys.filter { values[$0] == nil && !optionalKeys.contains($0) }
        guard missing.isEmpty else {
            throw RigFileError(
                line: nil, "missing \(missing.joined(separator: ", ")); 'nfcbench rig calibrate' writes a complete file")
        }
        let reader = ValueReader(values: values)
        let rig = RigConfiguration(
            device: try reader.device(), dialect: try reader.dialect(), baud: try reader.baud(),
            originX: try reader.millimetres("origin-x", in: 0...travelRange.upperBound),
            originY: try reader.millimetres("origin-y", in: 0...travelRange.upperBound),
            xAxis: try reader.axis("x-axis"), yAxis: try reader.axis("y-axis"),
            safeZ: try reader.millimetres("safe-z", in: 0...travelRange.upperBound),
            tapZ: try reader.millimetres("tap-z", in: 0...travelRange.upperBound),
            feedXY: try reader.millimetres("feed-xy", in: feedRange), feedZ: try reader.millimetres("feed-z", in: feedRange),
            travelX: try reader.millimetres("travel-x", in: travelRange),
            travelY: try reader.millimetres("travel-y", in: travelRange),
            travelZ: try reader.millimetres("travel-z", in: travelRange), homes: try reader.yesNo("homes"),
            clearanceZ: try reader.optionalMillimetres("clearance-z", in: 0...travelRange.upperBound),
            tapWindow: try reader.optionalSeconds("tap-window", in: RigConfiguration.tapWindows))
        try rig.checkConsistency(lines: values.mapValues(\.line))
        return rig
    }

    /// A file with the machine's keys only: the jig is a placeholder (origin 0, 0, the
    /// axes as the machine's, tap-z 0 and safe-z 30 mm above it) that `rig calibrate`
    /// replaces, and that nothing else reads (`jigMarked` is false).
    private static func machineOnly(_ reader: ValueReader) throws(RigFileError) -> RigConfiguration {
        let missing = keys.filter { reader.raw($0) == nil && !optionalKeys.contains($0) && !jigKeys.contains($0) }
        guard missing.isEmpty else {
            throw RigFileError(line: nil, "missing \(missing.joined(separator: ", ")); 'nfcbench rig init' writes them")
        }
        let travelZ = try reader.millimetres("travel-z", in: travelRange)
        var rig = RigConfiguration(
            device: try reader.device(), dialect: try reader.dialect(), baud: try reader.baud(), originX: 0, originY: 0,
            safeZ: min(30, travelZ), tapZ: 0,
            feedXY: try reader.millimetres("feed-xy", in: feedRange), feedZ: try reader.millimetres("feed-z", in: feedRange),
            travelX: try reader.millimetres("travel-x", in: travelRange),
            travelY: try reader.millimetres("travel-y", in: travelRange), travelZ: travelZ, homes: try reader.yesNo("homes"),
            tapWindow: try reader.optionalSeconds("tap-window", in: RigConfiguration.tapWindows))
        rig.jigMarked = false
        return rig
    }

    /// Rules between keys: two different axes, the origin inside the travel, the safe
    /// height above the tap height and both inside the Z travel.
    func checkConsistency(lines: [String: Int]) throws(RigFileError) {
        if xAxis.axis == yAxis.axis {
            throw RigFileError(
                line: lines["y-axis"],
                "x-axis and y-axis both run along machine \(xAxis.axis.rawValue); one must be X, the other Y")
        }
        if originX > travelX {
            throw RigFileError(line: lines["origin-x"], "origin-x \(originX) mm is beyond travel-x \(travelX) mm")
        }
        if originY > travelY {
            throw RigFileError(line: lines["origin-y"], "origin-y \(originY) mm is beyond travel-y \(travelY) mm")
        }
        if safeZ <= tapZ {
            throw RigFileError(
                line: lines["safe-z"],
                "safe-z \(safeZ) mm must be above tap-z \(tapZ) mm (heights are measured upwards from tap-z)")
        }
        if safeZ > travelZ { throw RigFileError(line: lines["safe-z"], "safe-z \(safeZ) mm is beyond travel-z \(travelZ) mm") }
        if let clearanceZ, clearanceZ <= tapZ || clearanceZ > safeZ {
            throw RigFileError(
                line: lines["clearance-z"],
                "clearance-z \(clearanceZ) mm must be above tap-z \(tapZ) mm and at most safe-z \(safeZ) mm "
                    + "(the reader crosses there with its field off; a few mm above tap-z)")
        }
    }

    /// A value as the error shows it: control characters made visible, at most 60 characters.
    static func printable(_ text: String) -> String {
        let shown = text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : String($0) }.joined()
        return shown.count > 60 ? String(shown.prefix(60)) + "..." : shown
    }
}

/// Reads typed values from a rig file's raw ones, each error naming its line.
private struct ValueReader {
    let values: [String: (value: String, line: Int)]

    func raw(_ key: String) -> (value: String, line: Int)? { values[key] }

    func device() throws(RigFileError) -> String? {
        guard let (value, line) = raw("device") else { return nil }
        guard value.hasPrefix("/"), !value.contains("?") else {
            throw RigFileError(
                line: line, "device must be an absolute path such as /dev/ttyUSB0, found '\(RigConfiguration.printable(value))'")
        }
        return value
    }

    func dialect() throws(RigFileError) -> MachineDialect {
        let (value, line) = raw("dialect")!  // required: checked before
        guard let dialect = MachineDialect(rawValue: value.lowercased()) else {
            throw RigFileError(line: line, "dialect must be grbl or marlin, found '\(RigConfiguration.printable(value))'")
        }
        return dialect
    }

    func baud() throws(RigFileError) -> Int {
        guard let (value, line) = raw("baud") else { return 115_200 }
        guard let baud = Int(value), MachineSpec.baudRates.contains(baud) else {
            throw RigFileError(
                line: line,
                "baud must be one of \(MachineSpec.baudRates.map(String.init).joined(separator: ", ")), found '\(RigConfiguration.printable(value))'"
            )
        }
        return baud
    }

    func millimetres(_ key: String, in range: ClosedRange<Double>) throws(RigFileError) -> Double {
        let (value, line) = raw(key)!  // required, or asked for only when present
        guard let number = Double(value), number.isFinite else {
            throw RigFileError(line: line, "\(key) must be a number, found '\(RigConfiguration.printable(value))'")
        }
        guard range.contains(number) else {
            let unit = key.hasPrefix("feed") ? "mm/min" : "mm"
            throw RigFileError(
                line: line,
                "\(key) \(value) is outside \(RigConfiguration.number(range.lowerBound))...\(RigConfiguration.number(range.upperBound)) \(unit)"
            )
        }
        return number
    }

    func optionalMillimetres(_ key: String, in range: ClosedRange<Double>) throws(RigFileError) -> Double? {
        raw(key) == nil ? nil : try millimetres(key, in: range)
    }

    func optionalSeconds(_ key: String, in range: ClosedRange<Double>) throws(RigFileError) -> Double? {
        guard let (value, line) = raw(key) else { return nil }
        guard let number = Double(value), number.isFinite else {
            throw RigFileError(line: line, "\(key) must be a number of seconds, found '\(RigConfiguration.printable(value))'")
        }
        guard range.contains(number) else {
            throw RigFileError(
                line: line,
                "\(key) \(value) is outside \(RigConfiguration.number(range.lowerBound))...\(RigConfiguration.number(range.upperBound)) s"
            )
        }
        return number
    }

    func axis(_ key: String) throws(RigFileError) -> RigConfiguration.AxisDirection {
        let (value, line) = raw(key)!
        guard let axis = RigConfiguration.AxisDirection(value) else {
            throw RigFileError(line: line, "\(key) must be +X, -X, +Y or -Y, found '\(RigConfiguration.printable(value))'")
        }
        return axis
    }

    func yesNo(_ key: String) throws(RigFileError) -> Bool {
        let (value, line) = raw(key)!
        switch value.lowercased() {
        case "yes": return true
        case "no": return false
        default: throw RigFileError(line: line, "\(key) must be yes or no, found '\(RigConfiguration.printable(value))'")
        }
    }
}
