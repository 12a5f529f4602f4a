import Foundation
import NFCBench
import NFCBenchRecords
import NFCBenchUseCases
import NFCLocatorCore

/// `nfcbench template`: a life-size placement template of the phone's back to print and
/// lay the phone on, with the predicted zone and the plan's positions numbered.
enum TemplateCommand {
    static let spec = CommandSpec(
        "template", abstract: "Draw a life-size placement template of a phone's back (SVG, 1 mm = 1 mm at 100 %).",
        discussion: """
            The back of the phone, top edge up, at its published size, with the predicted zone and the positions the
            plan taps when the prediction is right (an adaptive run adds positions as the taps answer): the positions
            'run' would use now, learned focus included (see 'plan'). Print at 100 % without "fit to page" and check
            the 50 mm scale bar with a ruler.
            """,
        options: [
            model.spec, plan.spec, RasterOptions.stepMm.spec, output.spec, StoreOptions.database.spec,
            PlanCommand.includeSimulated.spec,
        ]
            + CatalogOptions.all,
        handler: run)

    static let model = Option<String>(
        "--model", short: "m", value: "id|name", help: "Model identifier or marketing name.", required: true)
    static let plan = Option<PlanKind>(
        "--plan", value: ProbePlans.choices, help: "Whose positions to number (default adaptive).",
        expected: ProbePlans.expectedChoices, choices: ProbePlans.names,
        convert: OptionValue.choice(PlanKind.self))
    static let output = Option<String>("--output", short: "o", value: "file.svg", help: "Write here instead of standard output.")

    static func run(_ invocation: ParsedInvocation, _ context: CommandContext) async throws -> Int32 {
        let destination = try invocation[output].map { try OutputPath.check($0, invocation, context) }
        let loaded = try await CatalogOptions.loadResolver(invocation, context)
        for warning in CatalogOptions.warnings(for: loaded) { context.errors.line(warning) }
        let chosen = try ModelChoice.choose(
            invocation.required(model), resolver: loaded.resolver, context: context, usagePath: invocation.path)
        guard let profile = chosen.match?.profile, let body = BodyMillimetres(profile: profile) else {
            throw CommandFailure(
                "No published body size for '\(TerminalSafeText.neutralise(chosen.identifier))': a life-size template needs one.",
                hint: "Use a catalog entry with bodyWidthMm and bodyHeightMm (nfcbench catalog search TEXT).")
        }
        let kind = try PlanCommand.listable(invocation[plan] ?? .adaptive, invocation)
        let planned = try await RunPlanning.plan(
            model: chosen.identifier, kind: kind, zone: profile.zone, aspectRatio: profile.aspectRatio,
            resolver: loaded.resolver, store: try await StoreOptions.planningStore(invocation, context),
            includeSimulated: invocation[PlanCommand.includeSimulated],
            raster: try RasterOptions.request(invocation, kind: kind, profile: profile))
        let probes = planned.strategy.expectedProbes(for: profile.zone)
        let learned =
            planned.learnedFrom.isEmpty ? "" : " Learned from sessions " + planned.learnedFrom.joined(separator: ", ") + "."
        let fingerprint = ModelIdentifierFingerprintProvider(modelIdentifier: chosen.identifier).fingerprint()
        let resolution = loaded.resolver.resolve(
            fingerprint, signals: .inferred(from: fingerprint, model: chosen.identifier))
        var drawing = SilhouetteDrawing(
            aspectRatio: body.width / body.height, zone: profile.zone, zoneStyle: .init(resolution),
            marks: probes.enumerated().map { .init(x: $1.x, y: $1.y, kind: .planned, label: String($0 + 1)) })
        drawing.caption = [
            "\(profile.displayName) (\(profile.modelIdentifier)), \(FixedPoint.format(body.width, 1)) × \(FixedPoint.format(body.height, 1)) mm",
            "\(kind.rawValue) plan, \(probes.count) positions"
                + (planned.pass > 0 && kind == .grid ? ", pass \(planned.pass)" : ""),
            "printed \(ReportClock.fromEnvironment(context.environment).local(Date()))",
        ]
        let words = PositionWords(body: body)
        let description =
            "Life-size template of the back of the \(profile.displayName) (\(profile.modelIdentifier)), "
            + "\(FixedPoint.format(body.width, 1)) × \(FixedPoint.format(body.height, 1)) mm, top edge up. "
            + probes.enumerated().map { "Position \($0 + 1): \(words.words($1))." }.joined(separator: " ") + learned
        let svg = SVGSilhouetteRenderer(bodyMillimetres: (body.width, body.height)).render(
            drawing,
            title: "\(profile.displayName) (\(profile.modelIdentifier)): placement template, \(kind.rawValue) plan"
                + (planned.pass > 0 && kind == .grid ? ", pass \(planned.pass)" : "")
                + (planned.learnedFrom.isEmpty ? "" : ", learned from \(planned.learnedFrom.count) session(s)"),
            description: description)
        guard let destination else {
            context.output.line(svg)
            return ExitCode.success
        }
        try await OutputPath.write(destination) { try $0.write(svg + "\n") }
        context.errors.line(
            "Template written to \(destination.given): print at 100 % and check the 50 mm bar; "
                + "body \(FixedPoint.format(body.width, 1)) × \(FixedPoint.format(body.height, 1)) mm.")
        return ExitCode.success
    }
}
