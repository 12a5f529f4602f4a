import Foundation
import NFCCatalogRemote
import NFCLocatorCore
import NFCStore

/// Where the remote layer of the catalog chain comes from, as the operator gave it.
public struct CatalogSource: Sendable {
    public enum Remote: Sendable {
        case none
        /// A catalog or patch file laid over the seed catalog.
        case file(URL)
        /// A catalog service, fetched through the `nfcbench-fetch` helper and cached; with a
        /// key, only documents signed by it (`--catalog-key`), and with a minimum, none of
        /// an older `catalogVersion` (`--catalog-min-version`).
        case url(
            String, allowInsecureHTTP: Bool, timeoutSeconds: Double, key: MinisignPublicKey? = nil,
            minimumVersion: Int? = nil)
    }

    public var remote: Remote
    public var seedURL: URL
    public var environment: [String: String]

    public init(remote: Remote, seedURL: URL, environment: [String: String]) {
        self.remote = remote
        self.seedURL = seedURL
        self.environment = environment
    }
}

/// The catalog chain remote -> seed -> heuristic, loaded; problems with a layer are
/// reported in `layers` and `warnings`, never fatal: the chain falls through.
public struct LoadedCatalogs: Sendable {
    public let resolver: AntennaZoneResolver
    public let layers: [CatalogLayerStatus]
    /// Set when a catalog URL is configured: which copy served, and why not the network.
    public let remote: RemoteCatalogLoad?
    /// What the operator should know that no layer says (the cache could not be opened).
    public let warnings: [String]
}

/// One cached copy of a remote catalog.
public struct CachedCopy: Sendable {
    public let url: String
    public let etag: String?
    public let fetchedAt: Date
    public let body: Data
}

/// The remote catalogs' cache, as commands see it.
public struct CatalogCacheAccess: Sendable {
    let cache: CatalogCache
    public var path: String { cache.path }
    public static var schemaVersion: Int { CatalogCache.schemaVersion }

    public func cached(url: String) async throws -> CachedCopy? { try await cache.load(url: url).map(Self.copy) }
    public func all() async throws -> [CachedCopy] { try await cache.all().map(Self.copy) }
    public func clear() async throws { try await cache.clear() }

    static func copy(_ c: CachedCatalog) -> CachedCopy {
        CachedCopy(url: c.url, etag: c.etag, fetchedAt: c.fetchedAt, body: c.body)
    }
}

public enum CatalogLoading {
    public static func load(_ source: CatalogSource, analytics: any NFCLocatorAnalytics = NoOpAnalytics()) async
        -> LoadedCatalogs
    {
        var remote: (any CatalogRemoteAPI)?
        var origin: String?
        var remoteLoad: RemoteCatalogLoad?
        var warnings: [String] = []
        switch source.remote {
        case .none: break
        case .file(let url):
            remote = FileCatalogRemote(url: url)
            origin = url.path
        case .url(let text, let insecure, let seconds, let key, let minimum):
            let fetched = await loadRemote(
                text, allowInsecureHTTP: insecure, timeoutSeconds: seconds, key: key, minimumVersion: minimum,
                environment: source.environment)
            warnings += fetched.warnings
            remoteLoad = fetched.load
            remote = LoadedRemoteCatalog(fetched.load)
            origin = fetched.load.url
        }
        let (resolver, layers) = await ResolverChainLoader.load(
            remote: remote, remoteOrigin: origin, seedURL: source.seedURL, analytics: analytics)
        return LoadedCatalogs(resolver: resolver, layers: layers, remote: remoteLoad, warnings: warnings)
    }

    /// The remote catalog at `text`: the network, else the cached copy.
    public static func loadRemote(
        _ text: String, allowInsecureHTTP: Bool, timeoutSeconds: Double, key: MinisignPublicKey? = nil,
        minimumVersion: Int? = nil, environment: [String: String]
    ) async -> (load: RemoteCatalogLoad, warnings: [String]) {
        let endpoint: CatalogEndpoint
        do { endpoint = try CatalogEndpoint(text, allowInsecureHTTP: allowInsecureHTTP) } catch {
            return (.refused(text, error), [])
        }
        guard let helper = HelperProcessFetcher.locate(environment: environment, executable: ResourceLocator.executableURL())
        else {
            return (
                .refused(
                    text, .transport("the nfcbench-fetch helper is missing next to nfcbench; reinstall with scripts/install.sh")),
                []
            )
        }
        let (cache, warnings) = await openCache(environment: environment)
        let limits = FetchLimits(connectTimeout: min(2, timeoutSeconds), totalTimeout: timeoutSeconds)
        let remote = CachingRemoteCatalog(
            endpoint: endpoint, fetcher: HelperProcessFetcher(helper: helper, limits: limits), cache: cache?.cache,
            verifier: key.map(MinisignVerifier.init(key:)), minimumVersion: minimumVersion)
        return (await remote.load(), warnings)
    }

    /// The cache at its default place; without one (not writable), the warning to give.
    public static func openCache(environment: [String: String]) async -> (CatalogCacheAccess?, warnings: [String]) {
        let path = CatalogCache.defaultPath(environment: environment)
        do { return (CatalogCacheAccess(cache: try await CatalogCache.open(path: path)), []) } catch {
            return (nil, ["Warning: catalog cache unavailable at \(path): \(error); continuing without it."])
        }
    }
}
