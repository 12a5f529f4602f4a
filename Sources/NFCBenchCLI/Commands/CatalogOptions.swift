import Foundation
import NFCLocatorCore

/// Options every catalog-reading command shares, and how they become a resolver.
enum CatalogOptions {
    static let catalogFile = OptionSpec(
        "--catalog", value: "file",
        help: "A catalog or patch file used as the remote layer, laid over the seed catalog.")

    static let all = [catalogFile]

    /// Loads the chain. Problems with a layer are reported, not fatal: the chain falls through.
    static func loadResolver(_ invocation: ParsedInvocation, _ context: CommandContext,
                             analytics: any NFCLocatorAnalytics = NoOpAnalytics()) async throws
        -> (resolver: AntennaZoneResolver, layers: [CatalogLayerStatus]) {
        let resources = try context.resources()
        var remote: (any CatalogRemoteAPI)?
        var origin: String?
        if let path = invocation.value("--catalog") {
            let url = context.url(forPath: path)
            remote = FileCatalogRemote(url: url)
            origin = url.path
        }
        return await ResolverChainLoader.load(remote: remote, remoteOrigin: origin,
                                              seedURL: resources.seedCatalogURL, analytics: analytics)
    }

    /// One line per layer that did not simply load, for stderr.
    static func warnings(for layers: [CatalogLayerStatus]) -> [String] {
        layers.compactMap { layer in
            switch layer.state {
            case .notConfigured: return nil
            case .failed(let reason):
                return "Warning: \(layer.source.rawValue) unusable, falling through: \(reason)"
            case .loaded(_, let skipped) where !skipped.isEmpty:
                return "Warning: \(layer.source.rawValue) skipped \(skipped.count) bad row(s); "
                    + "run 'nfcbench catalog validate \(layer.origin ?? "FILE")' for details."
            case .loaded: return nil
            }
        }
    }

    static func json(_ layers: [CatalogLayerStatus]) -> JSONValue {
        .array(layers.map { layer in
            var members: [(String, JSONValue)] = [("source", .string(layer.source.rawValue)),
                                                  ("origin", .optional(layer.origin))]
            switch layer.state {
            case .notConfigured: members.append(("state", .string("notConfigured")))
            case .failed(let reason): members += [("state", .string("failed")), ("reason", .string(reason))]
            case .loaded(let entries, let skipped):
                members += [("state", .string("loaded")), ("entries", .int(entries)), ("skippedRows", .int(skipped.count))]
            }
            return .object(members)
        })
    }
}

extension NormalizedRect {
    var json: JSONValue {
        .object([("x", .number(x)), ("y", .number(y)), ("width", .number(width)), ("height", .number(height))])
    }
}
