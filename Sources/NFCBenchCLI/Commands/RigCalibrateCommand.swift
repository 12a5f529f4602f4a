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
            Starts from the rig file (--rig, else rig.conf in the config folder): its device, dialect, feeds, travel
            and homing stay as they are; homes first if it says so. Keys: arrows move the reader's centre along
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

    static func run(_ invocation: ParsedInvocation, _ context: CommandContext) async throws -> Int32 {
        let loadedRig = try RigOptions.load(invocation, context)
        var rig = try RigCommand.rig(invocation, context)
        let (_, _, _, profile, body) = try await RigCommand.publishedBody(invocation, context)
        let (width, height) = (body.width, body.height)
        let destination = try OutputPath.check(invocation[output] ?? loadedRig.path, invocation, context)
        let opened: (machine: GCodeMachine, state: String)
        do { opened = try await GCodeMachine.open(rig, timeout: RigCommand.machineTimeout(invocation)) } catch {
            throw CommandFailure("The machine does not answer: \(error).", hint: "Check the cable, the device and the baud rate.")
        }
        let machine = opened.machine
        let out = context.output
        do {
            if rig.homes {
                out.line("Homing...")
                try await machine.home()
            } else if opened.state == "Alarm" {
                throw CommandFailure("The machine is in alarm.", hint: "Clear the cause, then 'nfcbench rig unlock'.")
            }
            try await machine.configure()
        } catch let error as MachineError {
            throw CommandFailure("The machine could not be set up: \(error).", hint: "'nfcbench rig unlock' clears an alarm.")
        }
        out.line(
            "Calibrating for \(profile.displayName) (\(RigConfiguration.number(width)) x \(RigConfiguration.number(height)) mm). "
                + "Arrows: X and Y; Page Up/Down: Z; 1-4: step 0.1/1/10/50 mm; a: top-left corner; b: opposite corner; "
                + "t: tap height; s: save; q: quit.")
        let keys = KeyBytes()
        var step = 1.0
        var marks: (a: (x: Double, y: Double)?, b: (x: Double, y: Double)?, tapZ: Double?) = (nil, nil, nil)
        var position = try await headPosition(machine)
        out.line(describe(position, step: step))
        while let key = await keys.next() {
            var move: (axis: String, delta: Double)?
            switch key {
            case .right: move = ("X", step)
            case .left: move = ("X", -step)
            case .up: move = ("Y", step)
            case .down: move = ("Y", -step)
            case .pageUp: move = ("Z", step)
            case .pageDown: move = ("Z", -step)
            case .byte(let byte) where steps[byte] != nil:
                step = steps[byte]!
                out.line(describe(position, step: step))
            case .byte(UInt8(ascii: "a")):
                marks.a = (position[0], position[1])
                out.line(
                    "  top-left corner marked at X \(RigConfiguration.number(position[0])) Y \(RigConfiguration.number(position[1]))"
                )
            case .byte(UInt8(ascii: "b")):
                marks.b = (position[0], position[1])
                out.line(
                    "  opposite corner marked at X \(RigConfiguration.number(position[0])) Y \(RigConfiguration.number(position[1]))"
                )
            case .byte(UInt8(ascii: "t")):
                marks.tapZ = position[2]
                out.line("  tap height marked at Z \(RigConfiguration.number(position[2]))")
            case .byte(UInt8(ascii: "s")):
                guard let a = marks.a, let b = marks.b, let tapZ = marks.tapZ else {
                    out.line("  mark both corners (a, b) and the tap height (t) first")
                    continue
                }
                let stroke = max(rig.safeZ - rig.tapZ, 1)
                rig.tapZ = tapZ
                rig.safeZ = min(tapZ + stroke, rig.travelZ)
                do {
                    rig = try JigCalibration(topLeft: a, bottomRight: b).applied(
                        to: rig, publishedWidthMm: width, publishedHeightMm: height, model: profile.displayName)
                    _ = try RigConfiguration.parse(rig.text)  // the saved file must read back
                } catch {
                    throw CommandFailure("Not saved: \(error).", hint: "Mark the corners again, or check the jig.")
                }
                try await OutputPath.write(destination) { try $0.write(rig.text) }
                out.line(
                    "Saved \(destination.given): origin X \(RigConfiguration.number(rig.originX)) Y \(RigConfiguration.number(rig.originY)), "
                        + "x along \(rig.xAxis), y along \(rig.yAxis), tap-z \(RigConfiguration.number(rig.tapZ)), safe-z \(RigConfiguration.number(rig.safeZ))."
                )
                return ExitCode.success
            case .byte(UInt8(ascii: "q")):
                out.line("Left without saving.")
                return ExitCode.failure
            default:
                continue
            }
            guard let move else { continue }
            do {
                try await machine.move([
                    "G91",
                    "G1 \(move.axis)\(RigConfiguration.number(move.delta)) F\(RigConfiguration.number(move.axis == "Z" ? rig.feedZ : rig.feedXY))",
                    "G90",
                ])
                position = try await headPosition(machine)
            } catch {
                throw CommandFailure("The machine stopped: \(error).", hint: "'nfcbench rig unlock' clears an alarm.")
            }
            out.line(describe(position, step: step))
        }
        out.line("The keyboard closed before the rig was saved.")
        return ExitCode.failure
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
