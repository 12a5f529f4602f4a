import Foundation
import NFCBench
import NFCBenchRecords
import NFCBenchSeams
import NFCBenchStoreSQLite
import NFCLocatorCore
import NFCReaders
import NFCTestSupport
import Synchronization
import Testing

/// A run waits on its own clock (`GuidedRun.clock`): ten minutes of a reader fault's
/// patience pass in virtual time, and the run stops saved as it would after them.
@Suite("The run's one clock", .timeLimit(.minutes(1)))
struct RunClockTests {
    @Test func aFaultsPatiencePassesOnTheRunsClock() async throws {
        let scratch = try TemporaryDirectory("run-clock")
        let predicted = try NormalizedRect(x: 0.1, y: 0.36, width: 0.8, height: 0.38)
        let store = try await SQLiteBenchStore.open(path: scratch.file("bench.sqlite"))
        let clock = VirtualBenchClock()
        let bench = PhoneOnBench(
            phone: SimulatedPhone(antenna: (0.1, 0.36, 0.8, 0.38), aspectRatio: 0.4803), seed: 3, clock: clock)
        let record = testSession("S-clock", predicted: predicted)
        try await store.insert(record)
        // Every window after the first comes back faulty.
        let windows = Mutex(0)
        let reader = FaultingReader(SimulatedReader(bench: bench)) { _ in
            windows.withLock { count in
                count += 1
                return count > 1 ? ReaderError(.failed, "Reader 'sim' stopped answering.") : nil
            }
        }
        var run = GuidedRun(
            session: record, strategy: GridPlan(around: predicted), reader: reader,
            positioner: SimulatedPositioner(bench: bench), store: store,
            faultPolicy: FaultPolicy(patience: .seconds(600), interval: .seconds(1), probeWindow: .milliseconds(100)))
        run.clock = clock
        let wall = ContinuousClock()
        let started = wall.now
        let before = clock.now
        do {
            _ = try await run.run { _ in }
            Issue.record("a reader that never answers again ends the run")
        } catch let error as ReaderStayedFaulty {
            #expect(error.waited == .seconds(600))
        }
        // Ten minutes on the run's clock, far less on the wall's.
        #expect(clock.now - before >= .seconds(600))
        #expect(wall.now - started < .seconds(30))
        let taps = try await store.taps("S-clock")
        #expect(taps.count <= 1, "nothing is recorded while the reader is faulty")
    }
}
