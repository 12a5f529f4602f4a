import Foundation
import NFCBench
import NFCBenchRecords
import NFCBenchStoreSQLite
import NFCLocatorCore
import NFCReaders

/// `nfcbench run`: the guided bench session.
enum RunCommand {
    static let spec = CommandSpec(
        "run", abstract: "Guide a bench session: tap the phone at each position, record hits, score the prediction.",
        discussion: """
            A manual run shows how to prepare the phone and waits for Enter before position 1; with
            --confirm-each it waits for Enter before every position's tap window.
            Keys while waiting for a tap (type the letter and Enter): r retry the position, s skip it,
            u undo the last tap, q quit (the session is saved; continue with --resume ID).
            A MISS is recorded only when the reader polled without error for the whole window. A reader
            fault records nothing; the run pauses until the reader answers again (up to --fault-timeout).
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
        let store = try await StoreOptions.open(options.databasePath)
        var started = false
        let outcome: Result<Int32, any Error>
        do {
            outcome = .success(try await guided(invocation, context, options: options, store: store, started: &started))
        } catch { outcome = .failure(error) }
        // Whatever way the session ended, the lab store gets it (the bench database already has it).
        if started, let labStore, let local = store as? SQLiteBenchStore {
            await LabPush.afterRun(local, to: labStore, station: options.station ?? LabOptions.hostStation(), context)
        }
        return try outcome.get()
    }

    static func guided(
        _ invocation: ParsedInvocation, _ context: CommandContext, options: RunOptions, store: any BenchStoring,
        started: inout Bool
    ) async throws -> Int32 {
        var prepared = try await RunSession.prepare(invocation, context, options: options, store: store)
        let readers = prepared.readers
        let positioner: any Positioner
        do {
            positioner = try options.positioner(reader: readers.current, simBench: prepared.phone, invocation: invocation)
        } catch {
            await readers.current.close()
            throw error
        }
        if options.auto && positioner.needsOperator {
            await readers.current.close()
            throw UsageError(
                "'--auto' needs a positioner that moves the phone (sim or exec:...), not manual.", path: invocation.path)
        }
        if prepared.session.mode == .tag {
            do { try TagModeCheck.require(readers.current, context) } catch {
                await readers.current.close()
                throw error
            }
        }
        if prepared.isResumed, let asked = options.invocationMode, asked != prepared.session.mode {
            await readers.current.close()
            throw UsageError(
                "Session \(prepared.session.id) was recorded in \(prepared.session.mode.rawValue) mode; a session keeps its mode "
                    + "(leave out --mode, or start a new session).", path: invocation.path)
        }
        if !prepared.isResumed { try await store.insert(prepared.session) }
        started = true
        let session = prepared.session
        prepared.session = session
        let strategy = session.strategy
        let printer = RunPrinter(
            context: context, invocation: invocation, json: options.json, strategy: strategy,
            databasePath: options.databasePath, resolution: prepared.resolution, aspectRatio: session.aspectRatio,
            session: session, keysAvailable: !(options.auto || options.json))
        var tagMessage: (@Sendable (Int) -> NDEFMessage)?
        if let chosen = options.tagMessage { tagMessage = { _ in chosen } }
        let run = GuidedRun(
            session: session, strategy: strategy, readers: readers, positioner: positioner, store: store,
            confirmEach: options.confirmEach, faultPolicy: FaultPolicy(patience: options.faultTimeout),
            tagMessage: tagMessage)
        let commands =
            options.auto || options.json
            ? nil
            : RawKeys.isAvailable && context.output.isTerminal ? RawKeys.stream(feedback: context.output) : OperatorKeys.stream()
        let resume = "nfcbench run --resume \(session.id) --db \(options.databasePath)"
        do {
            let score = try await run.run(commands: commands) { printer.handle($0) }
            await close(readers, context)
            guard let score else { return ExitCode.unfinished }  // quit: saved and resumable
            if let url = options.reportURL(session.id) {
                await ReportCommand.writeSessionReport(session.id, store: store, to: url, options.databasePath, context)
            }
            if options.json {
                let final = try await store.session(session.id) ?? session
                context.output.line(
                    RunPrinter.summary(final, score: score, databasePath: options.databasePath).serialized(pretty: true))
            }
            return ExitCode.success
        } catch let error as PositionerError where !error.isInterruption {
            await close(readers, context)
            throw CommandFailure(
                "Positioner failed: \(error.message). Session \(session.id) is saved.",
                hint: "Fix the positioner, then: \(resume)")
        } catch let error as ReaderStayedFaulty {
            await close(readers, context)
            throw CommandFailure(
                "Stopped: \(error.description). Session \(session.id) is saved; nothing was recorded while the reader was faulty.",
                hint: (error.last.hint.map { $0 + " " } ?? "") + "Then continue with: \(resume)")
        } catch let error as ReaderError where error.code != .cancelled {
            await close(readers, context)
            throw CommandFailure(
                error.description + " Session \(session.id) is saved.",
                hint: (error.hint.map { $0 + " " } ?? "") + "Continue with: \(resume)")
        } catch {
            // Ctrl-C in any wait: the session is saved (the runner said so, with the resume line).
            await close(readers, context)
            return ExitCode.interrupted
        }
    }

    static func close(_ readers: ReaderHolder, _ context: CommandContext) async {
        let reader = readers.current
        await reader.close()
        for warning in reader.closingWarnings { context.errors.line("Warning: \(warning)") }
    }
}

/// Operator keys from standard input when it is not a terminal (a script, a pipe): one
/// letter per line, r, s, u, q; an empty line is Enter. On a terminal `RawKeys` reads
/// single key presses instead.
enum OperatorKeys {
    static func stream() -> AsyncStream<OperatorCommand> {
        AsyncStream { continuation in
            let thread = Thread {
                while let line = readLine() {
                    if let command = command(line) { continuation.yield(command) }
                }
                continuation.finish()
            }
            thread.start()
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
