import Foundation
import NFCBench
import NFCLocatorCore
import NFCStore

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
            OptionSpec("--model", short: "m", value: "id", help: "Refine the entry this model resolves to."),
            OptionSpec("--all", help: "Refine every entry with sessions."),
            OptionSpec("--since", value: "date", help: "Only sessions started at or after this ISO 8601 date or time."),
            OptionSpec("--min-sessions", value: "n", help: "Patch entries with at least n sessions (default 1)."),
            OptionSpec("--promote", help: "Mark entries verified when the evidence passes the promotion policy."),
            OptionSpec("--reach-mm", value: "mm", help: "Reader reach: how far outside the coil half the taps still read (default 0)."),
            OptionSpec("--output", short: "o", value: "patch", help: "Write the patch here (without it: report only)."),
            SessionCommands.dbOption,
            OptionSpec("--json", help: "Print the report as one JSON object."),
        ] + CatalogOptions.all,
        handler: run)

    static func run(_ invocation: ParsedInvocation, _ context: CommandContext) async throws -> Int32 {
        let model = invocation.value("--model")
        guard (model != nil) != invocation.flag("--all") else {
            throw UsageError("Choose what to refine: --model <id> or --all.", path: invocation.path)
        }
        let since = try invocation.value("--since", as: "an ISO 8601 date (2026-11-01) or date-time", ISO8601Parsing.date(from:))
        let minimum = try invocation.value("--min-sessions", as: "a whole number >= 1") { Int($0).flatMap { $0 >= 1 ? $0 : nil } } ?? 1
        let reach = try invocation.value("--reach-mm", as: "millimetres >= 0") { Double($0).flatMap { $0 >= 0 && $0.isFinite ? $0 : nil } } ?? 0
        let loaded = try await CatalogOptions.loadResolver(invocation, context)
        for warning in CatalogOptions.warnings(for: loaded) { context.errors.line(warning) }
        let refiner = CatalogRefiner(resolver: loaded.resolver, minimumSessions: minimum, promote: invocation.flag("--promote"),
                                     reachMm: reach)
        var only: String?
        if let model {
            let fingerprint = ModelIdentifierFingerprintProvider(modelIdentifier: model).fingerprint()
            guard let key = loaded.resolver.resolve(fingerprint, signals: .inferred(from: fingerprint, model: model)).profile?.lookupKey else {
                throw CommandFailure("No catalog entry for '\(model)': refine improves existing entries.",
                                     hint: "Add a row with the model's published dimensions first (seed catalog, or 'nfcbench catalog import').")
            }
            only = key
        }
        let path = DatabaseLocation.path(option: invocation.value("--db"), context: context)
        let store = try RunCommand.openStore(path)
        // Taps are read only for sessions that will count: with --model, not the whole lab's.
        var evidence: [SessionEvidence] = []
        for session in try await store.sessions() where refiner.counts(session, since: since) {
            if let only, refiner.entry(for: session)?.lookupKey != only { continue }
            evidence.append(SessionEvidence(session: session, taps: try await store.taps(session.id)))
        }
        let report = refiner.refine(evidence, only: only, since: since)
        guard !report.entries.isEmpty else {
            var what = "No completed sessions"
            if let model { what += " of \(model)" }
            if let since { what += " since \(since.formatted(.iso8601))" }
            var hint = "Record some with 'nfcbench run --model ID --unit LABEL" + (invocation.value("--db") == nil ? "'." : " --db \(path)'.")
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
        if let out = invocation.value("--output") {
            let base = try invocation.value("--catalog").map { file in
                do { return try RefinementPatch.read(Data(contentsOf: context.url(forPath: file))) } catch {
                    throw CommandFailure("Cannot read '\(file)' to carry its rows into the new patch: \(error.localizedDescription)",
                                         hint: "Check it with 'nfcbench catalog validate \(file)'.")
                }
            }
            let patch = RefinementPatch(report, policy: refiner.policy, carrying: base)
            let url = context.url(forPath: out)
            do { try patch.encoded().write(to: url, options: .atomic) } catch {
                throw CommandFailure("Cannot write the patch to \(url.path): \(error.localizedDescription)", hint: "Choose a writable path with -o.")
            }
            written = url.path
        }
        var printer = RefinePrinter(report: report, policy: refiner.policy, patchPath: written)
        printer.drawings = model != nil
        printer.useColor = context.useColor(invocation)
        if invocation.flag("--json") {
            context.output.line(printer.json().serialized(pretty: true))
        } else {
            for line in printer.lines() { context.output.line(line) }
        }
        return ExitCode.success
    }
}
