import Foundation
import NFCBench
import NFCBenchRecords
import NFCLocatorCore
import NFCReaders

/// `nfcbench run`: the guided bench session.
enum RunCommand {
    static let spec = CommandSpec(
        "run", abstract: "Guide a bench session: tap the phone at each position, record hits, score the prediction.",
        discussion: """
            Keys while waiting for a tap (type the letter and Enter): r retry the position, s skip it,
            u undo the last tap, q quit (the session is saved; continue with --resume ID).
            Exit codes: 0 completed, 1 failed (reader or positioner; the session stays resumable), 130 interrupted.
            """,
        options: RunOptions.all + CatalogOptions.all,
        handler: run)

    static func run(_ invocation: ParsedInvocation, _ context: CommandContext) async throws -> Int32 {
        let options = RunOptions(invocation, context)
        let store = try await StoreOptions.open(options.databasePath)
        var saved: SessionRecord?
        var resolution: AntennaResolution?
        let model: String
        if let id = invocation[RunOptions.resume] {
            guard let found = try await store.session(id) else {
                throw CommandFailure(
                    "No session '\(id)' in \(options.databasePath).", hint: "List them with 'nfcbench sessions'.")
            }
            guard found.status == .inProgress else {
                throw CommandFailure("Session '\(id)' is \(found.status.rawValue); only unfinished sessions resume.")
            }
            saved = found
            model = found.modelInput
        } else {
            guard let given = invocation[RunOptions.model] else {
                throw UsageError("Missing expected argument '--model <id>' (or --resume <session>).", path: invocation.path)
            }
            model = given
            let loaded = try await CatalogOptions.loadResolver(invocation, context)
            for warning in CatalogOptions.warnings(for: loaded) { context.errors.line(warning) }
            let fingerprint = ModelIdentifierFingerprintProvider(modelIdentifier: model).fingerprint()
            resolution = loaded.resolver.resolve(fingerprint, signals: .inferred(from: fingerprint, model: model))
        }
        let predicted = saved?.predicted ?? resolution?.zone
        let aspectRatio = saved?.aspectRatio ?? resolution?.profile?.aspectRatio ?? 0.48
        let phone = SessionFactory.simulatedPhone(predicted: predicted, aspectRatio: aspectRatio, options: options)
        let readerSpec = options.readerSpec ?? saved?.reader
        let reader = try await ReaderFailure.wrap { () throws(ReaderError) in
            try await ReaderSelection(diagnosis: .fromEnvironment(context.environment), feedback: options.feedback)
                .open(readerSpec, simBench: phone)
        }
        var session: SessionRecord
        if var saved {
            saved.readerFirmware = reader.info.firmware
            session = saved
        } else if let resolution {
            let spec: ReaderSpec
            do { spec = try ReaderSpec.parse(reader.info.spec) } catch {
                await reader.close()
                throw CommandFailure(
                    "The reader names itself '\(reader.info.spec)', which is not a reader spec: \(error.message)")
            }
            session = SessionRecord(
                id: SessionFactory.sessionID(), model: model, resolution: resolution, plan: options.plan,
                planPass: try await SessionSelection.nextGridPass(for: model, in: store), reader: spec,
                readerFirmware: reader.info.firmware, unit: options.unit, operatorName: options.operatorName,
                repeats: options.repeats, tapTimeout: options.tapTimeout, startedAt: Date())
        } else {
            preconditionFailure("a run either resumes a session or resolves a model")
        }
        let positioner: any Positioner
        do { positioner = try options.positioner(reader: reader, simBench: phone, invocation: invocation) } catch {
            await reader.close()
            throw error
        }
        if options.auto && positioner.needsOperator {
            await reader.close()
            throw UsageError(
                "'--auto' needs a positioner that moves the phone (sim or exec:...), not manual.", path: invocation.path)
        }
        if saved == nil { try await store.insert(session) }
        let strategy = session.strategy
        let printer = RunPrinter(
            context: context, invocation: invocation, json: options.json, strategy: strategy,
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
                context.output.line(
                    RunPrinter.summary(final, score: score, databasePath: options.databasePath).serialized(pretty: true))
            }
            return ExitCode.success
        } catch let error as ReaderError {
            await reader.close()
            if error.code == .cancelled { return 130 }
            throw CommandFailure(
                error.description + " Session \(session.id) is saved.",
                hint: (error.hint.map { $0 + " " } ?? "")
                    + "Continue with: nfcbench run --resume \(session.id) --db \(options.databasePath)")
        } catch let error as PositionerError {
            await reader.close()
            if error.isInterruption { return 130 }
            throw CommandFailure(
                "Positioner failed: \(error.message). Session \(session.id) is saved.",
                hint: "Fix the positioner, then: nfcbench run --resume \(session.id) --db \(options.databasePath)")
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
