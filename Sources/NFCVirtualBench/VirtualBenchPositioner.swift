import NFCBenchRecords
import NFCBenchSeams
import NFCSystem

/// Moves the phone of a running virtual bench (`nfcbench sim serve`) over its control
/// socket. The socket calls block, so they run as `BlockingWork`, never on a cooperative
/// thread.
public struct VirtualBenchPositioner: Positioner {
    public let client: VirtualBenchClient

    public init(directory: String) { client = VirtualBenchClient(socketPath: directory + "/control.sock") }
    public var needsOperator: Bool { false }

    public func place(_ probe: Probe, index: Int) async throws(PositionerError) {
        try await send(.place(x: probe.x, y: probe.y), action: "place")
    }

    public func lift(index: Int) async throws(PositionerError) { try await send(.lift, action: "lift") }

    /// A run starts with the phone lifted, as a machine starts at its safe height: a run
    /// killed mid-tap leaves the phone on the reader, and its resume waited an hour for an
    /// operator to lift it (the soak's PC/SC trials, once they ran at all, hung so).
    public func prepare() async throws(PositionerError) { try await send(.lift, action: "lift") }

    private func send(_ command: BenchCommand, action: String) async throws(PositionerError) {
        let client = self.client
        let failure: String? = await BlockingWork.run("nfcbench.virtual-bench.positioner") {
            do {
                try client.request(command)
                return nil
            } catch {
                return "\(error)"
            }
        }
        if let failure { throw PositionerError("virtual bench did not take '\(action)': \(failure)") }
    }
}
