import Foundation
import NFCBench
import NFCBenchRecords
import NFCBenchStoreSQLite
import NFCLocatorCore
import NFCReaders
import NFCTestSupport
import Synchronization
import Testing

/// A reader that answers every recovery probe at once but fails the tap itself: the run
/// must not re-place the phone at that position without end.
@Suite("A fault that recurs at one position", .timeLimit(.minutes(1)))
struct RepeatedFaultTests {
    let scratch: TemporaryDirectory
    init() throws { scratch = try TemporaryDirectory("repeated-fault") }

    func run(_ id: String, faults: Int) async throws -> (Result<SessionScore?, any Error>, SQLiteBenchStore) {
        let predicted = try NormalizedRect(x: 0.1, y: 0.36, width: 0.8, height: 0.38)
        let store = try await SQLiteBenchStore.open(path: scratch.file("\(id).sqlite"))
        let bench = PhoneOnBench(
            phone: SimulatedPhone(antenna: (0.1, 0.36, 0.8, 0.38), aspectRatio: 0.4803), seed: 3,
            clock: VirtualBenchClock())
        let record = testSession(id, predicted: predicted)
        try await store.insert(record)
        // Its next `faults` tap windows (the session's tap timeout, not the recovery
        // probe's window) come back faulty.
        let tapWindow = Duration.milliseconds(Int64(record.tapTimeout * 1000))
        let left = Mutex(faults)
        let reader = FaultingReader(SimulatedReader(bench: bench)) { window in
            let failing =
                window == tapWindow
                && left.withLock { left in
                    guard left > 0 else { return false }
                    left -= 1
                    return true
                }
            return failing ? ReaderError(.failed, "Reader 'sim' refused a command at this position.") : nil
        }
        let run = GuidedRun(
            session: record, strategy: GridPlan(around: predicted), reader: reader,
            positioner: SimulatedPositioner(bench: bench), store: store,
            faultPolicy: FaultPolicy(interval: .milliseconds(10), probeWindow: .milliseconds(100), faultsPerPosition: 3))
        do { return (.success(try await run.run { _ in }), store) } catch { return (.failure(error), store) }
    }

    @Test func aRunStopsSavedAfterThreeFaultsInARowAtOnePosition() async throws {
        let (outcome, store) = try await run("S-recurring", faults: .max)
        guard case .failure(let error as ReaderError) = outcome else {
            Issue.record("the run should stop with a reader error: \(outcome)")
            return
        }
        #expect(error.message.contains("3 times in a row at position 1"), "\(error.message)")
        #expect(error.message.contains("refused a command at this position"))
        #expect(try await store.taps("S-recurring").isEmpty, "a fault is no evidence")
        let faults = try await store.events("S-recurring").filter { $0.kind == .readerFault }
        #expect(faults.count == 3 && faults.allSatisfy { $0.step == 0 })
        #expect(try await store.session("S-recurring")?.status != .completed, "saved, resumable")
    }

    /// Two faults, then the position reads: fewer than the limit, so the run goes on and
    /// completes with every position recorded.
    @Test func faultsBelowTheLimitAreWaitedOut() async throws {
        let (outcome, store) = try await run("S-passing", faults: 2)
        let score = try #require(try outcome.get())
        #expect(score.taps == GridPlan(around: try NormalizedRect(x: 0.1, y: 0.36, width: 0.8, height: 0.38)).order.count)
        #expect(try await store.events("S-passing").filter { $0.kind == .readerFault }.count == 2)
    }
}
