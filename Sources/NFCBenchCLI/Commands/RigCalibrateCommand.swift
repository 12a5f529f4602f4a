import Foundation
import NFCBench
import NFCLocatorCore
import NFCMotion
import NFCSystem

/// `nfcbench rig calibrate`: jog the machine with keys, mark two opposite corners of the
/// phone's back and the tap height, check the body against the catalog, save the rig file.
enum RigCalibrateCommand {
    static let spec = CommandSpec(
        "calibrate", abstract: "Jog the machine to the phone's corners and the tap height, and save the rig file.",
        discussion: """
            Starts from the rig file (--rig, else rig.conf in the config folder; 'nfcbench rig init' writes a first
            one): its device, dialect, feeds, travel and homing stay as they are; homes first if it says so. Keys: arrows move the reader's centre along
            machine X (left, right) and Y (down, up), Page Up and Page Down move Z; 1, 2, 3 and 4 choose a step
            of 0.1, 1, 10 or 50 mm. Put the reader's centre on the phone's top-left corner of the back (as seen
            from the back) and press a, on the opposite corner and press b; lower it until the reader touches
            the back and press t. s checks the corners against the catalog's published body size (a difference
            over 2 mm is refused: wrong phone, or the jig is misaligned) and saves; q leaves without saving.
            The file is written to --output (default: the rig file read), replacing it atomically.
            """,
        options: [PlanCommand.model.spec, RigOptions.rig.spec, RigCommand.device.spec, output.spec, RigCommand.timeout.spec]
            + CatalogOptions.all,
        handler: run)
    static let output = Option<String>("--output", short: "o", value: "file", help: "Where to save the rig file.")

    static let steps = [UInt8(ascii: "1"): 0.1, UInt8(ascii: "2"): 1, UInt8(ascii: "3"): 10, UInt8(ascii: "4"): 50]

    /// What the operator has marked so far, in machine coordinates.
    struct Marks {
        var topLeft: (x: Double, y: Double)?
        var bottomRight: (x: Double, y: Double)?
        var tapZ: Double?
    }

    static func run(_ invocation: ParsedInvocation, _ context: CommandContext) async throws -> Int32 {
        let loadedRig = try RigOptions.load(invocation, context, requiringJig: false)
        let rig = try RigCommand.rig(invocation, context, requiringJig: false)
        let (_, _, _, profile, body) = try await RigCommand.publishedBody(invocation, context)
        let destination = try OutputPath.check(invocation[output] ?? loadedRig.path, invocation, context)
        let machine = try await openForJogging(rig, invocation, context)
        let out = context.output
        out.line(
            "Calibrating for \(profile.displayName) (\(RigConfiguration.number(body.width)) x \(RigConfiguration.number(body.height)) mm). "
                + "Arrows: X and Y; Page Up/Down: Z; 1-4: step 0.1/1/10/50 mm; a: top-left corner; b: opposite corner; "
                + "t: tap height; s: save; q: quit.")
        let keys = KeyBytes()
        var step = 1.0
        var marks = Marks()
        var position = try await headPosition(machine)
        out.line(describe(position, step: step))
        while let key = await keys.next() {
            if let move = move(for: key, step: step) {
                position = try await jog(machine, rig: rig, axis: move.axis, by: move.delta)
                out.line(describe(position, step: step))
                continue
            }
            guard case .byte(let byte) = key else { continue }
            switch byte {
            case _ where steps[byte] != nil:
                step = steps[byte]!
                out.line(describe(position, step: step))
            case UInt8(ascii: "a"), UInt8(ascii: "b"):
                let corner = (position[0], position[1])
                if byte == UInt8(ascii: "a") { marks.topLeft = corner } else { marks.bottomRight = corner }
                out.line(
                    "  \(byte == UInt8(ascii: "a") ? "top-left" : "opposite") corner marked at X "
                        + "\(RigConfiguration.number(position[0])) Y \(RigConfiguration.number(position[1]))")
            case UInt8(ascii: "t"):
                marks.tapZ = position[2]
                out.line("  tap height marked at Z \(RigConfiguration.number(position[2]))")
            case UInt8(ascii: "s"):
                if let saved = try await save(marks, rig: rig, profile: profile, body: body, to: destination, out) {
                    out.line(
                        "Saved \(destination.given): origin X \(RigConfiguration.number(saved.originX)) Y \(RigConfiguration.number(saved.originY)), "
                            + "x along \(saved.xAxis), y along \(saved.yAxis), tap-z \(RigConfiguration.number(saved.tapZ)), safe-z \(RigConfiguration.number(saved.safeZ))."
                    )
                    return ExitCode.success
                }
            case UInt8(ascii: "q"):
                out.line("Left without saving.")
                return ExitCode.failure
            default: continue
            }
        }
        out.line("The keyboard closed before the rig was saved.")
        return ExitCode.failure
    }

    /// Opens the machine, homes it when the rig homes (else refuses an alarm), and sets it up.
    static func openForJogging(_ rig: RigConfiguration, _ invocation: ParsedInvocation, _ context: CommandContext)
        async throws -> GCodeMachine
    {
        let opened: (machine: GCodeMachine, state: String)
        do { opened = try await GCodeMachine.open(rig, timeout: RigCommand.machineTimeout(invocation)) } catch {
            throw CommandFailure("The machine does not answer: \(error).", hint: "Check the cable, the device and the baud rate.")
        }
        do {
            if rig.homes {
                context.output.line("Homing...")
                try await opened.machine.home()
            } else if opened.state == "Alarm" {
                throw CommandFailure("The machine is in alarm.", hint: "Clear the cause, then 'nfcbench rig unlock'.")
            }
            try await opened.machine.configure()
        } catch let error as MachineError {
            throw CommandFailure("The machine could not be set up: \(error).", hint: "'nfcbench rig unlock' clears an alarm.")
        }
        return opened.machine
    }

    /// The jog a key asks for: arrows move X and Y, Page Up and Down move Z, by `step` mm.
    static func move(for key: KeyBytes.Key, step: Double) -> (axis: String, delta: Double)? {
        switch key {
        case .right: ("X", step)
        case .left: ("X", -step)
        case .up: ("Y", step)
        case .down: ("Y", -step)
        case .pageUp: ("Z", step)
        case .pageDown: ("Z", -step)
        case .byte: nil
        }
    }

    /// One relative move at the rig's feed; the head's position after it.
    static func jog(_ machine: GCodeMachine, rig: RigConfiguration, axis: String, by delta: Double) async throws -> [Double] {
        do {
            let feed = axis == "Z" ? rig.feedZ : rig.feedXY
            try await machine.move([
                "G91", "G1 \(axis)\(RigConfiguration.number(delta)) F\(RigConfiguration.number(feed))", "G90",
            ])
            return try await headPosition(machine)
        } catch {
            throw CommandFailure("The machine stopped: \(error).", hint: "'nfcbench rig unlock' clears an alarm.")
        }
    }

    /// Writes the rig the marks make, or says why it cannot and returns `nil`: a refused
    /// save (both corners and the tap height not yet marked, a jig whose corners do not
    /// match the phone's published size) keeps the session, so the operator jogs on and
    /// marks again instead of starting over.
    static func save(
        _ marks: Marks, rig: RigConfiguration, profile: DeviceAntennaProfile, body: BodyMillimetres,
        to destination: OutputDestination, _ out: any TextOutput
    ) async throws -> RigConfiguration? {
        guard let a = marks.topLeft, let b = marks.bottomRight, let tapZ = marks.tapZ else {
            out.line("  mark both corners (a, b) and the tap height (t) first")
            return nil
        }
        var calibrated = rig
        let stroke = max(rig.safeZ - rig.tapZ, 1)
        calibrated.tapZ = tapZ
        calibrated.safeZ = min(tapZ + stroke, rig.travelZ)
        calibrated.jigMarked = true
        do {
            calibrated = try JigCalibration(topLeft: a, bottomRight: b).applied(
                to: calibrated, publishedWidthMm: body.width, publishedHeightMm: body.height, model: profile.displayName)
            _ = try RigConfiguration.parse(calibrated.text)  // the saved file must read back
        } catch {
            out.line("  Not saved: \(error). Jog to the corners again and mark them (a, b), then save (s); q quits.")
            return nil
        }
        try await OutputPath.write(destination) { try $0.write(calibrated.text) }
        return calibrated
    }

    static func headPosition(_ machine: GCodeMachine) async throws -> [Double] {
        do {
            guard let position = try await machine.state().position else {
                throw CommandFailure("The machine did not report its position.", hint: "Check its firmware (GRBL 1.1, Marlin 2).")
            }
            return position
        } catch let error as MachineError {
            throw CommandFailure("The machine did not report its position: \(error).", hint: "Check the cable.")
        }
    }

    static func describe(_ p: [Double], step: Double) -> String {
        "  X \(String(format: "%.3f", p[0]))  Y \(String(format: "%.3f", p[1]))  Z \(String(format: "%.3f", p[2]))  (step \(RigConfiguration.number(step)) mm)"
    }
}

/// Keys from standard input (`Keyboard.keys`), one at a time, without Enter at a terminal.
/// A pipe works too (scripts and tests send the same bytes).
final class KeyBytes: Sendable {
    typealias Key = Keyboard.Key
    private let iterator: Box

    /// Holds the one iterator; only `next`, awaited by one task at a time, touches it.
    private final class Box: @unchecked Sendable {
        var iterator: AsyncStream<Key>.Iterator
        init(_ iterator: AsyncStream<Key>.Iterator) { self.iterator = iterator }
    }

    init() {
        RawKeys.enableForKeys()
        iterator = Box(Keyboard.keys(threadName: "calibration keys").makeAsyncIterator())
    }

    func next() async -> Key? { await iterator.iterator.next() }
}
