import Foundation

/// An in-process reader over a `PhoneOnBench`, for demos and unit tests.
public final class SimulatedReader: Reader {
    public let bench: PhoneOnBench
    public let info: ReaderInfo
    /// How often the simulated field is sampled.
    let pollInterval: Duration

    public init(bench: PhoneOnBench, pollInterval: Duration = .milliseconds(5)) {
        self.bench = bench
        self.pollInterval = pollInterval
        info = ReaderInfo(backend: .sim, name: "Simulated reader", spec: "sim", firmware: "nfcbench-sim")
    }

    /// Polls the simulated field on the bench's clock, so a session over a
    /// `VirtualBenchClock` runs in virtual time.
    public func waitForTarget(timeout: Duration) async throws(ReaderError) -> DetectedTarget? {
        let clock = bench.clock
        let start = clock.now
        while true {
            if let t = bench.visibleTarget() {
                return DetectedTarget(
                    technology: t.technology, uid: t.uid,
                    atqa: t.technology == .iso14443A ? t.atqa : nil, sak: t.technology == .iso14443A ? t.sak : nil,
                    ats: t.technology == .iso14443A ? t.ats : nil, atqb: t.technology == .iso14443B ? t.atqb : nil,
                    latency: clock.now - start, reader: info.name)
            }
            if clock.now - start >= timeout { return nil }
            do { try await clock.sleep(for: pollInterval) } catch { throw .cancelled(info.name) }
        }
    }

    public func waitForRemoval(timeout: Duration) async throws(ReaderError) -> Bool {
        let clock = bench.clock
        let start = clock.now
        while bench.visibleTarget() != nil {
            if clock.now - start >= timeout { return false }
            do { try await clock.sleep(for: pollInterval) } catch { throw .cancelled(info.name) }
        }
        return true
    }

    public func close() async {}
}
