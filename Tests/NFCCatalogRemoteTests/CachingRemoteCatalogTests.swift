import Foundation
import NFCLocatorCore
import NFCStore
import NFCTestSupport
import Synchronization
import Testing

@testable import NFCCatalogRemote

/// Answers each fetch with the next scripted outcome and records the ETag it was sent:
/// the policy under test is the caching layer's, not HTTP's (the end-to-end tests
/// drive the real helper against a real local server).
final class ScriptedFetcher: CatalogFetching {
    let limits = FetchLimits()
    private let script: Mutex<[Result<FetchOutcome, RemoteCatalogError>]>
    private let sent = Mutex<[String?]>([])

    init(_ script: [Result<FetchOutcome, RemoteCatalogError>]) { self.script = Mutex(script) }

    var etagsSent: [String?] { sent.withLock { $0 } }

    func fetch(_ url: URL, etag: String?) async throws(RemoteCatalogError) -> FetchOutcome {
        sent.withLock { $0.append(etag) }
        let next = script.withLock { $0.isEmpty ? .failure(.transport("script ran out")) : $0.removeFirst() }
        return try next.get()
    }
}

@Suite("Remote catalog layer and its cache")
struct CachingRemoteCatalogTests {
    let scratch: TemporaryDirectory
    let endpoint: CatalogEndpoint
    let seedBody: Data

    init() throws {
        scratch = try TemporaryDirectory("cache")
        endpoint = try CatalogEndpoint("https://catalog.example.invalid")
        seedBody = try Data(contentsOf: Checkout.seedCatalog)
    }

    func cache() async throws -> CatalogCache { try await CatalogCache.open(path: scratch.file("cache.sqlite")) }

    @Test func freshThenNotModifiedThenCacheWhenTheServerFails() async throws {
        let cache = try await cache()
        let t0 = Date(timeIntervalSince1970: 1_790_000_000)
        let fetcher = ScriptedFetcher([
            .success(.fetched(body: seedBody, etag: "\"v1\"")), .success(.notModified), .failure(.httpStatus(503)),
        ])
        let remote = CachingRemoteCatalog(endpoint: endpoint, fetcher: fetcher, cache: cache)
        let first = await remote.load(now: t0)
        #expect(first.served == .network && first.etag == "\"v1\"" && first.document != nil)
        let second = await remote.load(now: t0 + 60)
        #expect(second.served == .notModified && second.fetchedAt == t0 + 60)
        let third = await remote.load(now: t0 + 120)
        #expect(third.served == .cache && third.error == .httpStatus(503) && third.cacheAge(now: t0 + 120) == 60)
        #expect(fetcher.etagsSent == [nil, "\"v1\"", "\"v1\""])
    }

    @Test func aBodyThatIsNotACatalogFallsBackAndIsNotCached() async throws {
        let cache = try await cache()
        let fetcher = ScriptedFetcher([.success(.fetched(body: Data("{\"nope\":1}".utf8), etag: "\"bad\""))])
        let load = await CachingRemoteCatalog(endpoint: endpoint, fetcher: fetcher, cache: cache).load()
        #expect(load.served == .none && load.document == nil)
        if case .notACatalog = load.error {} else { Issue.record("expected notACatalog, got \(String(describing: load.error))") }
        #expect(try await cache.all().isEmpty)
    }

    @Test func noCacheAtAllStillServesTheNetwork() async throws {
        let fetcher = ScriptedFetcher([.success(.fetched(body: seedBody, etag: nil)), .failure(.timedOut(seconds: 1))])
        let remote = CachingRemoteCatalog(endpoint: endpoint, fetcher: fetcher, cache: nil)
        #expect(await remote.load().served == .network)
        let failed = await remote.load()
        #expect(failed.served == .none && failed.error == .timedOut(seconds: 1))
    }

    @Test func theCacheSurvivesReopeningAndClears() async throws {
        let body = Data("{}".utf8)
        do {
            let cache = try await cache()
            try await cache.store(
                CachedCatalog(
                    url: "https://a.invalid/v1/catalog", etag: "\"e\"",
                    fetchedAt: Date(timeIntervalSince1970: 100), body: body))
        }
        let reopened = try await cache()
        let loaded = try #require(try await reopened.load(url: "https://a.invalid/v1/catalog"))
        #expect(loaded.etag == "\"e\"" && loaded.body == body && loaded.fetchedAt == Date(timeIntervalSince1970: 100))
        try await reopened.clear()
        #expect(try await reopened.all().isEmpty)
    }

    @Test(arguments: [
        ("https://catalog.example.invalid", true),
        ("http://127.0.0.1:8080", true),
        ("http://[::1]:8080", true),
        ("http://catalog.example.invalid", false),
        ("ftp://catalog.example.invalid", false),
        ("not a url", false),
    ])
    func onlyHTTPSOrLoopbackIsAccepted(text: String, accepted: Bool) {
        #expect(((try? CatalogEndpoint(text)) != nil) == accepted)
    }

    @Test func theHelpersAnswerIsDecodedWithoutGuessing() throws {
        let limits = FetchLimits(totalTimeout: 2)
        let fetched = try HelperProcessFetcher.decode(
            Data("{\"status\":\"fetched\",\"etag\":\"\\\"x\\\"\"}\nBODY".utf8), limits: limits)
        #expect(fetched == .fetched(body: Data("BODY".utf8), etag: "\"x\""))
        #expect(try HelperProcessFetcher.decode(Data("{\"status\":\"notModified\"}\n".utf8), limits: limits) == .notModified)
        #expect(throws: RemoteCatalogError.httpStatus(500)) {
            try HelperProcessFetcher.decode(
                Data("{\"status\":\"failed\",\"kind\":\"httpStatus\",\"detail\":\"500\"}\n".utf8), limits: limits)
        }
        // Nothing readable: the helper was killed by the watchdog or died.
        #expect(throws: RemoteCatalogError.timedOut(seconds: 2)) { try HelperProcessFetcher.decode(Data(), limits: limits) }
    }

    /// A signed document, version `n`, and its signature, as `catalog publish` writes them.
    func signed(_ n: Int, with key: MinisignSecretKey) throws -> (body: Data, signature: Data) {
        var object = try #require(try JSONSerialization.jsonObject(with: seedBody) as? [String: Any])
        object["catalogVersion"] = n
        let body = try JSONSerialization.data(withJSONObject: object)
        return (body, Data(try MinisignSignature.sign(body, with: key, trustedComment: "v\(n)").fileText.utf8))
    }

    @Test func withAKeyAnOlderVersionIsRefusedAndTheNewerCopyKept() async throws {
        let cache = try await cache()
        let key = try MinisignSecretKey.generate()
        let (two, twoSigned) = try signed(2, with: key), (one, oneSigned) = try signed(1, with: key)
        let fetcher = ScriptedFetcher([
            .success(.fetched(body: two, etag: "\"2\"")), .success(.fetched(body: twoSigned, etag: nil)),
            .success(.fetched(body: one, etag: "\"1\"")), .success(.fetched(body: oneSigned, etag: nil)),
        ])
        let remote = CachingRemoteCatalog(
            endpoint: endpoint, fetcher: fetcher, cache: cache, verifier: MinisignVerifier(key: key.publicKey))
        let first = await remote.load()
        #expect(first.served == .network && first.signatureVerified && first.document?.catalogVersion == 2)
        let replay = await remote.load()
        #expect(replay.served == .cache && replay.document?.catalogVersion == 2, "\(String(describing: replay.error))")
        guard case .refused(let why)? = replay.error else {
            Issue.record("expected a refusal, got \(String(describing: replay.error))")
            return
        }
        #expect(why.contains("older than version 2"))
        #expect(try await cache.load(url: endpoint.catalogURL.absoluteString)?.body == two)
    }

    /// A pinned minimum guards what the cache alone cannot: a bench with no cache refuses
    /// an older signed version, and a cached copy older than the pin is not served.
    @Test func aPinnedMinimumRefusesOlderVersionsWithoutACache() async throws {
        let key = try MinisignSecretKey.generate()
        let verifier = MinisignVerifier(key: key.publicKey)
        let (three, threeSigned) = try signed(3, with: key), (five, fiveSigned) = try signed(5, with: key)
        let fresh = await CachingRemoteCatalog(
            endpoint: endpoint,
            fetcher: ScriptedFetcher([
                .success(.fetched(body: three, etag: nil)), .success(.fetched(body: threeSigned, etag: nil)),
            ]),
            cache: nil, verifier: verifier, minimumVersion: 4
        ).load()
        #expect(fresh.served == .none && fresh.document == nil)
        #expect(
            fresh.error == .refused(CatalogSignatureError.rolledBack(offered: 3, held: 4).description),
            "\(String(describing: fresh.error))")
        // A copy of version 3 cached before the pin was raised is not served under it.
        let cache = try await cache()
        _ = await CachingRemoteCatalog(
            endpoint: endpoint,
            fetcher: ScriptedFetcher([
                .success(.fetched(body: three, etag: nil)), .success(.fetched(body: threeSigned, etag: nil)),
            ]),
            cache: cache, verifier: verifier
        ).load()
        let pinned = CachingRemoteCatalog(
            endpoint: endpoint, fetcher: ScriptedFetcher([.failure(.httpStatus(503))]), cache: cache, verifier: verifier,
            minimumVersion: 4)
        let offline = await pinned.load()
        #expect(offline.served == .none && offline.document == nil, "\(offline.served)")
        // Version 5 clears the pin and is taken.
        let newer = await CachingRemoteCatalog(
            endpoint: endpoint,
            fetcher: ScriptedFetcher([.success(.fetched(body: five, etag: nil)), .success(.fetched(body: fiveSigned, etag: nil))]
            ),
            cache: cache, verifier: verifier, minimumVersion: 4
        ).load()
        #expect(newer.served == .network && newer.document?.catalogVersion == 5 && newer.signatureVerified)
    }

    @Test func aCopyCachedWithoutASignatureIsNotTrustedOnceAKeyIsGiven() async throws {
        let cache = try await cache()
        _ = await CachingRemoteCatalog(
            endpoint: endpoint, fetcher: ScriptedFetcher([.success(.fetched(body: seedBody, etag: "\"s\""))]), cache: cache
        ).load()
        let key = try MinisignSecretKey.generate()
        let trusting = CachingRemoteCatalog(
            endpoint: endpoint, fetcher: ScriptedFetcher([.failure(.httpStatus(503))]), cache: cache,
            verifier: MinisignVerifier(key: key.publicKey))
        let load = await trusting.load()
        #expect(load.served == .none && load.document == nil && load.error == .httpStatus(503))
    }

    @Test func aSignatureTheServerDoesNotHaveRefusesTheDocument() async throws {
        let key = try MinisignSecretKey.generate()
        let (body, _) = try signed(1, with: key)
        let fetcher = ScriptedFetcher([.success(.fetched(body: body, etag: nil)), .failure(.httpStatus(404))])
        let load = await CachingRemoteCatalog(
            endpoint: endpoint, fetcher: fetcher, cache: nil, verifier: MinisignVerifier(key: key.publicKey)
        ).load()
        #expect(load.served == .none && load.error == .refused(CatalogSignatureError.missing.description))
    }

    /// Issue 53: a publish between the document's fetch and the signature's pairs version
    /// 1's document with version 2's signature. Both are fetched once more and the
    /// consistent pair taken; a pair that disagrees twice (a tampered document) is refused.
    @Test func aPublishBetweenTheTwoFetchesIsFetchedAgain() async throws {
        let key = try MinisignSecretKey.generate()
        let (one, _) = try signed(1, with: key), (two, twoSigned) = try signed(2, with: key)
        let straddled = ScriptedFetcher([
            .success(.fetched(body: one, etag: "\"1\"")), .success(.fetched(body: twoSigned, etag: nil)),
            .success(.fetched(body: two, etag: "\"2\"")), .success(.fetched(body: twoSigned, etag: nil)),
        ])
        let cache = try await cache()
        let load = await CachingRemoteCatalog(
            endpoint: endpoint, fetcher: straddled, cache: cache, verifier: MinisignVerifier(key: key.publicKey)
        ).load()
        #expect(load.served == .network && load.document?.catalogVersion == 2 && load.etag == "\"2\"", "\(load)")
        #expect(try await cache.all().first?.etag == "\"2\"", "the pair that verified is the one cached")

        var tampered = two
        tampered[tampered.count - 2] ^= 0x20
        let twice = ScriptedFetcher([
            .success(.fetched(body: tampered, etag: nil)), .success(.fetched(body: twoSigned, etag: nil)),
            .success(.fetched(body: tampered, etag: nil)), .success(.fetched(body: twoSigned, etag: nil)),
        ])
        let refused = await CachingRemoteCatalog(
            endpoint: endpoint, fetcher: twice, cache: nil, verifier: MinisignVerifier(key: key.publicKey)
        ).load()
        #expect(refused.served == .none && refused.error == .refused(CatalogSignatureError.invalid.description))
    }
}
