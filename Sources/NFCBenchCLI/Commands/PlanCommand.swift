import Foundation
import NFCBench
import NFCBenchRecords
import NFCBenchUseCases
import NFCLocatorCore

/// `nfcbench plan`: the probe plan for a model, without a reader.
enum PlanCommand {
    static let spec = CommandSpec(
        "plan", abstract: "Print the probe positions a run would use for a model.",
        discussion: """
            The positions 'run' would use now: the grid pass and the adaptive plan's learned focus come from the model's
            earlier sessions in the same database (--db), bench evidence only unless --include-simulated. For the
            adaptive plan: the positions taken if the phone answers exactly inside the predicted zone.
            """,
        options: [
            model.spec, plan.spec, RasterOptions.stepMm.spec, pass.spec, StoreOptions.database.spec, includeSimulated.spec,
            json.spec,
        ]
            + CatalogOptions.all,
        handler: run)

    static let model = Option<String>(
        "--model", short: "m", value: "id|name", help: "Model identifier or marketing name.", required: true)
    static let plan = Option<PlanKind>(
        "--plan", value: ProbePlans.choices, help: "Which plan (default adaptive).",
        expected: ProbePlans.expectedChoices, choices: ProbePlans.names,
        convert: OptionValue.choice(PlanKind.self))
    static let pass = Option<Int>(
        "--pass", value: "n", help: "Grid: which interleaved grid (the n-th session of a model taps pass n; default 0).",
        expected: "a whole number in 0...1000000", convert: OptionValue.whole(in: 0...1_000_000))
    static let json = Flag("--json", help: "Print a JSON object.")
    static let includeSimulated = Flag(
        "--include-simulated", help: "Learn from simulated sessions too, as 'run --include-simulated' does.")

    /// A coil plan chooses each position from the outcome of the last, under the reader's
    /// physics: there is no list to print or to check against a rig before the run.
    static func listable(_ kind: PlanKind, _ invocation: ParsedInvocation) throws -> PlanKind {
        guard kind != .coil else {
            throw UsageError(
                "--plan coil has no list of positions ahead: it chooses each one from the taps before it, under the "
                    + "reader's antenna. Run it with 'nfcbench run --plan coil'.", path: invocation.path)
        }
        return kind
    }

    static func run(_ invocation: ParsedInvocation, _ context: CommandContext) async throws -> Int32 {
        let kind = try listable(invocation[plan] ?? .adaptive, invocation)
        let loaded = try await CatalogOptions.loadResolver(invocation, context)
        let model = try ModelChoice.choose(
            invocation.required(Self.model), resolver: loaded.resolver, context: context, usagePath: invocation.path
        ).identifier
        let fingerprint = ModelIdentifierFingerprintProvider(modelIdentifier: model).fingerprint()
        let r = loaded.resolver.resolve(fingerprint, signals: .inferred(from: fingerprint, model: model))
        let aspect = r.profile?.aspectRatio ?? 0.48
        // The pass and learned focus `run` would use now, from the same database.
        let planned = try await RunPlanning.plan(
            model: model, kind: kind, zone: r.zone, aspectRatio: aspect, resolver: loaded.resolver,
            store: try await StoreOptions.planningStore(invocation, context),
            includeSimulated: invocation[includeSimulated], pass: invocation[Self.pass],
            raster: try RasterOptions.request(invocation, kind: kind, profile: r.profile))
        let probes = planned.strategy.expectedProbes(for: r.zone)
        if invocation[json] {
            context.output.line(
                JSONValue.object([
                    ("model", .string(model)), ("lookupKey", .string(r.lookupKey)), ("plan", .string(kind.rawValue)),
                    ("predictedZone", r.zone?.json ?? .null), ("pass", .int(planned.pass)),
                    ("planFocus", .optional(planned.focus?.stored)),
                    ("learnedFromSessionIds", .array(planned.learnedFrom.map(JSONValue.string))),
                    ("probes", probesJSON(probes)),
                ]).serialized(pretty: true))
        } else {
            let words = PositionWords(body: r.profile.flatMap(BodyMillimetres.init(profile:)))
            context.output.line("\(kind.rawValue) plan for \(r.profile?.displayName ?? model): \(probes.count) positions")
            for line in learningLines(planned, bodyHeightMm: r.profile?.bodyHeightMm, aspectRatio: aspect) {
                context.output.line(line)
            }
            context.output.line(words.orientation)
            for (i, p) in probes.enumerated() {
                context.output.line(String(format: "%3d  ", i + 1) + words.words(p))
            }
        }
        return ExitCode.success
    }

    /// What the plan learned, naming the sessions, as `run` announces it.
    static func learningLines(_ planned: PlannedRun, bodyHeightMm: Double?, aspectRatio: Double) -> [String] {
        guard let focus = planned.focus else { return [] }
        return [
            RunPrinter.learning(focus, bodyHeightMm: bodyHeightMm, aspectRatio: aspectRatio),
            "Learned from: " + planned.learnedFrom.map { TerminalSafeText.neutralise($0) }.joined(separator: ", "),
        ]
    }

    static func probesJSON(_ probes: [Probe]) -> JSONValue {
        .array(probes.map { .object([("x", .number($0.x)), ("y", .number($0.y))]) })
    }
}
