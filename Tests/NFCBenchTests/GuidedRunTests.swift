import Foundation
import NFCBench
import NFCBenchRecords
import NFCBenchStoreSQLite
import NFCLocatorCore
import NFCReaders
import NFCTestSupport
import Synchronization
import Testing

/// A session record as `run` would make it for the S24, on the simulated reader.
func testSession(_ id: String, plan: PlanKind = .grid, predicted: NormalizedRect, repeats: Int = 1) -> SessionRecord {
    SessionRecord(
        id: id, modelInput: "SM-S921B", lookupKey: "sm_s921b", displayName: "Galaxy S24", predicted: predicted,
        confidence: .approximate, source: .seedCatalog, stale: true, catalogVersion: "test", aspectRatio: 0.4803,
        reader: .sim, readerFirmware: "nfcbench-sim", unit: "unit-1", operatorName: "t", plan: plan,
        repeats: repeats, tapTimeout: 0.25, startedAt: Date(timeIntervalSince1970: 1_790_000_000))
}

@Suite("Guided runs")
struct GuidedRunTests {
    let scratch: TemporaryDirectory
    /// Sessions run in virtual time: the simulated reader's 5 ms polls and 250 ms windows
    /// advance this clock instead of waiting.
    let clock = VirtualBenchClock()

    init() throws { scratch = try TemporaryDirectory("guided") }

    func store() async throws -> SQLiteBenchStore { try await SQLiteBenchStore.open(path: scratch.file("bench.sqlite")) }

    func phone(_ antenna: (Double, Double, Double, Double), missRate: Double = 0, seed: UInt64) -> PhoneOnBench {
        PhoneOnBench(phone: SimulatedPhone(antenna: antenna, aspectRatio: 0.4803, missRate: missRate), seed: seed, clock: clock)
    }

    @Test(arguments: [
        ((0.1, 0.36, 0.8, 0.38), "CONFIRMED"),
        ((0.03, 0.07, 0.67, 0.27), "SHIFTED"),
    ])
    func inProcessSessionScoresTheTruth(truth: (Double, Double, Double, Double), verdict: String) async throws {
        let predicted = try NormalizedRect(x: 0.1, y: 0.36, width: 0.8, height: 0.38)
        let store = try await store()
        let bench = phone(truth, seed: 4)
        let record = testSession("S-test", predicted: predicted)
        try await store.insert(record)
        let run = GuidedRun(
            session: record, strategy: GridPlan(around: predicted), reader: SimulatedReader(bench: bench),
            positioner: SimulatedPositioner(bench: bench), store: store)
        let score = try #require(try await run.run { _ in })
        let positions = GridPlan(around: predicted).order.count
        #expect(score.verdict.rawValue == verdict && score.taps == positions, "\(score.reason)")
        let saved = try #require(try await store.session("S-test"))
        #expect(saved.status == .completed && saved.verdict?.rawValue == verdict && saved.endedAt != nil)
        #expect(saved.measured == score.measured && saved.iou == score.iou)
        #expect(try await store.taps("S-test").count == positions)
    }

    @Test func repeatsTapEachPositionNTimes() async throws {
        let predicted = try NormalizedRect(x: 0.1, y: 0.36, width: 0.8, height: 0.38)
        let store = try await store()
        let bench = phone((0.1, 0.36, 0.8, 0.38), seed: 9)
        var record = testSession("S-repeats", predicted: predicted)
        record.repeats = 2
        try await store.insert(record)
        let run = GuidedRun(
            session: record, strategy: GridPlan(around: predicted), reader: SimulatedReader(bench: bench),
            positioner: SimulatedPositioner(bench: bench), store: store)
        let score = try #require(try await run.run { _ in })
        let taps = try await store.taps("S-repeats")
        let positions = GridPlan(around: predicted).order.count
        #expect(taps.count == 2 * positions && Set(taps.map { "\($0.step)-\($0.attempt)" }).count == 2 * positions)
        #expect(score.taps == positions && score.verdict == .confirmed)
    }

    @Test func noFieldWhenThePhoneNeverAnswers() async throws {
        let predicted = try NormalizedRect(x: 0.1, y: 0.36, width: 0.8, height: 0.38)
        let store = try await store()
        let bench = phone((0.1, 0.36, 0.8, 0.38), missRate: 1, seed: 1)
        let record = testSession("S-nofield", predicted: predicted)
        try await store.insert(record)
        let run = GuidedRun(
            session: record, strategy: GridPlan(around: predicted), reader: SimulatedReader(bench: bench),
            positioner: SimulatedPositioner(bench: bench), store: store)
        #expect(try await run.run { _ in }?.verdict == .noField)
    }

    @Test func operatorSkipUndoAndQuit() async throws {
        let predicted = try NormalizedRect(x: 0.1, y: 0.36, width: 0.8, height: 0.38)
        let store = try await store()
        let bench = phone((0.1, 0.36, 0.8, 0.38), seed: 2)
        let record = testSession("S-keys", predicted: predicted)
        try await store.insert(record)
        // The manual operator never places the phone: every wait is ended by a key.
        let (stream, keys) = AsyncStream<OperatorCommand>.makeStream()
        for key in [OperatorCommand.proceed, .skip, .skip, .undo, .retry, .quit] { keys.yield(key) }
        let run = GuidedRun(
            session: record, strategy: GridPlan(around: predicted), reader: SimulatedReader(bench: bench),
            positioner: ManualPositioner(), store: store)
        let score = try await run.run(commands: stream) { _ in }
        #expect(score == nil)  // quit: saved, not scored
        let taps = try await store.taps("S-keys")
        #expect(taps.map(\.result) == [.skipped] && taps[0].step == 0)
        #expect(try await store.session("S-keys")?.status == .inProgress)
    }
}

/// Events a run emitted, collected for the test to look at while it runs.
final class EventLog: Sendable {
    private let events = Mutex<[String]>([])
    func record(_ event: RunEvent) {
        let name: String =
            switch event {
            case .readyCheck: "ready"
            case .confirmPlacement(let step): "confirm \(step)"
            case .waitingForTap: "window"
            case .tap(let t): "tap \(t.step) \(t.result.rawValue)"
            case .position(let step, _, _, _): "position \(step)"
            default: "other \(event)"
            }
        events.withLock { $0.append(name) }
    }
    var all: [String] { events.withLock { $0 } }

    func wait(for name: String) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while !all.contains(name) {
            guard ContinuousClock.now < deadline else {
                throw WaitTimedOut(what: "event \(name); events so far: \(all.joined(separator: ", "))")
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}

@Suite("Run control")
struct RunControlTests {
    let scratch: TemporaryDirectory
    init() throws { scratch = try TemporaryDirectory("control") }

    /// A manual run of the S24 on the simulated reader, the operator's keys fed by the test.
    struct ManualRun {
        let store: SQLiteBenchStore
        let bench: PhoneOnBench
        let keys: AsyncStream<OperatorCommand>.Continuation
        let log = EventLog()
        let running: Task<SessionScore?, any Error>
        let predicted: NormalizedRect

        init(_ id: String, in scratch: TemporaryDirectory, confirmEach: Bool = false) async throws {
            predicted = try NormalizedRect(x: 0.1, y: 0.36, width: 0.8, height: 0.38)
            store = try await SQLiteBenchStore.open(path: scratch.file("bench.sqlite"))
            bench = PhoneOnBench(
                phone: SimulatedPhone(antenna: (0.1, 0.36, 0.8, 0.38), aspectRatio: 0.4803, missRate: 0), seed: 3)
            let record = testSession(id, predicted: predicted)
            try await store.insert(record)
            let (stream, keys) = AsyncStream<OperatorCommand>.makeStream()
            self.keys = keys
            let run = GuidedRun(
                session: record, strategy: GridPlan(around: predicted), reader: SimulatedReader(bench: bench),
                positioner: ManualPositioner(), store: store, confirmEach: confirmEach)
            let log = self.log
            running = Task { try await run.run(commands: stream) { log.record($0) } }
        }
    }

    /// The first tap was lost: a manual run opened position 1's window (the predicted
    /// centre) while the operator was still reading the preparation. Now nothing is timed
    /// before the operator says the phone is ready.
    @Test func theReadyGateHoldsTheFirstWindowUntilTheOperatorIsReady() async throws {
        let run = try await ManualRun("S-gate", in: scratch)
        let (store, bench, typing, log, predicted) = (run.store, run.bench, run.keys, run.log, run.predicted)
        try await log.wait(for: "ready")
        // Reading the preparation for a while: no window opens, nothing is recorded.
        try await Task.sleep(for: .milliseconds(400))
        #expect(!log.all.contains("window") && !log.all.contains("position 0"))
        #expect(try await store.taps("S-gate").isEmpty)
        // The field is clear and the phone prepared: the operator says ready, then places
        // the phone at position 1 once its window is open (as the prompt asks).
        typing.yield(.proceed)
        try await log.wait(for: "window")
        bench.place(x: predicted.midX, y: predicted.midY)
        try await log.wait(for: "tap 0 HIT")
        bench.lift()
        typing.yield(.quit)
        #expect(try await run.running.value == nil)
        #expect(try await store.taps("S-gate").first?.result == .hit)
    }

    /// `--confirm-each`: every window opens only when the operator confirms the placement.
    @Test func confirmEachWaitsForEveryPlacement() async throws {
        let run = try await ManualRun("S-each", in: scratch, confirmEach: true)
        let (store, typing, log) = (run.store, run.keys, run.log)
        try await log.wait(for: "ready")
        typing.yield(.proceed)
        try await log.wait(for: "confirm 0")
        try await Task.sleep(for: .milliseconds(200))
        #expect(!log.all.contains("window"))
        typing.yield(.proceed)
        try await log.wait(for: "confirm 1")
        #expect(log.all.filter { $0 == "window" }.count == 1)
        typing.yield(.quit)
        #expect(try await run.running.value == nil)
        #expect(try await store.taps("S-each").map(\.result) == [.miss])
    }
}
