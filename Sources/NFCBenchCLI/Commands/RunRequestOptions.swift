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

    /// `RunStart`'s refusals in the command line's words.
    static func words(_ refusal: RunRefusal, _ invocation: ParsedInvocation, options: RunOptions) -> any Error {
        switch refusal {
        case .noSuchSession, .notResumable, .voidSession, .fixedOnResume, .modeFixedOnResume:
            return resumeWords(refusal, invocation, options: options)
        case .rigMissing, .rigUnusable, .bodySizeUnknown, .outOfTravel, .machineUnavailable, .heightsNeedMachine:
            return machineWords(refusal, invocation)
        case .unattendedNeedsMachine:
            return UsageError(
                "'\(options.auto ? "--auto" : "--json")' reads no keys, so it needs a positioner that moves the phone "
                    + "(sim, exec:... or gcode): a manual run waits for the operator to confirm each placement.",
                path: invocation.path)
        case .simPositionerNeedsBench:
            return UsageError(
                "'--positioner sim' needs --reader sim or a virtual bench (give --sim-bench DIR).", path: invocation.path)
        case .tagModeUnsupported(_, let reason, hasTargetMode: false):
            return CommandFailure(
                "Tag mode needs a reader that can emulate a tag; \(TerminalSafeText.neutralise(reason)).",
                hint:
                    "Use a PN532 board through libnfc, e.g. --reader libnfc:pn532_uart:/dev/ttyUSB0 ('nfcbench readers' lists them)."
            )
        case .tagModeUnsupported(let reader, let reason, hasTargetMode: true):
            return CommandFailure(
                "Tag mode: '\(TerminalSafeText.neutralise(reader))' cannot emulate a tag: \(TerminalSafeText.neutralise(reason))")
        case .coilPlanNeedsGeometry(let reader, let antennaKnown, let bodyKnown):
            var missing: [String] = []
            if !antennaKnown {
                missing.append(
                    "the reader's antenna ('\(TerminalSafeText.neutralise(reader))' has no profile): give --reader-antenna WxH "
                        + "and --gap-mm MM (docs/physics.md)")
            }
            if !bodyKnown { missing.append("the phone's body size, which the catalog does not publish for this model") }
            return UsageError(
                "--plan coil places positions in millimetres under the physics of two loops and needs "
                    + missing.joined(separator: ", and ") + ".", path: invocation.path)
        case .couplingUnsupported(let reason):
            return UsageError("--coupling cannot be used: \(TerminalSafeText.neutralise(reason)).", path: invocation.path)
        case .readerSpecUnreadable(let spec):
            return CommandFailure(
                "The reader names itself '\(TerminalSafeText.neutralise(spec))', which is not a reader spec.")
        }
    }

    /// A resume the saved session does not allow.
    static func resumeWords(_ refusal: RunRefusal, _ invocation: ParsedInvocation, options: RunOptions) -> any Error {
        switch refusal {
        case .noSuchSession(let id):
            return CommandFailure("No session '\(id)' in \(options.databasePath).", hint: "List them with 'nfcbench sessions'.")
        case .notResumable(let id, let status):
            return CommandFailure("Session '\(id)' is \(status.rawValue); only unfinished sessions resume.")
        case .voidSession(let id, let reason):
            return CommandFailure("Session '\(id)' is void (\(reason)); start a new one.")
        case .fixedOnResume(let id, let settings):
            return UsageError(
                "\(settings.joined(separator: ", ")) cannot change when resuming: session \(id) keeps what it started with. "
                    + "Start a new session to change \(settings.count == 1 ? "it" : "them").", path: invocation.path)
        case .modeFixedOnResume(let id, let mode):
            return UsageError(
                "Session \(id) was recorded in \(mode.rawValue) mode; a session keeps its mode "
                    + "(leave out --mode, or start a new session).", path: invocation.path)
        default: preconditionFailure("not a resume refusal: \(refusal)")
        }
    }

    /// A machine positioner that cannot serve the session.
    static func machineWords(_ refusal: RunRefusal, _ invocation: ParsedInvocation) -> any Error {
        switch refusal {
        case .rigMissing:
            return UsageError("A gcode positioner needs a rig file (--rig FILE; docs/rig.md).", path: invocation.path)
        case .rigUnusable(let path, let reason):
            return UsageError("The rig '\(path)': \(reason).", path: invocation.path)
        case .bodySizeUnknown(let model):
            return CommandFailure(
                "The catalog has no published body size for '\(TerminalSafeText.neutralise(model))', so a machine cannot "
                    + "map positions to millimetres.",
                hint: "Use a catalog entry with bodyWidthMm and bodyHeightMm, or move the phone by hand (--positioner manual).")
        case .outOfTravel(let reason):
            return CommandFailure(
                "The plan cannot run on this rig: \(reason). Nothing moved.",
                hint: "Check origin-x, origin-y and the axes in the rig file, or re-run 'nfcbench rig calibrate'.")
        case .machineUnavailable(let device, let reason):
            return CommandFailure(
                "The machine at \(TerminalSafeText.neutralise(device)) cannot be used: \(TerminalSafeText.neutralise(reason)).",
                hint: "Check it with 'nfcbench rig check'; 'nfcbench rig unlock' clears an alarm.")
        case .heightsNeedMachine(let positioner):
            return UsageError(
                "--heights needs a positioner that can hold the reader above the back (gcode, or sim with --reader sim); "
                    + "'\(TerminalSafeText.neutralise(positioner))' only puts the phone on the reader.", path: invocation.path)
        default: preconditionFailure("not a machine refusal: \(refusal)")
        }
    }
}
