import Foundation
import NFCBenchRecords
import NFCBenchSeams
import NFCReaders

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
