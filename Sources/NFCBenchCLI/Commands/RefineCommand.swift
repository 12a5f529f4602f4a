import Foundation
import NFCBench
import NFCBenchRecords
import NFCBenchUseCases
import NFCLocatorCore

/// `nfcbench refine`: bench evidence -> a catalog patch.
enum RefineCommand {
    static let spec = CommandSpec(
        "refine", abstract: "Refine unverified catalog zones from completed sessions; write a catalog patch.",
        discussion: """
            Sessions count toward the catalog entry their model resolves to (regional variants toward the family).
            Verified entries are never changed; evidence against one is reported. Use the patch with --catalog PATCH.
            Promotion policy (--promote): \(PromotionPolicy().summary). See docs/refine.md.
            """,
        options: [
            model.spec, all.spec, since.spec, minSessions.spec, promote.spec, includeSimulated.spec, mode.spec, reach.spec,
            atHeight.spec,
            output.spec,
            StoreOptions.database.spec, LabOptions.readStore.spec, json.spec, DamageWarning.allowPartial.spec,
        ] + CatalogOptions.all,
        handler: run)

    static let model = Option<String>("--model", short: "m", value: "id", help: "Refine the entry this model resolves to.")
    static let all = Flag("--all", help: "Refine every entry with sessions.")
    static let since = Option<Date>(
        "--since", value: "date", help: "Only sessions started at or after this ISO 8601 date or time.",
        expected: "an ISO 8601 date (2026-11-01) or date-time", convert: ISO8601Parsing.date(from:))
    static let minSessions = Option<Int>(
        "--min-sessions", value: "n", help: "Patch entries with at least n sessions (default 1).",
        expected: "a whole number in 1...100000", convert: OptionValue.whole(in: 1...100_000))
    static let promote = Flag("--promote", help: "Mark entries verified when the evidence passes the promotion policy.")
    static let includeSimulated = Flag(
        "--include-simulated",
        help: "Also count sessions from a simulated reader or virtual bench (never promotable; the patch says so).")
    static let atHeight = Option<Double>(
        "--at-height", value: "mm",
        help: "Refine from the taps this high above the back (sessions run with --heights; default 0, on the back).",
        expected: "millimetres in \(OptionValue.describe(ProbeHeights.range))",
        convert: OptionValue.number(in: ProbeHeights.range))
    static let reaches: ClosedRange<Double> = 0...50
    static let reach = Option<Double>(
        "--reach-mm", value: "mm", help: "Reader reach: how far outside the coil half the taps still read (default 0).",
        expected: "millimetres in \(OptionValue.describe(reaches))", convert: OptionValue.number(in: reaches))
    static let output = Option<String>(
        "--output", short: "o", value: "patch", help: "Write the patch here (without it: report only).")
    static let json = Flag("--json", help: "Print the report as one JSON object.")
    static let mode = Option<TapMode>(
        "--mode", value: "card|tag",
        help: "Only sessions of this mode (default both: card reads and tag reads locate the same coil).",
        expected: "card or tag", choices: TapMode.allCases.map(\.rawValue),
        convert: OptionValue.choice(TapMode.self))

    static func run(_ invocation: ParsedInvocation, _ context: CommandContext) async throws -> Int32 {
        let model = invocation[Self.model]
        guard (model != nil) != invocation[all] else {
            throw UsageError("Choose what to refine: --model <id> or --all.", path: invocation.path)
        }
        let patchDestination = try invocation[output].map { try OutputPath.check($0, invocation, context) }
        let loaded = try await CatalogOptions.loadResolver(invocation, context)
        for warning in CatalogOptions.warnings(for: loaded) { context.errors.line(warning) }
        var request = RefineRequest()
        request.since = invocation[since]
        request.minimumSessions = invocation[minSessions] ?? 1
        request.promote = invocation[promote]
        request.reachMm = invocation[reach] ?? 0
        request.heightMm = invocation[atHeight] ?? 0
        request.includeSimulated = invocation[includeSimulated]
        request.mode = invocation[mode]
        request.wantsPatch = patchDestination != nil
        request.carrying = try patchDestination == nil ? nil : carriedPatch(invocation, context)
        if let typed = model { request.lookupKey = try lookupKey(typed, resolver: loaded.resolver, invocation, context) }
        let (store, path) = try await StoreOptions.reading(invocation, context, checked: true)
        let outcome: RefineOutcome
        do {
            outcome = try await RefineEvidence.run(request, resolver: loaded.resolver, store: store)
        } catch let failure as RefineFailure {
            DamageWarning.print(store, leftOutOf: "the evidence", context)
            throw words(failure, model: model, since: request.since, invocation, path: path)
        }
        let leftOut = DamageWarning.print(store, leftOutOf: "the evidence", context)
        for entry in outcome.report.entries where entry.outcome == .verifiedDisagrees {
            context.errors.line("Warning: \(RefinePrinter.disagreement(entry))")
        }
        if let patchDestination, let patch = outcome.patch {
            try await OutputPath.write(patchDestination) { try $0.append(Array(patch)) }
        }
        var printer = RefinePrinter(report: outcome.report, policy: outcome.policy, patchPath: patchDestination?.given)
        printer.drawings = model != nil
        printer.useColor = context.useColor(invocation)
        if invocation[json] {
            context.output.line(printer.json().serialized(pretty: true))
        } else {
            for line in printer.lines() { context.output.line(line) }
        }
        return DamageWarning.exitCode(leftOut: leftOut, invocation)
    }

    /// The catalog key the typed model resolves to; refine improves existing entries only.
    static func lookupKey(
        _ typed: String, resolver: AntennaZoneResolver, _ invocation: ParsedInvocation, _ context: CommandContext
    ) throws -> String {
        let model = try ModelChoice.choose(typed, resolver: resolver, context: context, usagePath: invocation.path).identifier
        let fingerprint = ModelIdentifierFingerprintProvider(modelIdentifier: model).fingerprint()
        guard let key = resolver.resolve(fingerprint, signals: .inferred(from: fingerprint, model: model)).profile?.lookupKey
        else {
            throw CommandFailure(
                "No catalog entry for '\(model)': refine improves existing entries.",
                hint: "Add a row with the model's published dimensions first (seed catalog, or 'nfcbench catalog import').")
        }
        return key
    }

    /// The `--catalog` patch whose rows the new patch carries, when one is given.
    static func carriedPatch(_ invocation: ParsedInvocation, _ context: CommandContext) throws -> RefinementPatch? {
        try invocation[CatalogOptions.catalogFile].map { file in
            let data = try InputFile.read(
                context.url(forPath: file), limit: CatalogDocumentDecoder.maximumBytes, what: "catalog")
            do { return try RefinementPatch.read(data) } catch {
                throw CommandFailure(
                    "Cannot read '\(file)' to carry its rows into the new patch: \(error.localizedDescription)",
                    hint: "Check it with 'nfcbench catalog validate \(file)'.")
            }
        }
    }

    static func words(
        _ failure: RefineFailure, model: String?, since: Date?, _ invocation: ParsedInvocation, path: String
    ) -> CommandFailure {
        switch failure {
        case .invalidPatch(let reasons):
            return CommandFailure(
                "The refined patch would hold rows catalog validation rejects (\(reasons.joined(separator: "; "))); "
                    + "nothing was written.",
                hint: "This is a bug in refine; please report it with the session database.")
        case .noEvidence(let simulated, let void, let unmatched):
            var what = "No completed bench sessions"
            if let model { what += " of \(model)" }
            if let since { what += " since \(since.formatted(.iso8601))" }
            var hint =
                "Record some with 'nfcbench run --model ID --unit LABEL"
                + (invocation[StoreOptions.database] == nil ? "'." : " --db \(path)'.")
            if simulated + void > 0 {
                hint +=
                    " Left out: \(simulated) simulated session(s) (count them with --include-simulated; never promotable)"
                    + " and \(void) void one(s)."
            }
            if !unmatched.isEmpty {
                what += " for any catalog entry"
                hint += " Models without an entry: " + unmatched.joined(separator: ", ") + "."
            }
            return CommandFailure(what + " in \(path).", hint: hint)
        }
    }
}
