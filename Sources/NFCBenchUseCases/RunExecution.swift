import NFCBench
import NFCBenchRecords
import NFCBenchSeams
import NFCReaders
import Synchronization

/// How a run that started ended, short of a failure.
public enum RunOutcome: Sendable {
    /// Every position done; the finished session as stored, and its score.
    case completed(SessionRecord, SessionScore)
    /// The operator quit: saved and resumable.
    case quit
    /// Ctrl-C in a wait: saved and resumable (the runner said so).
    case interrupted
}

/// Why a started run stopped early. The session is saved and resumable in every case; the
/// caller tells the operator how to continue.
public enum RunStop: Error, Sendable {
    case positionerFailed(String)
    case readerStayedFaulty(ReaderStayedFaulty)
    case readerFailed(ReaderError)
    /// A run without an operator met FOREIGN responders several taps in a row.
    case foreignResponders(ForeignRespondersKeptAnswering)
}

/// Runs a prepared session through its plan. Operator commands come from `commands`
/// (`nil`: no one to ask, as with an unattended run); every event goes to `events`.
public struct RunExecution: Sendable {
    public var confirmEach = false
    public var faultPolicy = FaultPolicy()
    /// Tag mode's message for each position; `nil`: the session's default URI.
    public var tagMessage: NDEFMessage?
    /// The station's equipment register, snapshotted into the session's trail.
    public var equipment: EquipmentRegister?

    public init() {}

    public func run(
        _ prepared: PreparedRun, store: any BenchStoring, commands: AsyncStream<OperatorCommand>?,
        events: @escaping @Sendable (RunEvent) -> Void
    ) async throws(RunStop) -> RunOutcome {
        let outcome: Result<RunOutcome, RunStop>
        do throws(RunStop) {
            outcome = .success(try await runPlan(prepared, store: store, commands: commands, events: events))
        } catch {
            outcome = .failure(error)
        }
        // A firmware or serial number the reader named only during the run (a PC/SC reader
        // may answer once a card is connected) goes into the record however the run ended.
        let learned = prepared.readers.current.info
        let firmware = prepared.session.readerFirmware == nil ? learned.firmware : nil
        let serial = prepared.session.readerSerial == nil ? learned.serial : nil
        guard firmware != nil || serial != nil,
            (try? await store.setReaderDetails(prepared.session.id, firmware: firmware, serial: serial)) != nil
        else { return try outcome.get() }
        if case .success(.completed(var session, let score)) = outcome {
            session.readerFirmware = firmware ?? session.readerFirmware
            session.readerSerial = serial ?? session.readerSerial
            return .completed(session, score)
        }
        return try outcome.get()
    }

    private func runPlan(
        _ prepared: PreparedRun, store: any BenchStoring, commands: AsyncStream<OperatorCommand>?,
        events: @escaping @Sendable (RunEvent) -> Void
    ) async throws(RunStop) -> RunOutcome {
        let session = prepared.session
        var messages: (@Sendable (Int) -> NDEFMessage)?
        if let chosen = tagMessage { messages = { _ in chosen } }
        var run = GuidedRun(
            session: session, strategy: session.strategy, readers: prepared.readers, positioner: prepared.positioner,
            store: store, confirmEach: confirmEach, faultPolicy: faultPolicy, tagMessage: messages)
        run.startDetails = ["positioner": prepared.positionerName, "reader": session.reader.description]
        run.coupling = prepared.coupling
        run.equipment = equipment
        // The finished record as the runner stored it, taken from its own event rather than
        // read back, so a completed run is never mistaken for an interrupted one.
        let finished = Mutex<SessionRecord?>(nil)
        do {
            let score = try await run.run(commands: commands) { event in
                if case .finished(let record, _) = event { finished.withLock { $0 = record } }
                events(event)
            }
            guard let score else { return .quit }
            return .completed(finished.withLock { $0 } ?? session, score)
        } catch let error as PositionerError where !error.isInterruption {
            throw .positionerFailed(error.message)
        } catch let error as ReaderStayedFaulty {
            throw .readerStayedFaulty(error)
        } catch let error as ReaderError where error.code != .cancelled {
            throw .readerFailed(error)
        } catch let error as ForeignRespondersKeptAnswering {
            throw .foreignResponders(error)
        } catch {
            return .interrupted
        }
    }
}
