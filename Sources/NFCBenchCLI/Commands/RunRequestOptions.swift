import Foundation
import NFCBench
import NFCBenchRecords
import NFCBenchUseCases
import NFCLocatorCore
import NFCSystem

/// Turns `run`'s arguments into a `RunRequest`: the model chosen and, when the catalog does
/// not know it, confirmed by the operator; the rest as given. The rules the request must
/// meet are the use case's (`RunStart`).
enum RunRequestOptions {
    /// Options that would change what a resumed session measures; refused with `--resume`.
    static let fixedOnResume = [
        RunOptions.model.spec, RunOptions.plan.spec, RasterOptions.stepMm.spec, HeightOptions.heights.spec,
        RunOptions.repeats.spec, RunOptions.unit.spec,
        RunOptions.operatorName.spec, RunOptions.phoneOS.spec, RunOptions.phoneBuild.spec, RunOptions.phoneCase.spec,
        RunOptions.readerAntenna.spec, RunOptions.gapMm.spec, RunOptions.temperature.spec, RunOptions.humidity.spec,
    ]

    static func request(_ invocation: ParsedInvocation, _ context: CommandContext, options: RunOptions) async throws
        -> RunRequest
    {
        var request = RunRequest(subject: try await subject(invocation, context, options: options))
        request.reader = options.readerSpec
        request.plan = options.plan
        let errors = context.errors
        request.notice = { errors.line(TerminalSafeText.neutralise($0)) }
        if case .model(_, let resolution, _) = request.subject,
            let raster = try RasterOptions.request(invocation, kind: options.plan ?? .adaptive, profile: resolution.profile)
        {
            request.rasterStepMm = raster.stepMm
        }
        if case .model = request.subject {
            request.heights = try HeightOptions.request(invocation, kind: options.plan ?? .adaptive)
        }
        request.repeats = options.repeats
        if invocation[RunOptions.coupling] && invocation[RunOptions.noCoupling] {
            throw UsageError("--coupling and --no-coupling cannot be given together: choose one.", path: invocation.path)
        }
        request.coupling = invocation[RunOptions.coupling] ? true : invocation[RunOptions.noCoupling] ? false : nil
        request.tapTimeout = invocation[RunOptions.tapTimeout]
        request.unit = options.unit
        request.operatorName = options.operatorName
        request.phone = PhoneDetails(
            os: invocation[RunOptions.phoneOS], build: invocation[RunOptions.phoneBuild],
            phoneCase: invocation[RunOptions.phoneCase])
        request.conditions = BenchConditions(
            temperatureC: invocation[RunOptions.temperature], humidityPct: invocation[RunOptions.humidity])
        request.readerAntenna = invocation[RunOptions.readerAntenna]
        request.gapMm = invocation[RunOptions.gapMm]
        if let typed = invocation[RunOptions.model], case .model(let identifier, _, _) = request.subject,
            typed != identifier
        {
            request.modelTyped = typed
        }
        request.station = options.station
        request.mode = options.invocationMode
        request.positioner = options.positioner
        if options.positioner?.usesRig == true { request.rig = try RigOptions.load(invocation, context) }
        request.positionerTimeout = options.positionerTimeout
        request.unattended = options.auto || options.json
        request.includeSimulated = invocation[RunOptions.includeSimulated]
        request.readerFeedback = options.feedback
        request.simulatedPhone = RunRequest.SimulatedPhoneSettings(antenna: options.simAntenna, seed: options.simSeed)
        request.virtualBenchDirectory = options.simBenchDirectory
        request.givenFixedSettings = fixedOnResume.filter { invocation.values[$0.name] != nil }.map(\.name)
        request.environment = context.environment
        return request
    }

    static func subject(_ invocation: ParsedInvocation, _ context: CommandContext, options: RunOptions) async throws
        -> RunRequest.Subject
    {
        if let id = invocation[RunOptions.resume] { return .resume(sessionID: id) }
        guard let given = invocation[RunOptions.model] else {
            throw UsageError("Missing expected argument '--model <id>' (or --resume <session>).", path: invocation.path)
        }
        let loaded = try await CatalogOptions.loadResolver(invocation, context)
        for warning in CatalogOptions.warnings(for: loaded) { context.errors.line(warning) }
        let chosen = try ModelChoice.choose(given, resolver: loaded.resolver, context: context, usagePath: invocation.path)
        let model = chosen.identifier
        if chosen.match == nil { try confirmUnknown(model, invocation, context, options: options) }
        let fingerprint = ModelIdentifierFingerprintProvider(modelIdentifier: model).fingerprint()
        let resolution = loaded.resolver.resolve(fingerprint, signals: .inferred(from: fingerprint, model: model))
        return .model(identifier: model, resolution: resolution, resolver: loaded.resolver)
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
        guard !options.auto, !options.json, TerminalSettings.isTerminal(.standardInput), context.output.isTerminal else {
            throw refusal
        }
        context.output.line(
            "Record a session for '\(TerminalSafeText.neutralise(model))', which the catalog does not know? [y/N]")
        // Declining is the operator's answer, not a mistake in the command: no usage text,
        // exit 1, and nothing recorded.
        guard let answer = readLine(), ["y", "yes"].contains(answer.trimmingCharacters(in: .whitespaces).lowercased()) else {
            throw CommandFailure(
                "Nothing recorded: '\(TerminalSafeText.neutralise(model))' is not in the catalog and was not confirmed.",
                hint: "Check the model with 'nfcbench catalog search TEXT', or answer y (scripts: --allow-unknown).")
        }
    }

    /// `RunStart`'s refusals in their words (`RunRefusal.words`), made safe for the terminal:
    /// a mistake in the command is a usage error (exit 64), anything else a failure (exit 1).
    static func words(_ refusal: RunRefusal, _ invocation: ParsedInvocation, options: RunOptions) -> any Error {
        let words = refusal.words(database: options.databasePath, unattendedOption: options.auto ? "--auto" : "--json")
        let message = TerminalSafeText.neutralise(words.message)
        return words.isUsage
            ? UsageError(message, path: invocation.path)
            : CommandFailure(message, hint: words.hint.map(TerminalSafeText.neutralise))
    }
}
