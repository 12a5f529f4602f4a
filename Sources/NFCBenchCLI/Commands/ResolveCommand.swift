import Foundation
import NFCBench
import NFCLocatorCore

/// `nfcbench resolve`: the predicted antenna zone for one model.
enum ResolveCommand {
    static let spec = CommandSpec(
        "resolve", abstract: "Show where a phone model's NFC antenna is predicted to be.",
        discussion: """
            Looks the model up through remote catalog -> seed catalog -> heuristic. An unknown
            model is not an error: the heuristic's sweep guidance is printed and the exit code is 0.
            Zones are fractions of the phone's back, viewed from the back, origin top-left.
            """,
        options: [model.spec, manufacturer.spec, formFactor.spec, foldState.spec, svg.spec, json.spec] + CatalogOptions.all,
        handler: run)

    static let model = Option<String>(
        "--model", short: "m", value: "id|name",
        help: "Model identifier or marketing name: iPhone15,2, SM-S921B, \"Pixel 8\", \"Galaxy S24\".", required: true)
    static let manufacturer = Option<String>(
        "--manufacturer", value: "name", help: "Manufacturer, when the identifier does not tell.")
    static let formFactor = Option<FormFactor>(
        "--form-factor", value: "shape", help: "phone, tablet, foldBook or foldFlip (for the heuristic).",
        expected: "one of \(FormFactor.allCases.map(\.rawValue).joined(separator: ", "))",
        choices: FormFactor.allCases.map(\.rawValue), convert: OptionValue.choice(FormFactor.self))
    static let foldState = Option<FoldState>(
        "--fold-state", value: "state", help: "folded or unfolded (foldables, for the heuristic).",
        expected: "folded or unfolded", choices: FoldState.allCases.map(\.rawValue), convert: OptionValue.choice(FoldState.self))
    static let svg = Option<String>("--svg", value: "file", help: "Also write the silhouette as an SVG file.")
    static let json = Flag("--json", help: "Print one JSON object instead of the drawing.")

    static func run(_ invocation: ParsedInvocation, _ context: CommandContext) async throws -> Int32 {
        let typed = invocation.required(Self.model)
        let svgDestination = try invocation[svg].map { try OutputPath.check($0, invocation, context) }
        let formFactor = invocation[Self.formFactor]
        let foldState = invocation[Self.foldState]
        let loaded = try await CatalogOptions.loadResolver(invocation, context)
        let resolver = loaded.resolver
        let model = try ModelChoice.choose(typed, resolver: resolver, context: context, usagePath: invocation.path).identifier
        let provider = ModelIdentifierFingerprintProvider(
            modelIdentifier: model,
            manufacturer: invocation[manufacturer])
        let fingerprint = provider.fingerprint()
        let signals = DeviceIdentitySignals.inferred(
            from: fingerprint, model: model,
            formFactor: formFactor, foldState: foldState)
        let now = Date()
        let resolution = resolver.resolve(fingerprint, signals: signals, now: now)
        for warning in CatalogOptions.warnings(for: loaded) { context.errors.line(warning) }
        let strings = context.strings()
        if let svgDestination {
            var drawing = SilhouetteDrawing(resolution: resolution)
            drawing.caption = [
                resolution.profile.map { "\($0.displayName) (\($0.modelIdentifier))" } ?? model,
                "prediction from \(resolution.source.rawValue)" + (resolution.catalogVersion.map { ", catalog " + $0 } ?? ""),
                "resolved \(ReportClock.fromEnvironment(context.environment).local(now))",
            ]
            let svg = SVGSilhouetteRenderer().render(drawing, title: resolution.profile?.displayName ?? model)
            try await OutputPath.write(svgDestination) { try $0.write(svg) }
        }
        if invocation[json] {
            context.output.line(
                json(resolution, input: model, loaded: loaded, strings: strings, now: now)
                    .serialized(pretty: true))
        } else {
            ResolutionPrinter(useColor: context.useColor(invocation), strings: strings)
                .print(resolution, input: model, now: now, to: context.output)
        }
        return ExitCode.success
    }

    static func json(
        _ r: AntennaResolution, input: String, loaded: CatalogOptions.Loaded,
        strings: StringCatalog, now: Date
    ) -> JSONValue {
        .object([
            ("input", .string(input)),
            ("lookupKey", .string(r.lookupKey)),
            ("matchedKey", .optional(r.matchedKey)),
            ("matchedBy", .string(r.matchedBy.rawValue)),
            ("source", .string(r.source.rawValue)),
            ("confidence", .string(r.confidence.rawValue)),
            ("stale", .bool(r.isStale)),
            ("zone", r.profile.map { $0.zone.json } ?? .null),
            ("sweepRegion", sweepRegion(r).map(\.json) ?? .null),
            ("aspectRatio", r.profile.map { .number($0.aspectRatio) } ?? .null),
            ("displayName", .optional(r.profile?.displayName)),
            ("lastVerifiedAt", .optional(r.profile?.lastVerifiedAt.map { $0.formatted(.iso8601) })),
            ("catalogVersion", .optional(r.catalogVersion)),
            ("hint", .string(strings.string(r.hintKey))),
            ("remote", CatalogOptions.json(loaded.remote)),
            ("layers", CatalogOptions.json(loaded.layers)),
        ])
    }

    static func sweepRegion(_ r: AntennaResolution) -> NormalizedRect? {
        switch r.guidance {
        case .marker: nil
        case .staleMarker(_, let sweep), .fallback(let sweep): sweep.sweepRegion ?? .wholeBack
        }
    }
}
