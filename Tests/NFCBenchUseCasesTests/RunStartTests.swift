import Foundation
import NFCBench
import NFCBenchRecords
import NFCBenchStoreSQLite
import NFCBenchUseCases
import NFCLocatorCore
import NFCReaderLibNFC
import NFCReaders
import NFCTestSupport
import Synchronization
import Testing

/// A reader spec that cannot open: a refusal instead of its error proves the rule was
/// checked before any reader was opened.
let unopenableReader = ReaderSpec.libnfc(connstring: "pn532_uart:/nonexistent/nfcbench-no-such-port")

func request(model: String, reader: ReaderSpec? = .sim) throws -> RunRequest {
    let resolver = AntennaZoneResolver(
        remote: nil, seed: Catalog(document: try CatalogDocumentDecoder.load(contentsOf: Checkout.seedCatalog)))
    let fingerprint = ModelIdentifierFingerprintProvider(modelIdentifier: model).fingerprint()
    var request = RunRequest(
        subject: .model(
            identifier: model, resolution: resolver.resolve(fingerprint, signals: .inferred(from: fingerprint, model: model)),
            resolver: resolver))
    request.reader = reader
    request.tapTimeout = 0.25
    request.plan = .grid
    return request
}

@Suite("Starting a run: every rule before the reader opens")
struct RunStartTests {
    let scratch: TemporaryDirectory
    init() throws { scratch = try TemporaryDirectory("runstart") }

    func store() async throws -> SQLiteBenchStore { try await SQLiteBenchStore.open(path: scratch.database()) }

    /// Starts `request` and returns what it was refused with, failing if it was not.
    func refusal(_ request: RunRequest, store: any BenchStoring) async throws -> RunRefusal? {
        do {
            try await RunStart.prepare(request, store: store) { _ in Issue.record("the run started") }
            return nil
        } catch let refusal as RunRefusal {
            return refusal
        }
    }

    @Test func anUnattendedRunWithAPersonToMoveThePhoneIsRefusedFirst() async throws {
        var asked = try request(model: "SM-S921B", reader: unopenableReader)
        asked.unattended = true
        #expect(try await refusal(asked, store: store()) == .unattendedNeedsMachine)
        // A machine to move the phone lets it through to the reader, which then fails to open.
        asked.positioner = Positioners.parse("exec:true")
        await #expect(throws: ReaderError.self) { try await RunStart.prepare(asked, store: try await store()) { _ in } }
    }

    @Test func resumeRulesAreCheckedAgainstTheStoreBeforeTheReader() async throws {
        let store = try await store()
        var resume = RunRequest(subject: .resume(sessionID: "S-none"))
        resume.reader = unopenableReader
        #expect(try await refusal(resume, store: store) == .noSuchSession(id: "S-none"))

        // A session that started (and is saved) on the simulated reader.
        let started = try await RunStart.prepare(try request(model: "SM-S921B"), store: store) { $0.session }
        resume = RunRequest(subject: .resume(sessionID: started.id))
        resume.reader = unopenableReader
        resume.givenFixedSettings = ["--plan"]
        #expect(try await refusal(resume, store: store) == .fixedOnResume(id: started.id, settings: ["--plan"]))
        resume.givenFixedSettings = []
        resume.mode = .tag
        #expect(try await refusal(resume, store: store) == .modeFixedOnResume(id: started.id, mode: .card))
        try await store.void(started.id, reason: "dropped phone", at: Date())
        resume.mode = nil
        #expect(try await refusal(resume, store: store) == .voidSession(id: started.id, reason: "dropped phone"))
    }

    /// Issue 51: a resume refused after the reader opened, asking for a new tap window,
    /// leaves the database byte for byte as it was (it used to store the new window and
    /// its event first, then refuse).
    @Test func aRefusedResumeLeavesTheDatabaseAsItWas() async throws {
        let path = scratch.database()
        let store = try await SQLiteBenchStore.open(path: path)
        var asked = try request(model: "SM-S921B")
        asked.heights = [0, 10]
        asked.positioner = Positioners.parse("sim")
        // Tag mode: grading needs the phone to answer the reader, so `--coupling` is refused.
        asked.mode = .tag
        let started = try await RunStart.prepare(asked, store: store) { $0.session }
        func bytes() throws -> [Data] {
            try [path, path + "-wal"].map {
                FileManager.default.fileExists(atPath: $0) ? try Data(contentsOf: URL(fileURLWithPath: $0)) : Data()
            }
        }
        let before = try bytes()
        #expect(!before[0].isEmpty)

        var resume = RunRequest(subject: .resume(sessionID: started.id))
        resume.reader = .sim
        resume.tapTimeout = 2
        // The layers above the back need a machine; a person cannot hold the phone at 10 mm.
        resume.positioner = Positioners.parse("manual")
        #expect(try await refusal(resume, store: store) == .heightsNeedMachine(positioner: "manual"))
        // A tag-mode session cannot be graded.
        resume.positioner = Positioners.parse("sim")
        resume.coupling = true
        guard case .couplingUnsupported = try await refusal(resume, store: store) else {
            Issue.record("--coupling on a tag-mode session was not refused")
            return
        }
        #expect(try bytes() == before, "a refused resume changed the database")
        let stored = try #require(try await store.session(started.id))
        #expect(stored.tapTimeout == 0.25)
        #expect(try await !store.events(started.id).contains { $0.kind == .tapWindowChanged })

        // The same resume allowed: the new window and its event are stored.
        resume.coupling = false
        let prepared = try await RunStart.prepare(resume, store: store) { $0 }
        #expect(prepared.tapWindowChange?.to == 2 && prepared.isResumed)
        #expect(try await store.session(started.id)?.tapTimeout == 2)
        #expect(try await store.events(started.id).contains { $0.kind == .tapWindowChanged })
    }

    @Test func aNewSessionIsStoredWithWhatWasAskedAndItsReaderClosesAfterwards() async throws {
        let store = try await store()
        var asked = try request(model: "SM-S921B")
        asked.station = "bench-7"
        asked.unit = "unit-A"
        asked.repeats = 2
        let closed = ClosedReaders()
        let counting: @Sendable ([String]) -> Void = { _ in closed.count() }
        let prepared = try await RunStart.prepare(asked, store: store, readerClosed: counting) { prepared in
            #expect(closed.value == 0, "the reader is open inside the run")
            return prepared
        }
        #expect(closed.value == 1)
        let stored = try #require(try await store.session(prepared.session.id))
        #expect(stored.station == "bench-7" && stored.unit == "unit-A" && stored.repeats == 2 && stored.tapTimeout == 0.25)
        #expect(stored.simulated && stored.reader == .sim && stored.plan == .grid && !prepared.isResumed)
        #expect(prepared.positioner.needsOperator == false, "the simulated reader moves its own phone")
    }

    @Test func aFailureInsideTheRunStillClosesTheReader() async throws {
        struct Boom: Error {}
        let closed = ClosedReaders()
        let counting: @Sendable ([String]) -> Void = { _ in closed.count() }
        await #expect(throws: Boom.self) {
            try await RunStart.prepare(try request(model: "SM-S921B"), store: try await store(), readerClosed: counting) {
                _ in throw Boom()
            }
        }
        #expect(closed.value == 1)
    }

    @Test func aCompletedSimulatedRunReturnsItsFinishedRecord() async throws {
        let store = try await store()
        let outcome = try await RunStart.prepare(try request(model: "SM-S921B"), store: store) { prepared in
            try await RunExecution().run(prepared, store: store, commands: nil, events: { _ in })
        }
        guard case .completed(let finished, let score) = outcome else {
            Issue.record("expected a completed run, got \(outcome)")
            return
        }
        #expect(
            finished.status == .completed && finished.verdict != nil && score.taps == finished.strategy.shape.plannedLength,
            "\(score)")
        #expect(try await store.session(finished.id)?.status == .completed)
    }
}

/// Counts the closes `RunStart` reports.
final class ClosedReaders: Sendable {
    private let closes = Mutex(0)
    func count() { closes.withLock { $0 += 1 } }
    var value: Int { closes.withLock { $0 } }
}

/// A coil session's stored plan is the coil plan's: its first position is the one the plan
/// chooses from the reader's antenna, which `--resume` and a machine's travel check read.
@Suite("Starting a coil run")
struct CoilRunStartTests {
    @Test func aCoilSessionStoresTheCoilPlansFirstPosition() async throws {
        let scratch = try TemporaryDirectory("runstart-coil")
        let store = try await SQLiteBenchStore.open(path: scratch.database())
        var asked = try request(model: "SM-S921B")
        asked.plan = .coil
        asked.readerAntenna = (width: 60, height: 60)
        asked.gapMm = 3
        let started = try await RunStart.prepare(asked, store: store) { $0.session }
        let stored = try #require(try await store.session(started.id))
        let physics = try #require(PlanPhysics(stored))
        let plan = CoilPlan(around: stored.predicted, aspectRatio: stored.aspectRatio, physics: physics)
        let first = try #require(plan.next(after: []))
        // Positions are stored to four decimals.
        func same(_ a: [Probe], _ b: [Probe]) -> Bool {
            a.count == b.count && zip(a, b).allSatisfy { abs($0.x - $1.x) < 1e-4 && abs($0.y - $1.y) < 1e-4 }
        }
        #expect(same(stored.plannedProbes, [first]), "stored \(stored.plannedProbes), the coil plan starts at \(first)")
        // The adaptive plan the session would have stored without its physics starts elsewhere.
        let adaptive = ProbePlans.make(.adaptive, around: stored.predicted, aspectRatio: stored.aspectRatio)
        #expect(!same(adaptive.storedProbes(for: stored.predicted), [first]))
    }
}
