import Foundation
import Glibc
import NFCTestSupport
import Testing

@testable import NFCCatalogRemote

/// The fetch helper as a process: its answer read to the end however it trickles, and
/// its time bound kept by the reading itself (a helper that hangs, and one whose child
/// keeps the pipe open after it is killed).
@Suite("The fetch helper's process and its bound")
struct HelperProcessFetcherTests {
    let scratch: TemporaryDirectory
    init() throws { scratch = try TemporaryDirectory("helper") }

    func helper(_ script: String) throws -> URL {
        let path = scratch.file("helper-\(UUID().uuidString.prefix(8))")
        try writeExecutableScript("#!/bin/sh\n\(script)\n", to: path)
        return URL(fileURLWithPath: path)
    }

    static let endpoint = try! CatalogEndpoint("http://127.0.0.1:9/catalog")

    @Test func anAnswerInPiecesIsReadWhole() async throws {
        let body = String(repeating: "x", count: 100_000)
        try Data(body.utf8).write(to: URL(fileURLWithPath: scratch.file("body")))
        let fetcher = HelperProcessFetcher(
            helper: try helper(
                "cat > /dev/null; printf '{\"status\":\"fetched\",\"etag\":\"e\"}\\n'; sleep 0.2; cat '\(scratch.file("body"))'"),
            limits: FetchLimits(totalTimeout: 10))
        #expect(try await fetcher.fetch(Self.endpoint.catalogURL, etag: nil) == .fetched(body: Data(body.utf8), etag: "e"))
    }

    /// Seconds from the helper's own start (its first line writes the time to `stamp`) to now:
    /// the bound is the fetcher's from then on, whatever a loaded machine's spawning costs.
    static func secondsSince(stamp: String) throws -> Double {
        let text = try String(contentsOfFile: stamp, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        return Date().timeIntervalSince1970 - (try #require(Double(text), "no start time in \(stamp)"))
    }

    /// Whether `pid` has ended (gone, or a zombie until Foundation reaps it), given the
    /// kernel up to 2 s to finish a SIGKILL already sent: the kill is delivered when the
    /// process is next scheduled, which on a loaded machine was after the check (seen: a
    /// killed `sleep` still R).
    static func statOnceKilled(_ pid: Int32) async -> (ended: Bool, line: String) {
        let deadline = ContinuousClock.now + .seconds(2)
        while true {
            let line = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
            let state = line.split(separator: ")").last?.split(separator: " ").first.map(String.init)
            if line.isEmpty || state == "Z" || state == "X" { return (true, line) }
            if ContinuousClock.now >= deadline { return (false, line) }
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    @Test func aHungHelperIsKilledAtTheBound() async throws {
        let pidFile = scratch.file("pid"), stamp = scratch.file("stamp")
        let fetcher = HelperProcessFetcher(
            helper: try helper("date +%s.%N > '\(stamp)'; echo $$ > '\(pidFile)'; exec sleep 60"),
            limits: FetchLimits(totalTimeout: 0.5))
        await #expect(throws: RemoteCatalogError.timedOut(seconds: 0.5)) {
            try await fetcher.fetch(Self.endpoint.catalogURL, etag: nil)
        }
        #expect(try Self.secondsSince(stamp: stamp) < 5)
        let pid = try #require(
            Int32(try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        // Killed: gone, or a zombie until Foundation reaps it.
        let stat = await Self.statOnceKilled(pid)
        #expect(stat.ended, "the helper still runs: \(stat.line)")
    }

    /// A helper whose own child holds its output open: killed at the bound, the pipe stays
    /// open, and the reading stops a second later instead of waiting for the child.
    @Test func aPipeHeldOpenByTheHelpersChildStopsTheReadingAnyway() async throws {
        let childFile = scratch.file("child"), stamp = scratch.file("stamp")
        let fetcher = HelperProcessFetcher(
            helper: try helper("date +%s.%N > '\(stamp)'; sleep 60 & echo $! > '\(childFile)'; exec sleep 60"),
            limits: FetchLimits(totalTimeout: 0.5))
        defer {
            if let text = try? String(contentsOfFile: childFile, encoding: .utf8),
                let child = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
            {
                kill(child, SIGKILL)
            }
        }
        await #expect(throws: RemoteCatalogError.timedOut(seconds: 0.5)) {
            try await fetcher.fetch(Self.endpoint.catalogURL, etag: nil)
        }
        #expect(try Self.secondsSince(stamp: stamp) < 5)
    }

    /// A fetch cancelled (Ctrl-C, SIGTERM) kills its helper at once and says it was
    /// interrupted, instead of reading until the bound and calling it a timeout.
    @Test func aCancelledFetchKillsItsHelperAndSaysSo() async throws {
        let pidFile = scratch.file("pid")
        let fetcher = HelperProcessFetcher(
            helper: try helper("echo $$ > '\(pidFile)'; exec sleep 60"), limits: FetchLimits(totalTimeout: 30))
        let fetch = Task { try await fetcher.fetch(Self.endpoint.catalogURL, etag: nil) }
        let deadline = ContinuousClock.now + .seconds(20)
        while (try? String(contentsOfFile: pidFile, encoding: .utf8))?.isEmpty != false, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        let pid = try #require(
            Int32(try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        let cancelled = ContinuousClock.now
        fetch.cancel()
        await #expect(throws: RemoteCatalogError.interrupted) { try await fetch.value }
        #expect(ContinuousClock.now - cancelled < .seconds(5))
        let stat = await Self.statOnceKilled(pid)
        #expect(stat.ended, "the helper still runs: \(stat.line)")
    }
}
