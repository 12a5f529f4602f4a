import Foundation
import NFCBench
import NFCBenchRecords
import NFCLocatorCore
import NFCReaders

/// What `run` starts from: a new session of a resolved model, or a saved one resumed,
/// with its reader open.
struct RunSession {
    var session: SessionRecord
    let resolution: AntennaResolution?
    let isResumed: Bool
    let readers: ReaderHolder
    let phone: PhoneOnBench

    /// Options that would change what a resumed session measures; refused with `--resume`.
    static let fixedOnResume = [
        RunOptions.model.spec, RunOptions.plan.spec, RunOptions.repeats.spec, RunOptions.unit.spec,
        RunOptions.operatorName.spec,
    ]

    static func prepare(
        _ invocation: ParsedInvocation, _ context: CommandContext, options: RunOptions, store: any BenchStoring
    ) async throws -> RunSession {
        var saved: SessionRecord?
        var resolution: AntennaResolution?
        var resolver: AntennaZoneResolver?
        let model: String
        if let id = invocation[RunOptions.resume] {
            saved = try await resumable(id, invocation: invocation, options: options, store: store)
            model = saved?.modelInput ?? ""
        } else {
            guard let given = invocation[RunOptions.model] else {
                throw UsageError("Missing expected argument '--model <id>' (or --resume <session>).", path: invocation.path)
            }
            let loaded = try await CatalogOptions.loadResolver(invocation, context)
            for warning in CatalogOptions.warnings(for: loaded) { context.errors.line(warning) }
            let chosen = try ModelChoice.choose(given, resolver: loaded.resolver, context: context, usagePath: invocation.path)
            model = chosen.identifier
            if chosen.match == nil { try confirmUnknown(model, invocation, context, options: options) }
            let fingerprint = ModelIdentifierFingerprintProvider(modelIdentifier: model).fingerprint()
            resolver = loaded.resolver
            resolution = loaded.resolver.resolve(fingerprint, signals: .inferred(from: fingerprint, model: model))
        }
        let predicted = saved?.predicted ?? resolution?.zone
        let aspectRatio = saved?.aspectRatio ?? resolution?.profile?.aspectRatio ?? 0.48
        let phone = SessionFactory.simulatedPhone(predicted: predicted, aspectRatio: aspectRatio, options: options)
        let readerSpec = options.readerSpec ?? saved?.reader
        let selection = ReaderSelection(diagnosis: .fromEnvironment(context.environment), feedback: options.feedback)
        let reader = try await ReaderFailure.wrap { () throws(ReaderError) in
            try await selection.open(readerSpec, simBench: phone)
        }
        // A reader unplugged mid-run is reopened with the spec it was opened with.
        let openedSpec = try? ReaderSpec.parse(reader.info.spec)
        let readers = ReaderHolder(reader) { () throws(ReaderError) in try await selection.open(openedSpec, simBench: phone) }
        var session: SessionRecord
        if var saved {
            saved.readerFirmware = reader.info.firmware
            if let seconds = invocation[RunOptions.tapTimeout], seconds != saved.tapTimeout {
                try await store.setTapTimeout(saved.id, seconds: seconds)
                context.errors.line(
                    "Tap window changed from \(ReaderCommands.format(saved.tapTimeout)) s to \(ReaderCommands.format(seconds)) s "
                        + "for the positions still to come (recorded with the session).")
                saved.tapTimeout = seconds
            }
            session = saved
        } else if let resolution {
            guard let spec = openedSpec else {
                await reader.close()
                throw CommandFailure("The reader names itself '\(reader.info.spec)', which is not a reader spec.")
            }
            // The model's earlier sessions, read once: their number is the grid pass this session
            // takes (consecutive grid sessions interleave, `GridPlan`), their taps the
            // adaptive plan's focus.
            let earlier = SessionSelection.sessions(of: model, in: try await store.sessions())
            var focus: PlanFocus?
            if options.plan == .adaptive, let resolver {
                focus = try await PlanLearning.focus(
                    for: model, earlier: earlier, resolver: resolver, store: store, simulated: reader.info.isSimulated)
            }
            session = SessionRecord(
                id: SessionFactory.sessionID(), model: model, resolution: resolution, plan: options.plan,
                planPass: earlier.count, planFocus: focus, reader: spec,
                readerFirmware: reader.info.firmware, simulated: reader.info.isSimulated, unit: options.unit,
                operatorName: options.operatorName, repeats: options.repeats, tapTimeout: options.tapTimeout,
                startedAt: Date())
            session.station = options.station
            session.mode = options.tapMode
        } else {
            preconditionFailure("a run either resumes a session or resolves a model")
        }
        return RunSession(
            session: session, resolution: resolution, isResumed: saved != nil, readers: readers, phone: phone)
    }

    /// A model no catalog entry knows gives a session only the heuristic can judge and
    /// refine can never use: the operator confirms it, or a script says `--allow-unknown`.
    static func confirmUnknown(
        _ model: String, _ invocation: ParsedInvocation, _ context: CommandContext, options: RunOptions
    ) throws {
        if invocation[RunOptions.allowUnknown] { return }
        let refusal = UsageError(
            "'\(TerminalSafeText.neutralise(model))' is not in the catalog: the session would be judged by the heuristic only, "
                + "and refine could never use it. Check the model (nfcbench catalog search TEXT), or pass --allow-unknown.",
            path: invocation.path)
        guard !options.auto, !options.json, isatty(0) == 1, context.output.isTerminal else { throw refusal }
        context.output.line(
            "Record a session for '\(TerminalSafeText.neutralise(model))', which the catalog does not know? [y/N]")
        guard let answer = readLine(), ["y", "yes"].contains(answer.trimmingCharacters(in: .whitespaces).lowercased()) else {
            throw refusal
        }
    }

    /// The saved session `id`, if it can resume with these options.
    static func resumable(
        _ id: String, invocation: ParsedInvocation, options: RunOptions, store: any BenchStoring
    ) async throws -> SessionRecord {
        guard let found = try await store.session(id) else {
            throw CommandFailure("No session '\(id)' in \(options.databasePath).", hint: "List them with 'nfcbench sessions'.")
        }
        guard found.status == .inProgress else {
            throw CommandFailure("Session '\(id)' is \(found.status.rawValue); only unfinished sessions resume.")
        }
        guard !found.isVoid else {
            throw CommandFailure("Session '\(id)' is void (\(found.voidReason ?? "")); start a new one.")
        }
        let fixed = fixedOnResume.filter { invocation.values[$0.name] != nil }.map(\.name)
        guard fixed.isEmpty else {
            throw UsageError(
                "\(fixed.joined(separator: ", ")) cannot change when resuming: session \(id) keeps what it started with. "
                    + "Start a new session to change \(fixed.count == 1 ? "it" : "them").", path: invocation.path)
        }
        return found
    }
}
