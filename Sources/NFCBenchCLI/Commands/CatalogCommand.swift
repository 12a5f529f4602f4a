import Foundation
import NFCBench
import NFCLocatorCore

/// `nfcbench catalog ...`: inspect and check catalogs.
enum CatalogCommand {
    static let spec = CommandSpec(
        "catalog", abstract: "Inspect, check and compare antenna catalogs.",
        subcommands: [
            listSpec, searchSpec, validateSpec, CatalogImportCommand.importSpec, CatalogImportCommand.diffSpec,
            CatalogSyncCommand.syncSpec, CatalogSyncCommand.cacheSpec, CatalogPublishCommand.keygenSpec,
            CatalogPublishCommand.publishSpec, CatalogPublishCommand.verifySpec,
        ])

    static let listSpec = CommandSpec(
        "list", abstract: "Print the effective catalog (the remote layer laid over the seed catalog).",
        options: [listJSON.spec] + CatalogOptions.all,
        handler: list)

    static let searchSpec = CommandSpec(
        "search", abstract: "List the catalog entries whose identifier, name or maker contains TEXT (any spelling).",
        discussion: "Case, spaces and hyphens do not matter: 'galaxy s2', 'GalaxyS2' and 'sm-s92' all match.",
        arguments: [ArgumentSpec("text", help: "Part of an identifier or a marketing name.")],
        options: CatalogOptions.all,
        handler: search)

    static let validateSpec = CommandSpec(
        "validate", abstract: "Check a catalog file and print every bad row with its index and reason.",
        discussion: "Exit codes: 0 all rows good, 1 some row bad (or not a catalog), 2 not JSON at all.",
        arguments: [ArgumentSpec("file", help: "The catalog or patch file to check.")],
        options: [validateJSON.spec],
        handler: validate)

    static let listJSON = Flag("--json", help: "Print a catalog document in the wire format.")
    static let validateJSON = Flag("--json", help: "Print the report as one JSON object.")

    static func list(_ invocation: ParsedInvocation, _ context: CommandContext) async throws -> Int32 {
        let loaded = try await CatalogOptions.loadResolver(invocation, context)
        let resolver = loaded.resolver
        for warning in CatalogOptions.warnings(for: loaded) { context.errors.line(warning) }
        let effective: Catalog
        switch (resolver.remote, resolver.seed) {
        case let (remote?, seed?): effective = remote.laid(over: seed)
        case let (remote?, nil): effective = remote
        case let (nil, seed?): effective = seed
        case (nil, nil): throw CommandFailure("No catalog could be loaded.", hint: "Run 'nfcbench doctor'.")
        }
        if invocation[listJSON] {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            context.output.line(
                JSONValue.escapingHiddenCharacters(String(decoding: try encoder.encode(effective.document), as: UTF8.self)))
            return ExitCode.success
        }
        context.output.line("catalog \(TerminalSafeText.neutralise(effective.version)): \(effective.profiles.count) entries")
        table(effective.profiles, context)
        return ExitCode.success
    }

    static func search(_ invocation: ParsedInvocation, _ context: CommandContext) async throws -> Int32 {
        let loaded = try await CatalogOptions.loadResolver(invocation, context)
        for warning in CatalogOptions.warnings(for: loaded) { context.errors.line(warning) }
        let text = invocation.positionals[0]
        let found = ModelFinder(resolver: loaded.resolver).search(text)
        guard !found.isEmpty else {
            context.output.line("No catalog entry matches '\(TerminalSafeText.neutralise(text))'.")
            return ExitCode.failure
        }
        context.output.line("\(found.count) entr\(found.count == 1 ? "y" : "ies") match '\(TerminalSafeText.neutralise(text))':")
        table(found, context)
        return ExitCode.success
    }

    /// What people type (the identifier), what they call it (the name), and the key the
    /// catalog files it under.
    static func table(_ profiles: [DeviceAntennaProfile], _ context: CommandContext) {
        let now = Date()
        context.output.line(
            pad("IDENTIFIER", 14) + pad("NAME", 28) + pad("KEY", 14) + pad("CONFIDENCE", 18) + "ZONE (x, y, w, h)")
        for p in profiles {
            let confidence = p.confidence.rawValue + (p.isStale(now: now) ? " stale" : "")
            let zone = [p.zone.x, p.zone.y, p.zone.width, p.zone.height].map { String(format: "%.2f", $0) }
                .joined(separator: ", ")
            context.output.line(
                pad(TerminalSafeText.field(p.modelIdentifier), 14) + pad(TerminalSafeText.field(p.displayName), 28)
                    + pad(p.lookupKey, 14) + pad(confidence, 18) + zone)
        }
    }

    static func validate(_ invocation: ParsedInvocation, _ context: CommandContext) async throws -> Int32 {
        let path = invocation.positionals[0]
        let url = context.url(forPath: path)
        let document: CatalogResponseDTO
        do {
            document = try CatalogDocumentDecoder.load(contentsOf: url)
        } catch {
            switch error.kind {
            case .unreadable:
                throw CommandFailure(error.description, hint: "Check the path and the file's permissions.")
            case .notJSON:
                report(invocation, context, path: path, entries: 0, rows: [], fatal: error.description)
                return ExitCode.notJSON
            case .notACatalog:
                report(invocation, context, path: path, entries: 0, rows: [], fatal: error.description)
                return ExitCode.failure
            }
        }
        let catalog = Catalog(document: document)
        report(invocation, context, path: path, entries: catalog.profiles.count, rows: catalog.skippedRows, fatal: nil)
        return catalog.skippedRows.isEmpty ? ExitCode.success : ExitCode.failure
    }

    private static func report(
        _ invocation: ParsedInvocation, _ context: CommandContext, path: String,
        entries: Int, rows: [SkippedCatalogRow], fatal: String?
    ) {
        if invocation[validateJSON] {
            context.output.line(
                JSONValue.object([
                    ("file", .string(path)),
                    ("valid", .bool(fatal == nil && rows.isEmpty)),
                    ("error", .optional(fatal)),
                    ("goodRows", .int(entries)),
                    (
                        "badRows",
                        .array(
                            rows.map { row in
                                .object([
                                    ("index", .int(row.index)), ("key", .optional(row.key)), ("reason", .string(row.reason)),
                                ])
                            })
                    ),
                ]).serialized(pretty: true))
            return
        }
        if let fatal {
            context.errors.line("Error: \(fatal)")
            context.errors.line("A catalog is a JSON object with \"version\" and an \"entries\" array; see docs/catalog.md.")
            return
        }
        for row in rows {
            context.output.line("row \(row.index)\(row.key.map { " (\($0))" } ?? ""): \(row.reason)")
        }
        context.output.line("\(path): \(entries) good row(s), \(rows.count) bad row(s)")
    }

    private static func pad(_ s: String, _ width: Int) -> String {
        s.count >= width ? s + " " : s + String(repeating: " ", count: width - s.count)
    }
}
