import NFCBenchUseCases
import NFCRig
import NFCVirtualBench

/// `sim serve`'s emulated machine: which firmware, how fast, the phone in its jig.
enum GantryOptions {
    static let gantry = Option<GantryDialect>(
        "--gantry", value: "grbl|marlin", help: "Also emulate a GRBL or Marlin machine carrying the reader (<dir>/gantry).",
        expected: "grbl or marlin", choices: GantryDialect.allCases.map(\.rawValue),
        convert: OptionValue.choice(GantryDialect.self))
    static let speed = Option<Double>(
        "--gantry-speed", value: "factor", help: "Run the gantry's moves this many times faster than real time (default 1).",
        expected: "a factor in 1...1000", convert: OptionValue.number(in: 1...1000))
    static let zHome = Option<String>(
        "--gantry-z-home", value: "up|down",
        help: "Which way the gantry's homing cycle drives Z (default up; down as a printer homes to its bed).",
        expected: "up or down", choices: ["up", "down"], convert: { ["up", "down"].contains($0) ? $0 : nil })
    static let body = Option<(width: Double, height: Double)>(
        "--body", value: "WxH", help: "The phone's body in mm, for the gantry's jig (default 70.6x147.0, a Galaxy S24).",
        expected: "width x height in mm, each 20...400, e.g. 70.6x147.0", convert: size)
    static let readHeight = Option<Double>(
        "--read-height", value: "mm", help: "How high over its coil's middle the phone still reads (default 20).",
        expected: "millimetres in 0...200", convert: OptionValue.number(in: 0...200))

    static func size(_ text: String) -> (width: Double, height: Double)? {
        let parts = text.lowercased().split(separator: "x").compactMap { Double($0) }
        guard parts.count == 2, parts.allSatisfy({ $0.isFinite && (20...400).contains($0) }) else { return nil }
        return (parts[0], parts[1])
    }

    static func configuration(_ invocation: ParsedInvocation) throws -> GantryConfiguration? {
        guard let dialect = invocation[gantry] else {
            for option in [speed.spec, zHome.spec] where invocation.values[option.name] != nil {
                throw UsageError("\(option.name) needs --gantry grbl|marlin.", path: invocation.path)
            }
            return nil
        }
        let body = invocation[Self.body] ?? ServedPhoneRequest.defaultBody
        var configuration = GantryConfiguration(
            dialect: dialect, bodyWidthMm: body.width, bodyHeightMm: body.height, speed: invocation[speed] ?? 1)
        configuration.zHomesDown = invocation[zHome] == "down"
        return configuration
    }

    /// How far above the back the emulated machine crosses when the reader's field is off.
    static let clearanceMm = 2.0

    /// The rig file that describes the emulated machine, as a lab would write it for a real one.
    static func rigFile(for gantry: GantryEmulator) -> RigConfiguration {
        let c = gantry.configuration
        return RigConfiguration(
            device: gantry.linkPath, dialect: c.dialect == .grbl ? .grbl : .marlin, originX: c.originX, originY: c.originY,
            safeZ: c.tapZ + 30, tapZ: c.tapZ, feedXY: 3000, feedZ: 600, travelX: c.travel.x, travelY: c.travel.y,
            travelZ: c.travel.z, homes: c.homes && !c.zHomesDown, clearanceZ: c.tapZ + Self.clearanceMm)
    }
}
