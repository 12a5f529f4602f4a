import Foundation
import NFCReaders
import NFCVirtualBench

/// A private virtual bench (own pty, own control socket) for one test.
public final class TestBench {
    public let bench: VirtualBench
    public let directory: String

    public init(
        antenna: (Double, Double, Double, Double) = (0.1, 0.1, 0.8, 0.4), technology: TargetTechnology = .iso14443A,
        seed: UInt64 = 1, vpcdPort: UInt16? = nil, gantry: GantryConfiguration? = nil, saturation: Double? = nil
    ) throws {
        // Short path: Unix socket names are limited to 107 bytes.
        directory = "/tmp/nfcb-" + String(UUID().uuidString.prefix(8))
        var phone = SimulatedPhone(antenna: antenna, technology: technology, missRate: 0)
        phone.saturation = saturation
        bench = VirtualBench(
            .init(
                directory: directory, phone: phone,
                seed: seed, pn532: true, vpcdPort: vpcdPort, gantry: gantry))
        try bench.start()
    }

    public var connstring: String { bench.connstring! }
    public var spec: String { "libnfc:" + connstring }

    /// Places the phone squarely over its coil and waits until it answers.
    public func placeOverCoil() throws {
        let a = bench.bench.snapshot.phone.antenna
        precondition(bench.bench.place(x: a.x + a.width / 2, y: a.y + a.height / 2), "phone did not couple")
        try waitUntilVisible()
    }

    /// Waits for the placed phone to wake (15-60 ms of its own time), up to `bound`.
    public func waitUntilVisible(within bound: Duration = .seconds(10)) throws {
        let deadline = ContinuousClock.now + bound
        while bench.bench.visibleTarget() == nil {
            guard ContinuousClock.now < deadline else { throw WaitTimedOut(what: "the placed phone to answer") }
            usleep(1000)
        }
    }

    public func lift() { bench.bench.lift() }

    /// Waits until the emulated chip holds a poll from the host (up to 10 s).
    public func waitForPoll(after count: Int) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while bench.pn532PollsStarted <= count {
            guard ContinuousClock.now < deadline else { throw WaitTimedOut(what: "the host to start a poll") }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    public func fault(_ fault: BenchFault) { bench.controls.fault = fault }

    deinit {
        bench.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }
}

/// Outside clients' environment: libnfc reads LIBNFC_* variables.
public func libnfcEnvironment(_ connstring: String) -> [String: String] {
    ["LIBNFC_AUTO_SCAN": "false", "LIBNFC_DEVICE": connstring, "LIBNFC_LOG_LEVEL": "0"]
}

public func runTool(_ path: String, _ arguments: [String], environment: [String: String] = [:], timeout: TimeInterval = 20)
    async throws -> (status: Int32, output: String)
{
    let r = try await ChildProcess.run(
        path, arguments, environment: ProcessInfo.processInfo.environment.merging(environment) { $1 },
        mergeErrors: true, timeout: timeout)
    return (r.status, r.stdout)
}
