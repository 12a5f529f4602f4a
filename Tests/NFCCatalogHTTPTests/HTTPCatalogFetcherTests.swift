import Foundation
import NFCCatalogHTTP
import NFCCatalogRemote
import NFCTestSupport
import Testing

/// The URLSession fetcher the helper runs, against the fault-injecting catalog backend
/// (Tests/Fixtures/catalog_server.py) on loopback: one conditional GET with its limits.
@Suite("HTTPCatalogFetcher")
struct HTTPCatalogFetcherTests {
    static func server() async throws -> FixtureServer {
        try await FixtureServer(
            script: "catalog_server.py", arguments: [Checkout.root.appendingPathComponent("Resources/seed_catalog.json").path])
    }

    static func outcome(_ fetcher: HTTPCatalogFetcher, _ url: URL, etag: String? = nil) async -> Result<
        FetchOutcome, RemoteCatalogError
    > {
        do { return .success(try await fetcher.fetch(url, etag: etag)) } catch { return .failure(error) }
    }

    @Test func aCatalogArrivesWithItsETagAndAMatchIsNotModified() async throws {
        let server = try await Self.server()
        let fetcher = HTTPCatalogFetcher()
        guard case .success(.fetched(let body, let etag)) = await Self.outcome(fetcher, server.url("ok/v1/catalog")) else {
            Issue.record("no catalog")
            return
        }
        let document = try JSONSerialization.jsonObject(with: body) as? [String: Any]
        #expect(document?["version"] as? String == "remote-1" && (document?["entries"] as? [Any])?.isEmpty == false)
        let tag = try #require(etag)
        #expect(await Self.outcome(fetcher, server.url("ok/v1/catalog"), etag: tag) == .success(.notModified))
        // A tag from another revision fetches the body again.
        guard case .success(.fetched) = await Self.outcome(fetcher, server.url("v2/v1/catalog"), etag: tag) else {
            Issue.record("v2 not fetched")
            return
        }
        let stats = try JSONSerialization.jsonObject(with: Data(contentsOf: server.url("stats"))) as? [String: [String: Int]]
        #expect(stats?["conditional"]?["ok"] == 1 && stats?["requests"]?["ok"] == 2)
    }

    @Test func aServerErrorIsItsStatus() async throws {
        let server = try await Self.server()
        #expect(await Self.outcome(HTTPCatalogFetcher(), server.url("500/v1/catalog")) == .failure(.httpStatus(500)))
        #expect(await Self.outcome(HTTPCatalogFetcher(), server.url("nosuch/v1/catalog")) == .failure(.httpStatus(404)))
    }

    /// Refused from Content-Length before the body is read, or while streaming without one.
    @Test(arguments: ["oversize", "chunked"])
    func aBodyOverTheCapIsRefused(mode: String) async throws {
        let server = try await Self.server()
        let fetcher = HTTPCatalogFetcher(limits: FetchLimits(connectTimeout: 5, totalTimeout: 20, maxBytes: 1_048_576))
        #expect(await Self.outcome(fetcher, server.url("\(mode)/v1/catalog")) == .failure(.tooLarge(limit: 1_048_576)))
    }

    /// A server that answers late, or trickles its body, is given up on at the total
    /// deadline, not held for its 30 or 60 s.
    @Test(arguments: ["slow", "trickle"])
    func aLateServerTimesOutAtTheDeadline(mode: String) async throws {
        let server = try await Self.server()
        let fetcher = HTTPCatalogFetcher(limits: FetchLimits(connectTimeout: 1, totalTimeout: 1.5, maxBytes: 1_048_576))
        let clock = ContinuousClock()
        let started = clock.now
        let result = await Self.outcome(fetcher, server.url("\(mode)/v1/catalog"))
        guard case .failure(.timedOut) = result else {
            Issue.record("\(mode): \(result)")
            return
        }
        #expect(clock.now - started < .seconds(10), "\(mode) held the fetch \(clock.now - started)")
    }

    @Test func nothingListeningIsATransportError() async throws {
        // A port the server held and gave back: nothing listens there now.
        let port = try await Self.server().port
        let result = await Self.outcome(HTTPCatalogFetcher(), URL(string: "http://127.0.0.1:\(port)/ok/v1/catalog")!)
        guard case .failure(.transport) = result else {
            Issue.record("\(result)")
            return
        }
    }

    /// The body is handed on as it came: judging it is the caller's (HelperProcessFetcher, the chain).
    @Test func aBodyThatIsNoCatalogIsStillFetched() async throws {
        let server = try await Self.server()
        guard case .success(.fetched(let body, _)) = await Self.outcome(HTTPCatalogFetcher(), server.url("notjson/v1/catalog"))
        else {
            Issue.record("not fetched")
            return
        }
        #expect(String(decoding: body, as: UTF8.self) == "<html>maintenance</html>")
    }
}
