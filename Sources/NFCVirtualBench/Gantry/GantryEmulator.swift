import Foundation
import NFCReaders
import Synchronization

/// An emulated GRBL CNC or Marlin printer on a pty (`<dir>/gantry`), carrying the virtual
/// bench's reader over the simulated phone: when the head comes to rest over the phone's
/// back, the phone is placed there at the head's height above the back (its reach
/// shrinks with height, `SimulatedPhone.detectionProbability`); a move across takes it out
/// of the field, and a move straight up or down judges that placement again at the new
/// height (`PhoneOnBench.changeHeight`): the phone stays in the field while it still
/// couples, and enters it when the reader comes down into range. Moves take their real
/// time at the commanded feed (divided by `speed` for tests); acceleration is not modelled.
///
/// Every line in and out, every move (with the emulated PN532's field at its start) and
/// every barrier go to `<dir>/gantry.log`, which tests read to check the order of moves:
/// `SECONDS EVENT`, one per line.
public final class GantryEmulator: Sendable {
    public let linkPath: String
    public let logPath: String
    public let configuration: GantryConfiguration
    private let bench: PhoneOnBench
    private let controls = GantryControls()
    private let worker = BenchWorker(name: "gantry-emulator")
    private let snapshot = Mutex<(position: [Double], state: String)>(([0, 0, 0], "Idle"))

    public init(configuration: GantryConfiguration, bench: PhoneOnBench, directory: String) {
        self.configuration = configuration
        self.bench = bench
        linkPath = directory + "/gantry"
        logPath = directory + "/gantry.log"
    }

    public func start() throws {
        let pty = try PseudoTerminal(linkPath: linkPath)
        guard FileManager.default.createFile(atPath: logPath, contents: nil),
            let log = FileHandle(forWritingAtPath: logPath)
        else {
            throw VirtualBenchError.gantryLog(path: logPath)
        }
        let box = Box((pty, log))
        worker.start { [self] in run(box.value.0, log: box.value.1) }
    }

    public func stop() {
        worker.stop()
        unlink(linkPath)
    }

    public func inject(_ fault: GantryFault) { controls.inject(fault) }

    /// The head's machine position and GRBL's state word.
    public var status: (position: [Double], state: String) { snapshot.withLock { $0 } }

    private func run(_ pty: PseudoTerminal, log: FileHandle) {
        var firmware = GantryFirmware(configuration: configuration)
        var incoming: [UInt8] = []
        var lines: [String] = []
        let started = ContinuousClock.now
        var last = started
        func write(_ event: String) {
            let seconds = (ContinuousClock.now - started).components
            let t = Double(seconds.seconds) + Double(seconds.attoseconds) / 1e18
            log.write(Data(String(format: "%.3f %@\n", t, event).utf8))
        }
        defer {
            pty.close()
            try? log.close()
        }
        while !worker.shouldStop {
            let stalled = controls.isStalled
            // Ticks of 5 ms while something runs (a move, a dwell, a waiting line, a busy
            // keepalive); at rest, a byte from the host wakes the loop, so it sleeps longer
            // and leaves the CPU to the readers polling beside it.
            let busy = !firmware.motion.isIdle || firmware.dwellLeft != nil || firmware.blocked != nil || !lines.isEmpty
            guard let bytes = pty.read(timeoutMs: busy ? 5 : 50) else { return }
            let now = ContinuousClock.now
            let elapsed = (now - last).components
            last = now
            if stalled { continue }  // a hung board: reads nothing, moves nowhere, says nothing
            for fault in controls.takeEvents() {
                switch fault {
                case .alarm(let code): firmware.raise(alarm: code)
                case .reset: firmware.restart()
                case .hold where firmware.dialect == .grbl: firmware.grblRealtime(UInt8(ascii: "!"))
                default: break
                }
            }
            for byte in bytes {
                if firmware.dialect == .grbl, [UInt8(ascii: "?"), UInt8(ascii: "!"), UInt8(ascii: "~"), 0x18].contains(byte) {
                    if byte != UInt8(ascii: "?") { write("< realtime \(byte == 0x18 ? "Ctrl-X" : String(UnicodeScalar(byte)))") }
                    firmware.grblRealtime(byte)
                    if byte == 0x18 { lines = [] }
                    continue
                }
                guard byte == UInt8(ascii: "\n") else {
                    incoming.append(byte)
                    continue
                }
                let line = String(decoding: incoming, as: UTF8.self).trimmingCharacters(in: ["\r"])
                incoming = []
                write("< \(line)")
                if firmware.dialect == .marlin, firmware.marlinEmergency(line) { firmware.blocked = nil }
                lines.append(line)
            }
            // Machine time passes at `speed`, slower under a `slow` fault.
            let seconds = (Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18)
            let machineSeconds = seconds * configuration.speed / controls.slowFactor
            firmware.sinceKeepalive += seconds
            if let dwell = firmware.dwellLeft, firmware.motion.isIdle { firmware.dwellLeft = dwell - machineSeconds }
            var limitHit: Int?
            for step in firmware.motion.advance(by: machineSeconds) {
                switch step {
                case .started(let move):
                    bench.setCarriedByMovingMachine(true)
                    // Any move across takes the phone out of the field; straight up or down
                    // judges the same placement at the end height.
                    if move.movesXY {
                        bench.lift()
                        if let code = controls.moveAcrossStarted() { limitHit = code }
                    } else if bench.isPlaced {
                        bench.changeHeight(to: max(0, move.end[2] - configuration.tapZ))
                    }
                    let field = bench.snapshot.readerFieldOn ? "on" : "off"
                    write(
                        "move \(GantryMotion.describe(move.start)) -> \(GantryMotion.describe(move.end)) F\(Int(move.feed)) field \(field)"
                    )
                case .finished(let move):
                    if move.isHoming { firmware.alarm = nil }
                }
            }
            // Raised once this tick's motion is told: the move stops where it got to.
            if let code = limitHit { firmware.raise(alarm: code) }
            if firmware.motion.isIdle, bench.carriedByMovingMachine {
                bench.setCarriedByMovingMachine(false)
                if !bench.isPlaced { rest(at: firmware.motion.position) }
                write("idle at \(GantryMotion.describe(firmware.motion.position))")
            }
            // Lines in order; one that must wait holds back those behind it.
            while let line = firmware.blocked ?? lines.first {
                if firmware.blocked == nil {
                    lines.removeFirst()
                    firmware.sinceKeepalive = 0
                }
                let done = firmware.dialect == .grbl ? firmware.grblLine(line) : firmware.marlinLine(line)
                firmware.blocked = done ? nil : line
                if !done { break }
            }
            for note in firmware.notes { write(note) }
            firmware.notes = []
            // The state first, then the replies: whoever has read an `ok` finds the status that went with it.
            snapshot.withLock { $0 = (firmware.motion.position, firmware.stateWord) }
            if !firmware.replies.isEmpty {
                let ending = firmware.dialect == .grbl ? "\r\n" : "\n"
                for reply in firmware.replies where !reply.hasPrefix("<") { write("> \(reply)") }
                pty.write(Array(firmware.replies.map { $0 + ending }.joined().utf8))
                firmware.replies = []
            }
        }
    }

    /// The head at rest: the phone is placed under it, at its height above the back.
    private func rest(at position: [Double]) {
        let back = configuration.backPoint(x: position[0], y: position[1])
        let height = position[2] - configuration.tapZ
        guard (0...1).contains(back.x), (0...1).contains(back.y), height >= -0.5 else {
            bench.lift()
            return
        }
        bench.place(x: back.x, y: back.y, heightMm: max(0, height))
    }
}
