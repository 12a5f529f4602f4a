import Foundation
import NFCBench
import NFCBenchUseCases
import NFCCatalogRemote
import NFCLocatorCore

/// Options every catalog-reading command shares, and how they become a resolver.
enum CatalogOptions {
    static let catalogFile = Option<String>(
        "--catalog", value: "file",
        help: "A catalog or patch file used as the remote layer, laid over the seed catalog.")
    static let catalogURL = Option<String>(
        "--catalog-url", value: "url", help: "Remote catalog base URL (GET <url>/v1/catalog); also NFCBENCH_CATALOG_URL.")
    static let allowInsecure = Flag(
        "--allow-insecure-http", help: "Allow plain http:// to a non-loopback host (trusted lab networks only).")
    static let timeouts: ClosedRange<Double> = 0.1...300
    static let timeout = Option<Double>(
        "--catalog-timeout", value: "seconds", help: "Total time allowed for the remote catalog (default 3; connect 2).",
        expected: "seconds in \(OptionValue.describe(timeouts))", convert: OptionValue.seconds(in: timeouts))

    static let catalogKey = Option<String>(
        "--catalog-key", value: "file",
        help: "Accept only catalogs signed by this minisign public key (KEY.pub); also NFCBENCH_CATALOG_KEY.")

    static let minimumVersion = Option<Int>(
        "--catalog-min-version", value: "n",
        help: "With --catalog-key: refuse signed catalogs older than version n, cache or none (rollback pin); "
            + "also NFCBENCH_CATALOG_MIN_VERSION.",
        expected: "a whole number in 1...2147483647", convert: OptionValue.whole(in: 1...Int(Int32.max)))

    static let all = [
        catalogFile.spec, catalogURL.spec, allowInsecure.spec, timeout.spec, catalogKey.spec, minimumVersion.spec,
    ]

    /// The pinned oldest version, from `--catalog-min-version` or
    /// `NFCBENCH_CATALOG_MIN_VERSION`; refused without a key (an unsigned number proves
    /// nothing) and when the environment's value is not a version.
    static func pinnedVersion(_ invocation: ParsedInvocation, _ context: CommandContext, key: MinisignPublicKey?) throws
        -> Int?
    {
        var pinned = invocation[minimumVersion]
        if pinned == nil, let text = nonEmpty(context.environment["NFCBENCH_CATALOG_MIN_VERSION"]) {
            guard let value = Int(text), value >= 1 else {
                throw UsageError(
                    "NFCBENCH_CATALOG_MIN_VERSION is '\(TerminalSafeText.neutralise(text))', not a catalog version "
                        + "(a whole number from 1).", path: invocation.path)
            }
            pinned = value
        }
        guard let pinned else { return nil }
        guard key != nil else {
            throw UsageError(
                "A minimum catalog version needs --catalog-key KEY.pub (or NFCBENCH_CATALOG_KEY): only a signed version "
                    + "number can be trusted.", path: invocation.path)
        }
        return pinned
    }

    /// The trusted key, from `--catalog-key` or `NFCBENCH_CATALOG_KEY`; `nil` when neither
    /// is given. A key that cannot be read stops the command: trusting nothing by mistake
    /// would be worse than not starting.
    static func trustedKey(_ invocation: ParsedInvocation, _ context: CommandContext) throws -> MinisignPublicKey? {
        guard let path = invocation[catalogKey] ?? nonEmpty(context.environment["NFCBENCH_CATALOG_KEY"]) else { return nil }
        do throws(CatalogKeyError) { return try CatalogKeyFiles.readPublic(context.url(forPath: path)) } catch {
            throw CommandFailure("Cannot use the catalog key: \(error).", hint: error.hint)
        }
    }

    typealias Loaded = LoadedCatalogs

    /// Loads the chain: remote (file, or URL with its cache) -> seed -> heuristic.
    /// Problems with a layer are reported, not fatal: the chain falls through.
    static func loadResolver(
        _ invocation: ParsedInvocation, _ context: CommandContext,
        analytics: any NFCLocatorAnalytics = NoOpAnalytics()
    ) async throws -> Loaded {
        let resources = try context.resources()
        var remote = CatalogSource.Remote.none
        if let path = invocation[catalogFile] {
            if invocation[catalogURL] != nil {
                throw UsageError("'--catalog' and '--catalog-url' are alternatives; give one.", path: invocation.path)
            }
            remote = .file(context.url(forPath: path))
        } else if let text = invocation[catalogURL] ?? nonEmpty(context.environment["NFCBENCH_CATALOG_URL"]) {
            let key = try trustedKey(invocation, context)
            remote = .url(
                text, allowInsecureHTTP: invocation[allowInsecure], timeoutSeconds: invocation[timeout] ?? 3,
                key: key, minimumVersion: try pinnedVersion(invocation, context, key: key))
        }
        return await CatalogLoading.load(
            CatalogSource(remote: remote, seedURL: resources.seedCatalogURL, environment: context.environment),
            analytics: analytics)
    }

    static func loadRemote(_ text: String, _ invocation: ParsedInvocation, _ context: CommandContext) async throws
        -> RemoteCatalogLoad
    {
        let key = try trustedKey(invocation, context)
        let fetched = await CatalogLoading.loadRemote(
            text, allowInsecureHTTP: invocation[allowInsecure], timeoutSeconds: invocation[timeout] ?? 3,
            key: key, minimumVersion: try pinnedVersion(invocation, context, key: key), environment: context.environment)
        for warning in fetched.warnings { context.errors.line(warning) }
        return fetched.load
    }

    static func openCache(_ context: CommandContext) async -> CatalogCacheAccess? {
        let (cache, warnings) = await CatalogLoading.openCache(environment: context.environment)
        for warning in warnings { context.errors.line(warning) }
        return cache
    }

    static func nonEmpty(_ s: String?) -> String? { s.flatMap { $0.isEmpty ? nil : $0 } }

    /// One line per layer that did not simply load, for stderr.
    static func warnings(for loaded: Loaded) -> [String] {
        var lines = loaded.warnings
        if let remote = loaded.remote, remote.served == .cache, let age = remote.cacheAge() {
            lines.append(
                "Warning: remote catalog not available (\(remote.error.map(String.init(describing:)) ?? "unknown")); "
                    + "using the cached copy fetched \(Self.age(age)) ago.")
        }
        for layer in loaded.layers {
            switch layer.state {
            case .notConfigured: continue
            case .failed(let reason):
                lines.append("Warning: \(layer.source.rawValue) unusable, falling through: \(reason)")
            case .loaded(_, let skipped) where !skipped.isEmpty:
                lines.append(
                    "Warning: \(layer.source.rawValue) skipped \(skipped.count) bad row(s); "
                        + "run 'nfcbench catalog validate \(layer.origin ?? "FILE")' for details.")
            case .loaded: continue
            }
        }
        return lines
    }

    static func age(_ seconds: TimeInterval) -> String {
        let s = Int(seconds)
        if s < 120 { return "\(s) s" }
        if s < 7200 { return "\(s / 60) min" }
        if s < 172_800 { return "\(s / 3600) h" }
        return "\(s / 86400) days"
    }

    static func json(_ layers: [CatalogLayerStatus]) -> JSONValue {
        .array(
            layers.map { layer in
                var members: [(String, JSONValue)] = [
                    ("source", .string(layer.source.rawValue)),
                    ("origin", .optional(layer.origin)),
                ]
                switch layer.state {
                case .notConfigured: members.append(("state", .string("notConfigured")))
                case .failed(let reason): members += [("state", .string("failed")), ("reason", .string(reason))]
                case .loaded(let entries, let skipped):
                    members += [("state", .string("loaded")), ("entries", .int(entries)), ("skippedRows", .int(skipped.count))]
                }
                return .object(members)
            })
    }

    /// `resolve --json`'s `remote` member: which copy served and how old it is.
    static func json(_ remote: RemoteCatalogLoad?) -> JSONValue {
        guard let remote else { return .null }
        return .object([
            ("url", .string(remote.url)),
            ("served", .string(remote.served.rawValue)),
            ("etag", .optional(remote.etag)),
            ("fetchedAt", .optional(remote.fetchedAt.map { $0.formatted(.iso8601) })),
            ("cacheAgeSeconds", remote.cacheAge().map { .number(($0 * 10).rounded() / 10) } ?? .null),
            ("error", .optional(remote.error.map(String.init(describing:)))),
            ("signatureVerified", .bool(remote.signatureVerified)),
        ])
    }
}

extension NormalizedRect {
    var json: JSONValue {
        .object([("x", .number(x)), ("y", .number(y)), ("width", .number(width)), ("height", .number(height))])
    }
}
