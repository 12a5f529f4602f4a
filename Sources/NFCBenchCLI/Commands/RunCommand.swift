import Foundation
import NFCBench
import NFCLocatorCore
import NFCReaders
import NFCStore

/// `nfcbench run`: the guided bench session.
enum RunCommand {
    static let spec = CommandSpec(
        "run", abstract: "Guide a bench session: tap the phone at each position, record hits, score the prediction.",
        discussion: """
            Keys while waiting for a tap (type the letter and Enter): r retry the position, s skip it,
            u undo the last tap, q quit (the session is saved; continue with --resume ID).
            Exit codes: 0 completed, 1 failed (reader or positioner; the session stays resumable), 130 interrupted.
            """,
        options: [
            OptionSpec("--model", short: "m", value: "id", help: "Model identifier of the phone under test."),
            OptionSpec("--reader", value: "spec", help: "libnfc:<connstring>, pcsc:<name> or sim (default: the only reader)."),
            OptionSpec("--plan", value: "grid|adaptive", help: "Probe plan (default grid: 3x5 cells from the prediction outward)."),
            OptionSpec("--unit", value: "label", help: "Which physical unit of the model (serial, asset tag)."),
            OptionSpec("--operator", value: "name", help: "Who runs the session."),
            OptionSpec("--tap-timeout", value: "seconds", help: "How long to wait for the phone at each position (default 5)."),
            OptionSpec("--repeats", value: "n", help: "Taps per position (default 1)."),
            OptionSpec("--positioner", value: "manual|sim|exec:TEMPLATE", help: "Who moves the phone (default manual; sim with --reader sim)."),
            OptionSpec("--auto", help: "No keyboard prompts (needs a positioner other than manual)."),
            OptionSpec("--db", value: "path", help: "Session database (default NFCBENCH_DB or $XDG_DATA_HOME/nfcbench/bench.sqlite)."),
            OptionSpec("--resume", value: "session", help: "Continue a saved session."),
            OptionSpec("--sim-antenna", value: "x,y,w,h", help: "With --reader sim: the phone's true antenna (default: the catalog zone)."),
            OptionSpec("--sim-seed", value: "n", help: "With --reader sim: seed for reproducible taps (default 1)."),
            OptionSpec("--sim-bench", value: "dir", help: "A virtual bench to move for --positioner sim (default: beside a pn532 pty)."),
            OptionSpec("--no-feedback", help: "No LED/buzzer feedback."),
            OptionSpec("--json", help: "Print only the session summary, as one JSON object."),
        ] + CatalogOptions.all,
        handler: run)

    static func run(_ invocation: ParsedInvocation, _ context: CommandContext) async throws -> Int32 {
        let options = try RunOptions(invocation, context)
        let store = try openStore(options.databasePath)
        var session: SessionRecord
        var resolution: AntennaResolution?
        if let id = invocation.value("--resume") {
            guard let saved = try await store.session(id) else {
                throw CommandFailure("No session '\(id)' in \(options.databasePath).", hint: "List them with 'nfcbench sessions'.")
            }
            guard saved.status == .inProgress else {
                throw CommandFailure("Session '\(id)' is \(saved.status.rawValue); only unfinished sessions resume.")
            }
            session = saved
        } else {
            guard let model = invocation.value("--model") else {
                throw UsageError("Missing expected argument '--model <id>' (or --resume <session>).", path: invocation.path)
            }
            let loaded = try await CatalogOptions.loadResolver(invocation, context)
            for warning in CatalogOptions.warnings(for: loaded) { context.errors.line(warning) }
            let fingerprint = ModelIdentifierFingerprintProvider(modelIdentifier: model).fingerprint()
            let r = loaded.resolver.resolve(fingerprint, signals: .inferred(from: fingerprint, model: model))
            resolution = r
            session = SessionFactory.newSession(model: model, resolution: r, options: options,
                                                planPass: try await SessionSelection.nextGridPass(for: model, in: store))
        }
        let phone = SessionFactory.simulatedPhone(session: session, options: options)
        let readerSpec = options.readerSpec ?? (invocation.value("--resume") != nil ? try? ReaderSpec.parse(session.readerName) : nil)
        let reader = try await ReaderFailure.wrap { () throws(ReaderError) in
            try await ReaderSelection(diagnosis: .fromEnvironment(context.environment), feedback: options.feedback)
                .open(readerSpec, simBench: phone)
        }
        session.readerBackend = reader.info.backend.rawValue
        session.readerName = reader.info.spec
        session.readerFirmware = reader.info.firmware
        let positioner = try options.positioner(reader: reader, simBench: phone, invocation: invocation)
        if options.auto && positioner.needsOperator {
            await reader.close()
            throw UsageError("'--auto' needs a positioner that moves the phone (sim or exec:...), not manual.", path: invocation.path)
        }
        let predicted = session.predicted.flatMap { try? NormalizedRect(x: $0[0], y: $0[1], width: $0[2], height: $0[3]) }
        let strategy = ProbePlans.make(PlanKind(rawValue: session.planKind) ?? .grid, around: predicted,
                                       aspectRatio: session.aspectRatio, pass: session.planPass)
        if invocation.value("--resume") == nil {
            session.planJSON = PlanCommand.probesJSON(strategy.expectedProbes(for: predicted)).serialized()
            try await store.insert(session)
        }
        let printer = RunPrinter(context: context, invocation: invocation, json: options.json, strategy: strategy,
                                 databasePath: options.databasePath, resolution: resolution, aspectRatio: session.aspectRatio)
        let run = GuidedRun(session: session, strategy: strategy, reader: reader, positioner: positioner, store: store)
        let commands = options.auto || options.json ? nil : OperatorKeys.stream()
        do {
            let score = try await run.run(commands: commands) { printer.handle($0) }
            await reader.close()
            for warning in reader.closingWarnings { context.errors.line("Warning: \(warning)") }
            guard let score else { return ExitCode.success }  // quit: saved and resumable
            if options.json {
                let final = try await store.session(session.id) ?? session
                context.output.line(RunPrinter.summary(final, score: score, databasePath: options.databasePath).serialized(pretty: true))
            }
            return ExitCode.success
        } catch let error as ReaderError {
            await reader.close()
            if error.code == .cancelled { return 130 }
            throw CommandFailure(error.description + " Session \(session.id) is saved.",
                                 hint: (error.hint.map { $0 + " " } ?? "") + "Continue with: nfcbench run --resume \(session.id) --db \(options.databasePath)")
        } catch let error as PositionerError {
            await reader.close()
            throw CommandFailure("Positioner failed: \(error.message). Session \(session.id) is saved.",
                                 hint: "Fix the positioner, then: nfcbench run --resume \(session.id) --db \(options.databasePath)")
        }
    }

    static func openStore(_ path: String) throws -> BenchStore {
        do { return try BenchStore(path: path) } catch {
            throw CommandFailure("Cannot open the session database \(path): \(error)",
                                 hint: "Use --db PATH or NFCBENCH_DB with a writable location; 'nfcbench doctor' checks it.")
        }
    }
}

/// Operator keys from standard input, one letter per line: r, s, u, q.
enum OperatorKeys {
    static func stream() -> AsyncStream<OperatorCommand> {
        AsyncStream { continuation in
            let thread = Thread {
                while let line = readLine() {
                    switch line.trimmingCharacters(in: .whitespaces).lowercased() {
                    case "r", "retry": continuation.yield(.retry)
                    case "s", "skip": continuation.yield(.skip)
                    case "u", "undo": continuation.yield(.undo)
                    case "q", "quit": continuation.yield(.quit)
                    default: continue
                    }
                }
                continuation.finish()
            }
            thread.start()
        }
    }
}
