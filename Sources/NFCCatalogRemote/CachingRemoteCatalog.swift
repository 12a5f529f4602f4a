import Foundation
import NFCLocatorCore
import NFCStore

/// What the remote layer produced, and from where.
public struct RemoteCatalogLoad: Sendable {
    public enum Served: String, Sendable {
        /// A fresh 200 from the server.
        case network
        /// The server said 304: the cached copy is current.
        case notModified
        /// The server failed; the last good copy was used.
        case cache
        /// Neither: the chain falls through to the seed catalog.
        case none
    }

    public let url: String
    public let served: Served
    public let document: CatalogResponseDTO?
    public let etag: String?
    public let fetchedAt: Date?
    /// Why the network did not serve, when it did not.
    public let error: RemoteCatalogError?

    /// A load that never reached the network (bad or refused URL).
    public static func refused(_ url: String, _ error: RemoteCatalogError) -> RemoteCatalogLoad {
        RemoteCatalogLoad(url: url, served: .none, document: nil, etag: nil, fetchedAt: nil, error: error)
    }

    public func cacheAge(now: Date = Date()) -> TimeInterval? {
        served == .cache ? fetchedAt.map { now.timeIntervalSince($0) } : nil
    }
}

/// The remote layer with its cache: fresh remote, else the cached copy, else nothing.
public struct CachingRemoteCatalog: Sendable {
    public let endpoint: CatalogEndpoint
    public let fetcher: any CatalogFetching
    public let cache: CatalogCache?

    public init(endpoint: CatalogEndpoint, fetcher: any CatalogFetching, cache: CatalogCache?) {
        self.endpoint = endpoint
        self.fetcher = fetcher
        self.cache = cache
    }

    public func load(now: Date = Date()) async -> RemoteCatalogLoad {
        let url = endpoint.catalogURL.absoluteString
        let cached = try? await cache?.load(url: url)
        let cachedDocument = cached.flatMap { try? CatalogDocumentDecoder.decode($0.body, origin: "cache of \(url)") }
        func fromCache(_ error: RemoteCatalogError) -> RemoteCatalogLoad {
            guard let cached, let cachedDocument else {
                return RemoteCatalogLoad(url: url, served: .none, document: nil, etag: nil, fetchedAt: nil, error: error)
            }
            return RemoteCatalogLoad(
                url: url, served: .cache, document: cachedDocument, etag: cached.etag,
                fetchedAt: cached.fetchedAt, error: error)
        }
        do {
            switch try await fetcher.fetch(endpoint, etag: cachedDocument == nil ? nil : cached?.etag) {
            case .notModified:
                guard let cached, let cachedDocument else { return fromCache(.transport("304 without a cached copy")) }
                try? await cache?.confirm(url: url, fetchedAt: now)
                return RemoteCatalogLoad(
                    url: url, served: .notModified, document: cachedDocument, etag: cached.etag,
                    fetchedAt: now, error: nil)
            case .fetched(let body, let etag):
                let document: CatalogResponseDTO
                do { document = try CatalogDocumentDecoder.decode(body, origin: url) } catch {
                    return fromCache(.notACatalog(error.detail))
                }
                try? await cache?.store(CachedCatalog(url: url, etag: etag, fetchedAt: now, body: body))
                return RemoteCatalogLoad(url: url, served: .network, document: document, etag: etag, fetchedAt: now, error: nil)
            }
        } catch {
            return fromCache(error)
        }
    }
}

/// A finished load as the resolver chain's remote layer.
public struct LoadedRemoteCatalog: CatalogRemoteAPI {
    public let load: RemoteCatalogLoad
    public init(_ load: RemoteCatalogLoad) { self.load = load }

    public func fetchCatalog() async throws -> CatalogResponseDTO {
        guard let document = load.document else { throw load.error ?? RemoteCatalogError.noCatalogCached }
        return document
    }
}
