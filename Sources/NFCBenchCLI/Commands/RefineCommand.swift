import Foundation
import NFCBench
import NFCBenchRecords
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
            output.spec,
            StoreOptions.database.spec, LabOptions.readStore.spec, json.spec,
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
        expected: "card or tag", convert: OptionValue.choice(TapMode.self))

    static func run(_ invocation: ParsedInvocation, _ context: CommandContext) async throws -> Int32 {
        let model = invocation[Self.model]
        guard (model != nil) != invocation[all] else {
            throw UsageError("Choose what to refine: --model <id> or --all.", path: invocation.path)
        }
        let patchDestination = try invocation[output].map { try OutputPath.check($0, invocation, context) }
        let since = invocation[Self.since]
        let minimum = invocation[minSessions] ?? 1
        let reach = invocation[Self.reach] ?? 0
        let loaded = try await CatalogOptions.loadResolver(invocation, context)
        for warning in CatalogOptions.warnings(for: loaded) { context.errors.line(warning) }
        let refiner = CatalogRefiner(
            resolver: loaded.resolver, minimumSessions: minimum, promote: invocation[promote],
            reachMm: reach, includeSimulated: invocation[includeSimulated])
        var only: String?
        if let typed = model {
            let model = try ModelChoice.choose(typed, resolver: loaded.resolver, context: context, usagePath: invocation.path)
                .identifier
            let fingerprint = ModelIdentifierFingerprintProvider(modelIdentifier: model).fingerprint()
            guard
                let key = loaded.resolver.resolve(fingerprint, signals: .inferred(from: fingerprint, model: model)).profile?
                    .lookupKey
            else {
                throw CommandFailure(
                    "No catalog entry for '\(model)': refine improves existing entries.",
                    hint: "Add a row with the model's published dimensions first (seed catalog, or 'nfcbench catalog import').")
            }
            only = key
        }
        let (store, path) = try await StoreOptions.reading(invocation, context, checked: true)
        // Taps are read only for sessions that will count: with --model, not the whole lab's.
        var evidence: [SessionEvidence] = []
        let stored = try await store.sessions()
        let leftOut = stored.filter { $0.status == .completed && ($0.isVoid || $0.simulated && !invocation[includeSimulated]) }
        for session in stored where refiner.counts(session, since: since) {
            if let only, refiner.entry(for: session)?.lookupKey != only { continue }
            if let mode = invocation[mode], session.mode != mode { continue }
            guard let taps = try await store.intactTaps(of: session) else { continue }
            evidence.append(SessionEvidence(session: session, taps: taps))
        }
        DamageWarning.print(store, leftOutOf: "the evidence", context)
        let report = refiner.refine(evidence, only: only, since: since)
        guard !report.entries.isEmpty else {
            var what = "No completed bench sessions"
            if let model { what += " of \(model)" }
            if let since { what += " since \(since.formatted(.iso8601))" }
            var hint =
                "Record some with 'nfcbench run --model ID --unit LABEL"
                + (invocation[StoreOptions.database] == nil ? "'." : " --db \(path)'.")
            let simulated = leftOut.filter { $0.simulated && !$0.isVoid }.count, void = leftOut.filter(\.isVoid).count
            if simulated + void > 0 {
                hint +=
                    " Left out: \(simulated) simulated session(s) (count them with --include-simulated; never promotable)"
                    + " and \(void) void one(s)."
            }
            if !report.unmatchedModels.isEmpty {
                what += " for any catalog entry"
                hint += " Models without an entry: " + report.unmatchedModels.keys.sorted().joined(separator: ", ") + "."
            }
            throw CommandFailure(what + " in \(path).", hint: hint)
        }
        for entry in report.entries where entry.outcome == .verifiedDisagrees {
            context.errors.line("Warning: \(RefinePrinter.disagreement(entry))")
        }
        var written: String?
        if let patchDestination {
            let base = try invocation[CatalogOptions.catalogFile].map { file in
                do { return try RefinementPatch.read(Data(contentsOf: context.url(forPath: file))) } catch {
                    throw CommandFailure(
                        "Cannot read '\(file)' to carry its rows into the new patch: \(error.localizedDescription)",
                        hint: "Check it with 'nfcbench catalog validate \(file)'.")
                }
            }
            let patch = RefinementPatch(report, policy: refiner.policy, carrying: base)
            // A patch is only written when `catalog validate` would accept every row of it.
            let rejected = Catalog(
                document: CatalogResponseDTO(
                    version: patch.version, generatedAt: patch.generatedAt, entries: patch.entries.map(\.entry))
            ).skippedRows
            guard rejected.isEmpty else {
                throw CommandFailure(
                    "The refined patch would hold rows catalog validation rejects (\(rejected.map(\.reason).joined(separator: "; "))); "
                        + "nothing was written.",
                    hint: "This is a bug in refine; please report it with the session database.")
            }
            let encoded = try patch.encoded()
            try await OutputPath.write(patchDestination) { try $0.append(Array(encoded)) }
            written = patchDestination.given
        }
        var printer = RefinePrinter(report: report, policy: refiner.policy, patchPath: written)
        printer.drawings = model != nil
        printer.useColor = context.useColor(invocation)
        if invocation[json] {
            context.output.line(printer.json().serialized(pretty: true))
        } else {
            for line in printer.lines() { context.output.line(line) }
        }
        return ExitCode.success
    }
}
