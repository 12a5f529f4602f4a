import Foundation
import NFCReaders
import NFCVirtualBench

/// Puts the phone at a probe position and lifts it again: the operator, a simulation,
/// or a lab's own gantry.
public protocol Positioner: Sendable {
    /// `true` when a person moves the phone, so the runner must prompt and wait.
    var needsOperator: Bool { get }
    func place(_ probe: Probe, index: Int) async throws(PositionerError)
    func lift(index: Int) async throws(PositionerError)
}

public struct PositionerError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
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
    public func place(_ probe: Probe, index: Int) async throws(PositionerError) { bench.place(x: probe.x, y: probe.y) }
    public func lift(index: Int) async throws(PositionerError) { bench.lift() }
}

/// Moves the phone of a running virtual bench (`nfcbench sim serve`) over its control socket.
public struct VirtualBenchPositioner: Positioner {
    public let client: VirtualBenchClient
    public init(directory: String) { client = VirtualBenchClient(socketPath: directory + "/control.sock") }
    public var needsOperator: Bool { false }

    public func place(_ probe: Probe, index: Int) async throws(PositionerError) {
        do { _ = try client.request("place \(probe.x) \(probe.y)") } catch {
            throw PositionerError("virtual bench did not take 'place': \(error)")
        }
    }

    public func lift(index: Int) async throws(PositionerError) {
        do { _ = try client.request("lift") } catch { throw PositionerError("virtual bench did not take 'lift': \(error)") }
    }
}

/// Runs a lab's command for each move: `exec:TEMPLATE` with `{action}` (`place`/`lift`),
/// `{x}`, `{y}` (normalized, 4 decimals) and `{index}` substituted, through `/bin/sh -c`.
/// A non-zero exit stops the run as "positioner failed"; the session stays resumable.
public struct ExecPositioner: Positioner {
    public let template: String
    public init(template: String) { self.template = template }
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
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", line]
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { throw PositionerError("cannot run positioner command '\(line)': \(error)") }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                process.waitUntilExit()
                continuation.resume()
            }
        }
        guard process.terminationStatus == 0 else {
            throw PositionerError("positioner command '\(line)' exited with status \(process.terminationStatus)")
        }
    }
}
