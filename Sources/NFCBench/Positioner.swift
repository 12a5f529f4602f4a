import Foundation
import NFCBenchRecords
import NFCReaders

/// Puts the phone at a probe position and lifts it again: the operator, a simulation,
/// or a lab's own gantry.
public protocol Positioner: Sendable {
    /// `true` when a person moves the phone, so the runner must prompt and wait.
    var needsOperator: Bool { get }
    func place(_ probe: Probe, index: Int) async throws(PositionerError)
    func lift(index: Int) async throws(PositionerError)
    /// A machine that moves on its own power says here what it will do. The run prints
    /// it before anything moves and, with an operator at the keyboard, holds the machine
    /// behind the ready gate; `nil` for positioners that move nothing dangerous.
    var announcement: String? { get }
    /// Called once per run, after the ready gate and before the first placement: the
    /// machine's setup moves (homing, going up to its safe height).
    func prepare() async throws(PositionerError)
    /// Whether it can hold the reader above the back at a probe's `heightMm`
    /// (`--heights`); a positioner that cannot is refused such a session.
    var placesAtHeights: Bool { get }
    /// A machine that crosses between positions inside the field's reach, just above the
    /// back: the run switches the reader's field off before every lift and on again after
    /// every placement, and polls nothing in between, so each tap is still a fresh field
    /// entry. Only built for a reader that has a field switch.
    var crossesWithFieldOff: Bool { get }
    /// Called when a tap window has ended, before its tap is recorded: throws unless the
    /// machine stayed where it was placed and well through the window (no alarm, reset or
    /// error stop). A window the machine did not hold still through is no evidence, so the
    /// run records nothing there and stops, resumable; the resume taps that position again.
    func confirmStill(index: Int) async throws(PositionerError)
}

extension Positioner {
    /// A person, a simulation or a lab's command reports nothing between moves.
    public func confirmStill(index: Int) async throws(PositionerError) {}
    public var announcement: String? { nil }
    public var crossesWithFieldOff: Bool { false }
    public var placesAtHeights: Bool { false }
    public func prepare() async throws(PositionerError) {}
}

public struct PositionerError: Error, Sendable, CustomStringConvertible {
    public let message: String
    /// The move was stopped because the run was interrupted (Ctrl-C), not because the
    /// positioner failed: the runner saves the session as interrupted.
    public let isInterruption: Bool
    public init(_ message: String, isInterruption: Bool = false) {
        self.message = message
        self.isInterruption = isInterruption
    }
    public var description: String { message }
}

/// The operator moves the phone; the runner prompts.
public struct ManualPositioner: Positioner {
    public init() {}
    public var needsOperator: Bool { true }
    public func place(_ probe: Probe, index: Int) async throws(PositionerError) {}
    public func lift(index: Int) async throws(PositionerError) {}
}

/// Moves the in-process simulated phone (`--reader sim`).
public struct SimulatedPositioner: Positioner {
    public let bench: PhoneOnBench
    public init(bench: PhoneOnBench) { self.bench = bench }
    public var needsOperator: Bool { false }
    public var placesAtHeights: Bool { true }
    public func place(_ probe: Probe, index: Int) async throws(PositionerError) {
        bench.place(x: probe.x, y: probe.y, heightMm: probe.heightMm)
    }
    public func lift(index: Int) async throws(PositionerError) { bench.lift() }
    /// Starts with the phone lifted, as the virtual bench's positioner does.
    public func prepare() async throws(PositionerError) { bench.lift() }
}

/// Runs a lab's command for each move: `exec:TEMPLATE` with `{action}` (`place`/`lift`),
/// `{x}`, `{y}` (normalized, 4 decimals) and `{index}` substituted, through `/bin/sh -c`.
/// A non-zero exit, or no exit within `timeout`, stops the run as "positioner failed"
/// with the command's standard error; the session stays resumable. Cancelling the
/// waiting task (Ctrl-C) terminates the command's process group at once, so a stuck
/// gantry never hangs the bench.
public struct ExecPositioner: Positioner {
    public let template: String
    public let timeout: Duration

    public init(template: String, timeout: Duration = .seconds(60)) {
        self.template = template
        self.timeout = timeout
    }

    public var needsOperator: Bool { false }

    public func place(_ probe: Probe, index: Int) async throws(PositionerError) {
        try await run(action: "place", probe: probe, index: index)
    }

    public func lift(index: Int) async throws(PositionerError) { try await run(action: "lift", probe: nil, index: index) }

    func command(action: String, probe: Probe?, index: Int) -> String {
        template.replacingOccurrences(of: "{action}", with: action)
            .replacingOccurrences(of: "{x}", with: probe.map { String(format: "%.4f", $0.x) } ?? "")
            .replacingOccurrences(of: "{y}", with: probe.map { String(format: "%.4f", $0.y) } ?? "")
            .replacingOccurrences(of: "{index}", with: String(index))
    }

    func run(action: String, probe: Probe?, index: Int) async throws(PositionerError) {
        let line = command(action: action, probe: probe, index: index)
        let child = ChildCommand(shellLine: line)
        do { try child.start() } catch { throw PositionerError("cannot run positioner command '\(line)': \(error)") }
        let outcome = await child.wait(timeout: timeout)
        switch outcome {
        case .exited(0, _): return
        case .exited(let status, let stderr):
            throw PositionerError("positioner command '\(line)' exited with status \(status)" + Self.quoted(stderr))
        case .timedOut(let stderr):
            throw PositionerError(
                "positioner command '\(line)' did not finish within \(timeout.seconds) s and was stopped"
                    + Self.quoted(stderr))
        case .cancelled:
            throw PositionerError("positioner command '\(line)' was stopped (interrupted)", isInterruption: true)
        }
    }

    static func quoted(_ stderr: String) -> String {
        let text = stderr.trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? "" : ": " + String(text.suffix(500))
    }
}
