import Foundation
import NFCTestSupport

/// The fault-injecting catalog backend (Tests/Fixtures/catalog_server.py) on a free
/// loopback port, one instance per test, with a cache folder of its own.
final class CatalogServer {
    let fixture: FixtureServer
    var port: Int { fixture.port }
    let cacheHome: String

    /// Starts the server; its port arrives on the first line of stdout.
    static func start() async throws -> CatalogServer {
        try await CatalogServer(
            fixture: FixtureServer(
                script: "catalog_server.py",
                arguments: [BuiltBinary.root.appendingPathComponent("Resources/seed_catalog.json").path]))
    }

    private init(fixture: FixtureServer) {
        self.fixture = fixture
        cacheHome = FileManager.default.temporaryDirectory.appendingPathComponent("cache-\(UUID().uuidString)").path
    }

    deinit { try? FileManager.default.removeItem(atPath: cacheHome) }

    func url(_ mode: String) -> String { "http://127.0.0.1:\(port)/\(mode)" }

    var environment: [String: String] { ["XDG_CACHE_HOME": cacheHome, "NFCBENCH_CATALOG_URL": ""] }

    func stats() throws -> [String: [String: Int]] {
        let data = try Data(contentsOf: URL(string: "http://127.0.0.1:\(port)/stats")!)
        return try JSONSerialization.jsonObject(with: data) as! [String: [String: Int]]
    }

    /// `nfcbench resolve --json` with this server's cache; the decoded object, stderr, and
    /// the seconds from the fetch helper's start to resolve's exit (from the launch when no
    /// helper ran), both stamped by wrappers: what resolve spent on the network, not how long
    /// a loaded machine took to start the process or to tell the test it had ended.
    func resolve(_ mode: String?, model: String = "SM-S921B", extra: [String] = [], environment: [String: String] = [:])
        async throws -> (json: [String: Any], stderr: String, seconds: Double)
    {
        var args = ["resolve", "--model", model, "--json"] + extra
        if let mode { args += ["--catalog-url", url(mode)] }
        let scratch = try TemporaryDirectory("resolve")
        let stamp = scratch.file("helper-started")
        var merged = self.environment.merging(environment) { $1 }
        if merged["NFCBENCH_FETCH_HELPER"] == nil {
            merged["NFCBENCH_FETCH_HELPER"] = try Self.timestamping(
                then: "'\(Self.realHelper)' \"$@\"", stamp: stamp, in: scratch)
        }
        // nfcbench's exit is stamped by a wrapper, as the helper's start is: the end of its
        // output as the test sees it waits for this process's pool to resume the test, which
        // a loaded parallel pass has held for over a minute (101 s against resolve's 1 s).
        let exitStamp = scratch.file("resolve-exited"), wrapper = scratch.file("nfcbench")
        try writeExecutableScript(
            "#!/bin/sh\n'\(BuiltBinary.path)' \"$@\"\nstatus=$?\ndate +%s.%N > '\(exitStamp)'\nexit $status\n", to: wrapper)
        let launched = Date()
        let r = try await BuiltBinary.run(args, environment: merged, binary: wrapper)
        guard let exitedAt = Self.stamped(exitStamp) else {
            throw CocoaError(
                .fileReadNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "the wrapper never stamped resolve's exit"])
        }
        let exited = Date(timeIntervalSince1970: exitedAt)
        let started = Self.stamped(stamp).map { Date(timeIntervalSince1970: $0) } ?? launched
        guard r.status == 0, let object = try? JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any] else {
            throw CocoaError(
                .fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "resolve failed: \(r.status) \(r.stderr)"])
        }
        return (object, r.stderr, exited.timeIntervalSince(started))
    }

    /// The fetch helper beside the binary under test, as nfcbench finds it.
    static var realHelper: String {
        URL(fileURLWithPath: BuiltBinary.path).deletingLastPathComponent().appendingPathComponent("nfcbench-fetch").path
    }

    /// A helper that writes the time it started (seconds since 1970) to `stamp`, then
    /// becomes `command` (a shell line) with the same input.
    static func timestamping(then command: String, stamp: String, in scratch: TemporaryDirectory) throws -> String {
        let wrapper = scratch.file("fetch")
        try writeExecutableScript("#!/bin/sh\ndate +%s.%N > '\(stamp)'\nexec \(command)\n", to: wrapper)
        return wrapper
    }

    static func stamped(_ stamp: String) -> Double? {
        (try? String(contentsOfFile: stamp, encoding: .utf8)).flatMap {
            Double($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }
}

extension Dictionary where Key == String, Value == Any {
    subscript(path path: String...) -> Any? {
        var current: Any? = self
        for key in path { current = (current as? [String: Any])?[key] }
        return current
    }
}
