import Foundation
import NFCBench
import NFCBenchRecords
import NFCBenchSeams
import NFCBenchUseCases
import NFCLocatorCore
import NFCReaders
import Synchronization

/// `nfcbench run`: the guided bench session.
enum RunCommand {
    static let spec = CommandSpec(
        "run", abstract: "Guide a bench session: tap the phone at each position, record hits, score the prediction.",
        discussion: """
            A manual run shows how to prepare the phone and waits for Enter before position 1. At every
            position you place the phone, then press Enter or Space: only then does the tap window run, and
            its time to detect is measured from that key. A phone that answers while you put it down is
            said and noted in the trail; the tap is the window after the key (tag mode records the phone's
            read when it happens, timed from the phone's own activation).
            Keys (single presses on a terminal; from a pipe, the letter and a newline): Enter or Space
            placed, r retry the position, s skip it, u undo the last tap, q quit (the session is saved;
            continue with --resume ID). Keys typed while the run waits for the lift are discarded, and so
            is a "placed" within half a second of the prompt (an Enter meant for the position before).
            With a machine positioner (sim, exec:, gcode) its finished move is the placement; --confirm-each
            also asks the operator to confirm each one.
            A MISS is recorded only for a confirmed placement and a window the reader polled without
            error to its end. A reader fault records nothing; the run pauses until the reader answers
            again (up to --fault-timeout). A responder that is not the phone (no ISO-DEP, a fixed UID
            where the phone showed random ones) is FOREIGN: never a hit or a miss, and the position is
            tapped again.
            Exit codes: 0 completed, 1 failed (reader or positioner; the session stays resumable),
            75 quit by the operator (saved, resumable), 130 interrupted (saved, resumable).
            """,
        options: RunOptions.all + CatalogOptions.all,
        handler: run)

    static func run(_ invocation: ParsedInvocation, _ context: CommandContext) async throws -> Int32 {
        var options = RunOptions(invocation, context)
        var lab = LabOptions.Settings(invocation, context)
        options.station = try lab.station()
        let labStore = try lab.labStoreURL()
        // A report path that could never be written is refused before the session starts.
        if let path = invocation[RunOptions.report] { _ = try OutputPath.check(path, invocation, context) }
        // So is equipment past its calibration, with --require-calibrated.
        options.equipment = try EquipmentOptions.load(invocation, context, day: EquipmentRegister.day(of: Date()))
        let store = try await StoreOptions.open(options.databasePath)
        let request = try await RunRequestOptions.request(invocation, context, options: options)
        var started = false
        let outcome: Result<Int32, any Error>
        do {
            outcome = .success(
                try await guided(invocation, context, options: options, request: request, store: store, started: &started))
        } catch { outcome = .failure(error) }
        // Whatever way the session ended, the lab store gets it (the bench database already has it).
        if started, let labStore {
            await LabPush.afterRun(store, to: labStore, station: options.station ?? LabOptions.hostStation(), context)
        }
        return try outcome.get()
    }

    static func guided(
        _ invocation: ParsedInvocation, _ context: CommandContext, options: RunOptions, request: RunRequest,
        store: any BenchStoring, started: inout Bool
    ) async throws -> Int32 {
        var sessionID: String?
        var execution = RunExecution()
        execution.confirmEach = options.confirmEach
        execution.faultPolicy = FaultPolicy(patience: options.faultTimeout)
        execution.tagMessage = options.tagMessage
        execution.equipment = options.equipment
        let outcome: RunOutcome
        let readerClosed: @Sendable ([String]) -> Void = { warnings in
            for warning in warnings { context.errors.line("Warning: \(warning)") }
        }
        do {
            outcome = try await RunStart.prepare(request, store: store, readerClosed: readerClosed) { prepared in
                started = true
                sessionID = prepared.session.id
                announce(prepared, context)
                let printer = RunPrinter(
                    context: context, invocation: invocation, json: options.json, strategy: prepared.session.strategy,
                    databasePath: options.databasePath, resolution: prepared.resolution,
                    aspectRatio: prepared.session.aspectRatio, session: prepared.session,
                    keysAvailable: !(options.auto || options.json), graded: prepared.coupling != nil)
                // A resumed session's map starts with the taps it already holds (issue 52: it
                // showed none, as if the session began here).
                if prepared.isResumed { printer.map.seed(try await store.taps(prepared.session.id)) }
                return try await execution.run(
                    prepared, store: store, commands: operatorCommands(options, context), events: { printer.handle($0) })
            }
        } catch let refusal as RunRefusal {
            throw RunRequestOptions.words(refusal, invocation, options: options)
        } catch let error as ReaderError {
            throw ReaderFailure.commandFailure(error)
        } catch let stop as RunStop {
            throw words(
                stop, resume: ResumeHint.command(sessionID: sessionID ?? "", databasePath: options.databasePath, invocation),
                sessionID: sessionID ?? "")
        }
        switch outcome {
        case .quit: return ExitCode.unfinished  // saved and resumable
        case .interrupted: return ExitCode.interrupted  // the runner said so, with the resume line
        case .completed(let final, let score):
            var reported = true
            if let url = options.reportURL(final.id) {
                reported = await ReportCommand.writeSessionReport(final.id, store: store, to: url, options.databasePath, context)
            }
            if options.json {
                context.output.line(
                    RunPrinter.summary(
                        final, score: score, taps: TapSummary(try await store.taps(final.id)),
                        databasePath: options.databasePath
                    ).serialized(pretty: true))
            }
            return reported ? ExitCode.success : ExitCode.failure
        }
    }

    /// What the operator must know before position 1: a limited reader, a changed tap window.
    static func announce(_ prepared: PreparedRun, _ context: CommandContext) {
        for warning in prepared.warnings { context.errors.line("Warning: \(TerminalSafeText.neutralise(warning))") }
        if let window = prepared.tapWindowFromRig {
            context.errors.line(
                "Tap window \(ReaderCommands.format(window)) s, the rig's: a machine stops before the window opens, so one "
                    + "poll round is enough (tap-window in the rig file; --tap-timeout to change; docs/rig.md).")
        }
        if let change = prepared.tapWindowChange {
            context.errors.line(
                "Tap window changed from \(ReaderCommands.format(change.from)) s to \(ReaderCommands.format(change.to)) s "
                    + "for the positions still to come (recorded with the session).")
        }
    }

    /// The operator's keys: single presses on a terminal, lines from a pipe, none unattended.
    static func operatorCommands(_ options: RunOptions, _ context: CommandContext) -> AsyncStream<OperatorCommand>? {
        if options.auto || options.json { return nil }
        return RawKeys.isAvailable && context.output.isTerminal ? RawKeys.stream(feedback: context.output) : OperatorKeys.stream()
    }

    /// A run that stopped early, in words that say how to continue.
    /// `resume`: the command that continues the session as it ran (`ResumeHint`).
    static func words(_ stop: RunStop, resume: String, sessionID id: String) -> CommandFailure {
        switch stop {
        case .positionerFailed(let message):
            return CommandFailure(
                "Positioner failed: \(message). Session \(id) is saved.", hint: "Fix the positioner, then: \(resume)")
        case .readerStayedFaulty(let error):
            return CommandFailure(
                "Stopped: \(error.description). Session \(id) is saved; nothing was recorded while the reader was faulty.",
                hint: (error.last.hint.map { $0 + " " } ?? "") + "Then continue with: \(resume)")
        case .foreignResponders(let error):
            return CommandFailure(
                "Stopped: \(TerminalSafeText.neutralise(error.description)). Session \(id) is saved; nothing that answered "
                    + "instead of the phone counts as a hit or a miss.",
                hint: "Clear the field, then continue with: \(resume)")
        case .readerFailed(let error):
            return CommandFailure(
                error.description + " Session \(id) is saved.",
                hint: (error.hint.map { $0 + " " } ?? "") + "Continue with: \(resume)")
        }
    }
}

/// Operator keys from standard input when it is not a terminal (a script, a pipe): one
/// letter per line, r, s, u, q; an empty line is Enter. On a terminal `RawKeys` reads
/// single key presses instead.
enum OperatorKeys {
    static func stream() -> AsyncStream<OperatorCommand> {
        AsyncStream { continuation in
            let decoder = Mutex(LineDecoder())
            Keyboard.read(
                threadName: "operator lines",
                each: { byte in
                    if let line = decoder.withLock({ $0.feed(byte) }), let command = command(line) { continuation.yield(command) }
                },
                end: {
                    if let last = decoder.withLock({ $0.finish() }), let command = command(last) { continuation.yield(command) }
                    continuation.finish()
                })
        }
    }

    /// What an operator typed: a letter or its word (r/retry, s/skip, u/undo, q/quit), in
    /// either case; nothing at all is Enter. A terminal's single keys map the same way.
    static func command(_ typed: String) -> OperatorCommand? {
        switch typed.trimmingCharacters(in: .whitespacesAndNewlines).lowercased() {
        case "r", "retry": .retry
        case "s", "skip": .skip
        case "u", "undo": .undo
        case "q", "quit": .quit
        case "": .proceed
        default: nil
        }
    }
}
