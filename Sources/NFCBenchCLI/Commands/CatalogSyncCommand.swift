import Foundation
import NFCBench
import NFCBenchUseCases
import NFCCatalogRemote
import NFCLocatorCore

/// `nfcbench catalog sync` and `nfcbench catalog cache`.
enum CatalogSyncCommand {
    static let syncSpec = CommandSpec(
        "sync", abstract: "Fetch the remote catalog into the cache and report what changed.",
        discussion:
            "With --catalog-key, a document is taken only if its signature (catalog.minisig beside it) verifies with "
            + "that key and its catalogVersion is not older than the cached one.\n"
            + "Exit codes: 0 synced (or unchanged, 304), 1 the remote could not be fetched or was refused (the cache is kept).",
        options: [
            CatalogOptions.catalogURL.spec, CatalogOptions.allowInsecure.spec, CatalogOptions.timeout.spec,
            CatalogOptions.catalogKey.spec, CatalogOptions.minimumVersion.spec, syncJSON.spec,
        ],
        handler: sync)

    static let cacheSpec = CommandSpec(
        "cache", abstract: "Show or clear the catalog cache ($XDG_CACHE_HOME/nfcbench).",
        options: [clear.spec, cacheJSON.spec],
        handler: cache)

    static let syncJSON = Flag("--json", help: "Print the report as one JSON object.")
    static let clear = Flag("--clear", help: "Delete every cached catalog.")
    static let cacheJSON = Flag("--json", help: "Print the cache contents as JSON.")

    static func sync(_ invocation: ParsedInvocation, _ context: CommandContext) async throws -> Int32 {
        guard
            let url = invocation[CatalogOptions.catalogURL]
                ?? CatalogOptions.nonEmpty(context.environment["NFCBENCH_CATALOG_URL"])
        else {
            throw UsageError(
                "Missing expected argument '--catalog-url <url>' (or set NFCBENCH_CATALOG_URL).", path: invocation.path)
        }
        let endpoint: CatalogEndpoint
        do { endpoint = try CatalogEndpoint(url, allowInsecureHTTP: invocation[CatalogOptions.allowInsecure]) } catch {
            throw CommandFailure("Cannot sync from '\(url)': \(error).", hint: "Use an https:// URL.")
        }
        let cache = await CatalogOptions.openCache(context)
        let previous = try? await cache?.cached(url: endpoint.catalogURL.absoluteString)
        let before = previous.flatMap { try? CatalogDocumentDecoder.decode($0.body, origin: "cache") }
        let load = try await CatalogOptions.loadRemote(url, invocation, context)
        guard load.served == .network || load.served == .notModified, let document = load.document else {
            let kept =
                previous.map {
                    " The cache keeps the copy fetched \(CatalogOptions.age(Date().timeIntervalSince($0.fetchedAt))) ago."
                } ?? ""
            if case .refused? = load.error {
                throw CommandFailure(
                    "The catalog at \(load.url) was refused: \(load.error.map(String.init(describing:)) ?? "").\(kept)",
                    hint: "Nothing from it was used. Check that --catalog-key names the publishing lab's KEY.pub; "
                        + "if it does, tell the lab: the document or its signature is not what the lab signed.")
            }
            throw CommandFailure(
                "Sync from \(load.url) failed: \(load.error.map(String.init(describing:)) ?? "unknown error").\(kept)",
                hint: "Check the URL and the network; 'nfcbench resolve' keeps working from the cache or the seed catalog.")
        }
        printSynced(load, document: document, before: before, json: invocation[syncJSON], context)
        return ExitCode.success
    }

    /// What the sync took, against the copy it replaces: JSON, or lines with each key changed.
    static func printSynced(
        _ load: RemoteCatalogLoad, document: CatalogResponseDTO, before: CatalogResponseDTO?, json: Bool,
        _ context: CommandContext
    ) {
        let old = Catalog(document: before ?? CatalogResponseDTO(version: "none", entries: []))
        let new = Catalog(document: document)
        let diff = CatalogComparison(old, new)
        let added = diff.onlyInSecond, removed = diff.onlyInFirst
        if json {
            context.output.line(
                JSONValue.object([
                    ("url", .string(load.url)),
                    ("status", .string(load.served == .network ? "updated" : "notModified")),
                    ("etag", .optional(load.etag)),
                    ("version", .string(document.version)),
                    ("catalogVersion", document.catalogVersion.map { .int($0) } ?? .null),
                    ("signatureVerified", .bool(load.signatureVerified)),
                    ("entries", .int(new.profiles.count)),
                    ("skippedRows", .int(new.skippedRows.count)),
                    ("added", .array(added.map(JSONValue.string))),
                    ("changed", .array(diff.changed.map(JSONValue.string))),
                    ("removed", .array(removed.map(JSONValue.string))),
                ]).serialized(pretty: true))
        } else {
            let status = load.served == .network ? "updated" : "not modified (304)"
            context.output.line("\(load.url): \(status), version \(document.version), ETag \(load.etag ?? "none")")
            if load.signatureVerified {
                context.output.line(
                    "Signature verified; catalog version \(document.catalogVersion.map(String.init) ?? "none")"
                        + (document.publication.map { ", approved by \(TerminalSafeText.field($0.reviewer)) on \($0.approvedAt)" }
                            ?? ""))
            }
            context.output.line(
                "\(new.profiles.count) entries: \(added.count) added, \(diff.changed.count) changed, \(removed.count) removed")
            for key in added { context.output.line("  + \(key)") }
            for key in diff.changed { context.output.line("  ~ \(key)") }
            for key in removed { context.output.line("  - \(key)") }
        }
    }

    static func cache(_ invocation: ParsedInvocation, _ context: CommandContext) async throws -> Int32 {
        guard let cache = await CatalogOptions.openCache(context) else {
            throw CommandFailure("The catalog cache cannot be opened.", hint: "Check $XDG_CACHE_HOME/nfcbench is writable.")
        }
        if invocation[clear] {
            try await cache.clear()
            context.output.line("Cleared the catalog cache at \(cache.path).")
            return ExitCode.success
        }
        let entries = try await cache.all()
        if invocation[cacheJSON] {
            context.output.line(
                JSONValue.object([
                    ("path", .string(cache.path)), ("schemaVersion", .int(CatalogCacheAccess.schemaVersion)),
                    (
                        "catalogs",
                        .array(
                            entries.map { e in
                                .object([
                                    ("url", .string(e.url)), ("etag", .optional(e.etag)),
                                    ("fetchedAt", .string(e.fetchedAt.formatted(.iso8601))), ("bytes", .int(e.body.count)),
                                ])
                            })
                    ),
                ]).serialized(pretty: true))
        } else {
            context.output.line("\(cache.path): \(entries.count) cached catalog(s)")
            for e in entries {
                context.output.line(
                    "  \(e.url)  ETag \(e.etag ?? "none")  fetched \(CatalogOptions.age(Date().timeIntervalSince(e.fetchedAt))) ago"
                )
            }
        }
        return ExitCode.success
    }
}
