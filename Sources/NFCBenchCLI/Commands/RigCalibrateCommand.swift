import Foundation
import NFCBench
import NFCBenchUseCases
import NFCLocatorCore
import NFCRig
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

    static func run(_ invocation: ParsedInvocation, _ context: CommandContext) async throws -> Int32 {
        let loadedRig = try RigOptions.load(invocation, context, requiringJig: false)
        let rig = try RigCommand.rig(invocation, context, requiringJig: false)
        let (_, _, _, profile, body) = try await RigCommand.publishedBody(invocation, context)
        let destination = try OutputPath.check(invocation[output] ?? loadedRig.path, invocation, context)
        let out = context.output
        return try await RigCommand.talking {
            let machine = try await RigMachine.open(rig, timeout: RigCommand.machineTimeout(invocation))
            try await machine.prepareForJogging { out.line("Homing...") }
            out.line(
                "Calibrating for \(profile.displayName) (\(RigConfiguration.number(body.width)) x "
                    + "\(RigConfiguration.number(body.height)) mm). Arrows: X and Y; Page Up/Down: Z; 1-4: step 0.1/1/10/50 mm; "
                    + "a: top-left corner; b: opposite corner; t: tap height; s: save; q: quit.")
            var jogging = Jogging(position: try await machine.headPosition())
            out.line(describe(jogging.position, step: jogging.step))
            let keys = KeyBytes()
            while let key = await keys.next() {
                if let move = move(for: key, step: jogging.step) {
                    jogging.position = try await machine.jog(move.axis, by: move.delta)
                    out.line(describe(jogging.position, step: jogging.step))
                    continue
                }
                guard case .byte(let byte) = key else { continue }
                switch jogging.press(byte) {
                case .step: out.line(describe(jogging.position, step: jogging.step))
                case .marked(let words): out.line("  " + words)
                case .save:
                    let saved: RigConfiguration
                    do {
                        saved = try jogging.marks.calibrated(
                            rig, publishedWidthMm: body.width, publishedHeightMm: body.height, model: profile.displayName)
                    } catch {
                        out.line("  Not saved: \(error). Jog to the corners again and mark them (a, b), then save (s); q quits.")
                        continue
                    }
                    try await OutputPath.write(destination) { try $0.write(saved.text) }
                    let n = RigConfiguration.number
                    out.line(
                        "Saved \(destination.given): origin X \(n(saved.originX)) Y \(n(saved.originY)), x along \(saved.xAxis), "
                            + "y along \(saved.yAxis), tap-z \(n(saved.tapZ)), safe-z \(n(saved.safeZ)).")
                    return ExitCode.success
                case .quit:
                    out.line("Left without saving.")
                    return ExitCode.failure
                case .ignored: continue
                }
            }
            out.line("The keyboard closed before the rig was saved.")
            return ExitCode.failure
        }
    }

    /// The calibration's keys other than the jogs: steps, marks, save and quit.
    struct Jogging {
        var position: HeadPosition
        var step = 1.0
        var marks = JigMarks()

        enum Outcome { case step, marked(String), save, quit, ignored }

        mutating func press(_ byte: UInt8) -> Outcome {
            let n = RigConfiguration.number
            switch byte {
            case _ where steps[byte] != nil:
                step = steps[byte]!
                return .step
            case UInt8(ascii: "a"):
                marks.topLeft = (position.x, position.y)
                return .marked("top-left corner marked at X \(n(position.x)) Y \(n(position.y))")
            case UInt8(ascii: "b"):
                marks.bottomRight = (position.x, position.y)
                return .marked("opposite corner marked at X \(n(position.x)) Y \(n(position.y))")
            case UInt8(ascii: "t"):
                marks.tapZ = position.z
                return .marked("tap height marked at Z \(n(position.z))")
            case UInt8(ascii: "s"): return .save
            case UInt8(ascii: "q"): return .quit
            default: return .ignored
            }
        }
    }

    /// The jog a key asks for: arrows move X and Y, Page Up and Down move Z, by `step` mm.
    static func move(for key: KeyBytes.Key, step: Double) -> (axis: JogAxis, delta: Double)? {
        switch key {
        case .right: (.x, step)
        case .left: (.x, -step)
        case .up: (.y, step)
        case .down: (.y, -step)
        case .pageUp: (.z, step)
        case .pageDown: (.z, -step)
        case .byte: nil
        }
    }

    static func describe(_ p: HeadPosition, step: Double) -> String {
        "  X \(String(format: "%.3f", p.x))  Y \(String(format: "%.3f", p.y))  Z \(String(format: "%.3f", p.z))  "
            + "(step \(RigConfiguration.number(step)) mm)"
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
