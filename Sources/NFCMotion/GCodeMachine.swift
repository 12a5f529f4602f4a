import Foundation
import NFCRig
import NFCSystem

/// A G-code machine the bench drives: its link, its dialect's words for each step
/// (barrier, homing, unlock), and every exchange run off Swift's cooperative threads.
/// A cancelled task (Ctrl-C) halts the machine within 50 ms (`MachineLink.halt`).
public final class GCodeMachine: Sendable {
    public let link: MachineLink
    public let timeout: Duration

    public init(link: MachineLink, timeout: Duration) {
        self.link = link
        self.timeout = timeout
    }

    public var dialect: MachineDialect { link.dialect }

    /// Opens the rig's machine (its `device`) and makes sure something G-code answers
    /// there (`probe`), without moving it. Returns the machine and its state word.
    public static func open(_ rig: RigConfiguration, timeout: Duration) async throws(MachineError) -> (
        machine: GCodeMachine, state: String
    ) {
        guard let device = rig.device else { throw .port("the rig names no device") }
        let machine = GCodeMachine(link: try MachineLink.open(device, baud: rig.baud, dialect: rig.dialect), timeout: timeout)
        return (machine, try await machine.probe())
    }

    /// Runs blocking exchanges on a thread of their own; cancelling the awaiting task
    /// asks them to stop.
    public func perform<T: Sendable>(
        _ body: @escaping @Sendable (MachineLink, StopRequest) throws(MachineError) -> T
    ) async throws(MachineError) -> T {
        let stop = StopRequest()
        if Task.isCancelled { stop.request() }
        let link = self.link
        let result: Result<T, MachineError> = await withTaskCancellationHandler {
            await BlockingWork.run("nfcbench.gcode") {
                // Asked after Ctrl-C (the run lifting as it saves): halt, send nothing.
                if stop.isRequested {
                    link.halt()
                    return .failure(.interrupted)
                }
                do throws(MachineError) { return .success(try body(link, stop)) } catch { return .failure(error) }
            }
        } onCancel: {
            stop.request()
        }
        return try result.get()
    }

    /// Makes sure something G-code answers on the port, without moving it: boards
    /// without a DTR reset send no banner, so GRBL is asked for its status (`?`), after a
    /// soft reset if it stays silent, and Marlin for its position (`M114`), twice.
    /// Returns the machine's state word (GRBL) so an alarm is caught before the run.
    public func probe() async throws(MachineError) -> String {
        let timeout = min(self.timeout, .seconds(3))
        return try await perform { link, stop throws(MachineError) in
            link.drain(quiet: .milliseconds(100))
            switch link.dialect {
            case .grbl:
                let first: (state: String, position: [Double]?)
                do throws(MachineError) { first = try link.status(timeout: timeout, stop: stop) } catch .noAnswer {
                    try link.write([0x18], logged: "> Ctrl-X (soft reset, no answer to ?)")
                    link.drain(quiet: .milliseconds(500))
                    first = try link.status(timeout: timeout, stop: stop)
                }
                return first.state
            case .marlin:
                do throws(MachineError) { try link.send("M114", timeout: timeout, stop: stop) } catch .noAnswer {
                    link.drain(quiet: .seconds(2))  // a board that rebooted as the port opened
                    try link.send("M114", timeout: timeout, stop: stop)
                }
                return "Idle"
            }
        }
    }

    /// Millimetres, absolute coordinates; Marlin also sends its keepalive every 2 s, so a
    /// long move says `busy:` rather than nothing.
    public func configure() async throws(MachineError) {
        let timeout = self.timeout
        try await perform { link, stop throws(MachineError) in
            try link.send("G21", timeout: timeout, stop: stop)
            try link.send("G90", timeout: timeout, stop: stop)
            if link.dialect == .marlin { try link.send("M113 S2", timeout: timeout, stop: stop) }
        }
    }

    /// `$H` (GRBL) or `G28` then the barrier (Marlin).
    public func home() async throws(MachineError) {
        let timeout = self.timeout
        try await perform { link, stop throws(MachineError) in
            switch link.dialect {
            case .grbl: try link.send("$H", timeout: timeout, stop: stop)
            case .marlin:
                try link.send("G28", timeout: timeout, stop: stop)
                try Self.barrier(link, timeout: timeout, stop: stop)
            }
        }
    }

    /// Sends `lines` in order, then the barrier: when this returns the machine has
    /// stopped, so the reader may be polled.
    public func move(_ lines: [String]) async throws(MachineError) {
        let timeout = self.timeout
        try await perform { link, stop throws(MachineError) in
            try link.checkStale()
            for line in lines { try link.send(line, timeout: timeout, stop: stop) }
            try Self.barrier(link, timeout: timeout, stop: stop)
        }
    }

    /// Waits until every queued move is done. GRBL answers `G4 P0` only once its planner
    /// is empty; its status must then read `Idle` (not `Hold`, not `Alarm`). Marlin's
    /// `M400` answers when the moves are finished.
    static func barrier(_ link: MachineLink, timeout: Duration, stop: StopRequest) throws(MachineError) {
        switch link.dialect {
        case .grbl:
            try link.send("G4 P0", timeout: timeout, stop: stop)
            let state = try link.status(timeout: timeout, stop: stop).state
            guard state == "Idle" else { throw .notReady(state: state) }
        case .marlin:
            try link.send("M400", timeout: timeout, stop: stop)
        }
    }

    /// Throws unless the machine stayed well and at rest since the last exchange: what it
    /// pushed meanwhile is read first (an alarm, a reset banner, a firmware error stop),
    /// then GRBL's status must read `Idle`; Marlin must answer `M114` (a halted Marlin
    /// answers with its error, or not at all).
    public func confirmIdle() async throws(MachineError) {
        let timeout = min(self.timeout, .seconds(3))
        try await perform { link, stop throws(MachineError) in
            try link.checkStale()
            switch link.dialect {
            case .grbl:
                let state = try link.status(timeout: timeout, stop: stop).state
                guard state == "Idle" else { throw .notReady(state: state) }
            case .marlin:
                try link.send("M114", timeout: timeout, stop: stop)
            }
        }
    }

    /// Clears an alarm. GRBL ignores every line after a limit alarm until it is reset
    /// ("Reset to continue"), so it gets a soft reset (Ctrl-X, harmless at rest) and then
    /// `$X` (kill alarm lock); Marlin gets `M999` (restart after an error stop). Returns the
    /// machine's messages and its state afterwards.
    public func unlock() async throws(MachineError) -> (messages: [String], state: String) {
        let timeout = self.timeout
        return try await perform { link, stop throws(MachineError) in
            switch link.dialect {
            case .grbl:
                try link.write([0x18], logged: "> Ctrl-X (soft reset before $X)")
                link.drain(quiet: .milliseconds(300))
                let messages = try link.send("$X", timeout: timeout, stop: stop)
                return (messages, try link.status(timeout: timeout, stop: stop).state)
            case .marlin:
                // Lines sent before the stop are answered with its error; they are stale now.
                link.drain(quiet: .milliseconds(300))
                return (try link.send("M999", timeout: timeout, stop: stop), "Idle")
            }
        }
    }

    /// The machine's state and position now, without moving it (GRBL `?`, Marlin `M114`).
    public func state() async throws(MachineError) -> (state: String, position: [Double]?) {
        let timeout = min(self.timeout, .seconds(3))
        return try await perform { link, stop throws(MachineError) in
            switch link.dialect {
            case .grbl: return try link.status(timeout: timeout, stop: stop)
            case .marlin:
                let lines = try link.send("M114", timeout: timeout, stop: stop)
                return ("Idle", lines.lazy.compactMap(Self.marlinPosition).first)
            }
        }
    }

    /// `X:10.00 Y:20.00 Z:5.00 E:0.00 Count X:...` -> (10, 20, 5).
    static func marlinPosition(_ line: String) -> [Double]? {
        var values: [String: Double] = [:]
        for word in line.split(separator: " ") {
            let parts = word.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, values[String(parts[0])] == nil, let number = Double(parts[1]) else {
                if word == "Count" { break } else { continue }
            }
            values[String(parts[0])] = number
        }
        guard let x = values["X"], let y = values["Y"], let z = values["Z"] else { return nil }
        return [x, y, z]
    }
}
