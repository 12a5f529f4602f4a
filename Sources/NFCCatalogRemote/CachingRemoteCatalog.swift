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
        /// The server failed, or its document was refused; the last good copy was used.
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
    /// Whether the document in use passed the trusted key's check (`--catalog-key`).
    public var signatureVerified = false

    /// A load that never reached the network (bad or refused URL).
    public static func refused(_ url: String, _ error: RemoteCatalogError) -> RemoteCatalogLoad {
        RemoteCatalogLoad(url: url, served: .none, document: nil, etag: nil, fetchedAt: nil, error: error)
    }

    public func cacheAge(now: Date = Date()) -> TimeInterval? {
        served == .cache ? fetchedAt.map { now.timeIntervalSince($0) } : nil
    }
}

/// The remote layer with its cache: fresh remote, else the cached copy, else nothing.
///
/// With a `verifier` (`--catalog-key`), a document counts only if its signature
/// (`catalog.minisig` beside it) verifies and its `catalogVersion` is not older than the
/// cached one's (`SignedCatalog`); the cached copy is checked again at every use, so a copy
/// cached before a key was given is not trusted because of it. A refused document never
/// replaces the cache. A `minimumVersion` (`--catalog-min-version`) pins what the cache
/// alone would guard: a bench with no cache yet, or a cleared one, still refuses every
/// version older than the pin, and a cached copy older than it is not served.
public struct CachingRemoteCatalog: Sendable {
    public let endpoint: CatalogEndpoint
    public let fetcher: any CatalogFetching
    public let cache: CatalogCache?
    public let verifier: (any CatalogSignatureVerifying)?
    /// The oldest `catalogVersion` taken; only with a verifier (an unsigned version number
    /// proves nothing).
    public let minimumVersion: Int?

    public init(
        endpoint: CatalogEndpoint, fetcher: any CatalogFetching, cache: CatalogCache?,
        verifier: (any CatalogSignatureVerifying)? = nil, minimumVersion: Int? = nil
    ) {
        precondition(minimumVersion == nil || verifier != nil, "a minimum catalog version needs a key to trust it by")
        self.endpoint = endpoint
        self.fetcher = fetcher
        self.cache = cache
        self.verifier = verifier
        self.minimumVersion = minimumVersion
    }

    public func load(now: Date = Date()) async -> RemoteCatalogLoad {
        let url = endpoint.catalogURL.absoluteString
        let cached = try? await cache?.load(url: url)
        let cachedDocument = cached.flatMap { usable($0, origin: "cache of \(url)") }
        func fromCache(_ error: RemoteCatalogError) -> RemoteCatalogLoad {
            guard let cached, let cachedDocument else {
                return RemoteCatalogLoad(url: url, served: .none, document: nil, etag: nil, fetchedAt: nil, error: error)
            }
            var load = RemoteCatalogLoad(
                url: url, served: .cache, document: cachedDocument, etag: cached.etag,
                fetchedAt: cached.fetchedAt, error: error)
            load.signatureVerified = verifier != nil
            return load
        }
        do {
            switch try await fetcher.fetch(endpoint.catalogURL, etag: cachedDocument == nil ? nil : cached?.etag) {
            case .notModified:
                guard let cached, let cachedDocument else { return fromCache(.transport("304 without a cached copy")) }
                try? await cache?.confirm(url: url, fetchedAt: now)
                var load = RemoteCatalogLoad(
                    url: url, served: .notModified, document: cachedDocument, etag: cached.etag,
                    fetchedAt: now, error: nil)
                load.signatureVerified = verifier != nil
                return load
            case .fetched(var body, var etag):
                let document: CatalogResponseDTO
                var signature: Data?
                if let verifier {
                    let held = [cachedDocument?.catalogVersion, minimumVersion].compactMap { $0 }.max()
                    func open(_ body: Data, _ signature: Data?) -> Result<CatalogResponseDTO, SignedCatalogRefusal> {
                        do throws(SignedCatalogRefusal) {
                            return .success(
                                try SignedCatalog.open(
                                    body, signature: signature, verifier: verifier, origin: url, heldVersion: held))
                        } catch {
                            return .failure(error)
                        }
                    }
                    signature = try await fetchSignature()
                    var opened = open(body, signature)
                    // The document and its signature are two requests: a publish between them pairs
                    // one version's document with the next one's signature. Both are fetched once
                    // more; a pair that still disagrees is refused.
                    if case .failure(.signature(.invalid)) = opened,
                        case .fetched(let again, let newTag) = try await fetcher.fetch(endpoint.catalogURL, etag: nil)
                    {
                        (body, etag) = (again, newTag)
                        signature = try await fetchSignature()
                        opened = open(body, signature)
                    }
                    switch opened {
                    case .success(let opened): document = opened
                    case .failure(let refusal): return fromCache(.refused(refusal.description))
                    }
                } else {
                    do { document = try CatalogDocumentDecoder.decode(body, origin: url) } catch {
                        return fromCache(.notACatalog(error.detail))
                    }
                }
                try? await cache?.store(CachedCatalog(url: url, etag: etag, fetchedAt: now, body: body, signature: signature))
                var load = RemoteCatalogLoad(
                    url: url, served: .network, document: document, etag: etag, fetchedAt: now, error: nil)
                load.signatureVerified = verifier != nil
                return load
            }
        } catch {
            return fromCache(error)
        }
    }

    /// The signature beside the catalog; `nil` when the server has none (404 or 410), so
    /// the document is refused as unsigned rather than as unreachable.
    private func fetchSignature() async throws(RemoteCatalogError) -> Data? {
        do {
            switch try await fetcher.fetch(endpoint.signatureURL, etag: nil) {
            case .fetched(let body, _): return body
            case .notModified: return nil
            }
        } catch .httpStatus(let code) where code == 404 || code == 410 {
            return nil
        }
    }

    /// A cached copy that may be used: with a verifier, only one whose stored signature
    /// still verifies under the trusted key, and not older than the pinned minimum.
    private func usable(_ cached: CachedCatalog, origin: String) -> CatalogResponseDTO? {
        guard let verifier else { return try? CatalogDocumentDecoder.decode(cached.body, origin: origin) }
        return try? SignedCatalog.open(
            cached.body, signature: cached.signature, verifier: verifier, origin: origin, heldVersion: minimumVersion)
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
