import Foundation
import NFCTestSupport
import Testing

/// A published folder served by nginx (Debian's, on loopback, started by scripts/test.sh),
/// fetched by benches that trust the lab's key: 200 then 304 with the ETag, `exact` from the
/// lab's coil, and every document that is not what the key signed refused with the cache kept.
@Suite(
    "Signed catalogs served by nginx", .enabled(if: NginxServer.started != nil, "needs nginx on loopback: run scripts/test.sh"))
struct SignedCatalogSyncCLITests {
    let scratch: TemporaryDirectory
    /// This test's own folder under nginx's root, and its URL.
    let folder: String
    let url: String
    /// Each test's own cache, so tests running side by side never share one.
    let environment: [String: String]
    /// How many times a served file was replaced, so each replacement gets a later time.
    var servedChanges = 0

    init() throws {
        scratch = try TemporaryDirectory("signed-sync")
        let name = "lab-" + UUID().uuidString
        let server = try #require(NginxServer.started)
        folder = server.root + "/" + name
        url = server.url + "/" + name
        environment = ["XDG_CACHE_HOME": scratch.file("cache"), "NFCBENCH_CATALOG_URL": "", "NFCBENCH_CATALOG_KEY": ""]
    }

    func json(_ text: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
    }

    /// A key, one bench session and version 1 published into the served folder.
    func publishFirstVersion() async throws -> (key: String, db: String) {
        let key = scratch.file("lab.key")
        #expect(try await BuiltBinary.run(["catalog", "keygen", "-o", key]).status == 0)
        let db = scratch.file("bench.sqlite")
        try await BenchEvidenceFixture.record([.init(unit: "unit-A", antennaMm: 40)], into: db)
        try await publish(key: key, db: db, expectingVersion: 1)
        return (key, db)
    }

    func publish(key: String, db: String, expectingVersion version: Int) async throws {
        let published = try await BuiltBinary.run([
            "catalog", "publish", "--db", db, "--key", key, "--reviewer", "Ana", "-o", folder, "--min-sessions", "1",
            "--min-units", "1", "--json",
        ])
        #expect(published.status == 0, "\(published.stderr)")
        #expect(try json(published.stdout)["version"] as? Int == version, "\(published.stdout)")
    }

    /// Replaces a served file. nginx's ETag is the file's modification time in seconds and its
    /// size, so a same-sized change within the second would be answered 304 from the old
    /// ETag; the time is moved on so the server tells the change, as it would an upload later.
    mutating func serve(_ data: Data, as name: String) throws {
        let path = folder + "/v1/" + name
        servedChanges += 1
        try data.write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(Double(10 * servedChanges))], ofItemAtPath: path)
    }

    func sync(_ keyFile: String) async throws -> BuiltBinary.Result {
        try await BuiltBinary.run(
            ["catalog", "sync", "--catalog-url", url, "--catalog-key", keyFile, "--json"], environment: environment)
    }

    func resolved(_ keyFile: String) async throws -> [String: Any] {
        let resolve = try await BuiltBinary.run(
            ["resolve", "--model", "SM-S921B", "--catalog-url", url, "--catalog-key", keyFile, "--json"], environment: environment
        )
        #expect(resolve.status == 0, "\(resolve.stderr)")
        return try json(resolve.stdout)
    }

    @Test func syncTwiceGives200Then304AndResolveGivesTheLabsCoil() async throws {
        let (key, _) = try await publishFirstVersion()
        let first = try await sync(key + ".pub")
        #expect(first.status == 0, "\(first.stderr)")
        let report = try json(first.stdout)
        #expect(report["status"] as? String == "updated" && report["signatureVerified"] as? Bool == true, "\(report)")
        #expect(report["catalogVersion"] as? Int == 1 && (report["etag"] as? String)?.isEmpty == false)
        let second = try json(try await sync(key + ".pub").stdout)
        #expect(second["status"] as? String == "notModified" && second["etag"] as? String == report["etag"] as? String)
        let answer = try await resolved(key + ".pub")
        #expect(answer["confidence"] as? String == "exact", "\(answer)")
        let published = try json(String(contentsOfFile: folder + "/v1/catalog", encoding: .utf8))
        let entry = try #require(
            (published["entries"] as? [[String: Any]])?.first { $0["modelIdentifier"] as? String == "SM-S921B" })
        let zone = try #require(answer["zone"] as? [String: Double])
        #expect(zone["x"] == entry["zoneX"] as? Double && zone["width"] == entry["zoneWidth"] as? Double, "\(zone)")
    }

    @Test mutating func aTamperedForeignUnsignedOrOlderDocumentIsRefusedAndTheCacheKept() async throws {
        let (key, db) = try await publishFirstVersion()
        #expect(try await sync(key + ".pub").status == 0)
        let original = try Data(contentsOf: URL(fileURLWithPath: folder + "/v1/catalog"))
        // One byte changed in transit.
        var tampered = original
        let at = try #require(tampered.firstRange(of: Data("Galaxy S24".utf8))).lowerBound
        tampered[at + 7] = UInt8(ascii: "5")
        try serve(tampered, as: "catalog")
        let altered = try await sync(key + ".pub")
        #expect(altered.status == 1 && altered.stderr.contains("does not match its bytes"), "\(altered.stderr)")
        #expect(altered.stderr.contains("The cache keeps the copy"), "\(altered.stderr)")
        let kept = try await resolved(key + ".pub")
        #expect(kept["confidence"] as? String == "exact", "the cached version 1 is still in use: \(kept)")
        #expect((kept["remote"] as? [String: Any])?["served"] as? String == "cache", "\(kept)")
        try serve(original, as: "catalog")
        // Signed by someone else's key.
        let other = scratch.file("other.key")
        #expect(try await BuiltBinary.run(["catalog", "keygen", "-o", other]).status == 0)
        let foreign = try await sync(other + ".pub")
        #expect(foreign.status == 1 && foreign.stderr.contains("not by the trusted key"), "\(foreign.stderr)")
        // No signature beside it.
        let signature = try Data(contentsOf: URL(fileURLWithPath: folder + "/v1/catalog.minisig"))
        try FileManager.default.removeItem(atPath: folder + "/v1/catalog.minisig")
        let unsigned = try await sync(key + ".pub")
        #expect(unsigned.status == 1 && unsigned.stderr.contains("no signature"), "\(unsigned.stderr)")
        try serve(signature, as: "catalog.minisig")
        // Version 2, then version 1 served again: a replay.
        try await BenchEvidenceFixture.record(
            [.init(unit: "unit-B", antennaMm: 20)], into: db, idPrefix: "N", start: Date(timeIntervalSince1970: 1_800_000_000))
        try await publish(key: key, db: db, expectingVersion: 2)
        let second = try await sync(key + ".pub")
        let secondReport = try json(second.stdout)
        #expect(second.status == 0 && secondReport["catalogVersion"] as? Int == 2, "\(second.stdout)")
        for file in ["catalog", "catalog.minisig"] {
            try serve(try Data(contentsOf: URL(fileURLWithPath: folder + "/v1/versions/1/" + file)), as: file)
        }
        let replayed = try await sync(key + ".pub")
        #expect(replayed.status == 1 && replayed.stderr.contains("older than version 2"), "\(replayed.stderr)")
        let cache = try json(
            try await BuiltBinary.run(["catalog", "cache", "--json"], environment: environment).stdout)
        #expect((cache["catalogs"] as? [Any])?.count == 1)
        let still = try await resolved(key + ".pub")
        #expect(still["catalogVersion"] as? String == "lab-2", "the cache still holds version 2: \(still)")
        #expect((still["remote"] as? [String: Any])?["served"] as? String == "cache")
    }

    @Test func aCatalogMinisignSignedIsTaken() async throws {
        let (pub, secret) = (scratch.file("m.pub"), scratch.file("m.key"))
        let made = try await ChildProcess.run(
            "/usr/bin/minisign", ["-G", "-W", "-p", pub, "-s", secret], environment: [:])
        #expect(made.status == 0, "\(made.stderr)")
        var seed = try json(String(contentsOf: Checkout.seedCatalog, encoding: .utf8))
        seed["catalogVersion"] = 3
        try FileManager.default.createDirectory(atPath: folder + "/v1", withIntermediateDirectories: true)
        try JSONSerialization.data(withJSONObject: seed).write(to: URL(fileURLWithPath: folder + "/v1/catalog"))
        let signed = try await ChildProcess.run(
            "/usr/bin/minisign", ["-S", "-s", secret, "-m", folder + "/v1/catalog", "-t", "signed by hand"], environment: [:])
        #expect(signed.status == 0, "\(signed.stderr)")
        let synced = try await sync(pub)
        #expect(synced.status == 0, "\(synced.stderr)")
        let report = try json(synced.stdout)
        #expect(report["signatureVerified"] as? Bool == true && report["catalogVersion"] as? Int == 3, "\(report)")
    }
}

/// The nginx scripts/test.sh starts: its URL and the folder it serves.
enum NginxServer {
    static var started: (url: String, root: String)? {
        let env = ProcessInfo.processInfo.environment
        guard let url = env["NFCBENCH_TEST_NGINX_URL"], let root = env["NFCBENCH_TEST_NGINX_ROOT"] else { return nil }
        return (url, root)
    }
}
