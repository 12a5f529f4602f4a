import Foundation
import NFCSystem

#if canImport(Glibc)
    import Glibc
#endif

/// Fetches through the `nfcbench-fetch` helper, so only processes that actually use a
/// remote catalog pay for loading the HTTP/TLS stack.
///
/// Helper protocol: no arguments; standard input is one JSON line (`HelperRequest`:
/// the URL, the ETag, the time and size limits), never the command line, where any local
/// user could read a catalog URL's `?token=` or password in `ps`; stdout is one JSON line (`{"status":"fetched","etag":...}`,
/// `{"status":"notModified"}` or `{"status":"error","kind":...,"detail":...}`) followed,
/// for `fetched`, by the body bytes. The helper is killed if it outlives the total
/// timeout by 200 ms.
public struct HelperProcessFetcher: CatalogFetching {
    public let helper: URL
    public let limits: FetchLimits

    public init(helper: URL, limits: FetchLimits = FetchLimits()) {
        self.helper = helper
        self.limits = limits
    }

    /// `$NFCBENCH_FETCH_HELPER`, else `nfcbench-fetch` beside the running executable.
    public static func locate(environment: [String: String], executable: URL?) -> URL? {
        if let explicit = environment["NFCBENCH_FETCH_HELPER"], !explicit.isEmpty { return URL(fileURLWithPath: explicit) }
        guard let dir = executable?.resolvingSymlinksInPath().deletingLastPathComponent() else { return nil }
        let candidate = dir.appendingPathComponent("nfcbench-fetch")
        return FileManager.default.isExecutableFile(atPath: candidate.path) ? candidate : nil
    }

    public func fetch(_ url: URL, etag: String?) async throws(RemoteCatalogError) -> FetchOutcome {
        let process = Process()
        process.executableURL = helper
        process.arguments = []
        let request = HelperRequest(
            url: url.absoluteString, etag: etag, connectTimeout: limits.connectTimeout,
            totalTimeout: limits.totalTimeout, maxBytes: limits.maxBytes)
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch {
            throw .transport("cannot start \(helper.path): \(error.localizedDescription)")
        }
        // A few hundred bytes: far below a pipe's buffer, so this write never blocks.
        try? input.fileHandleForWriting.write(contentsOf: request.line())
        try? input.fileHandleForWriting.close()
        // The deadline is kept by the reading loop itself, on a thread of its own: a watchdog
        // on Dispatch's global queue, or a read on a queue, waits for a free worker, and a
        // loaded machine kept it waiting for half a minute. SIGKILL, not terminate():
        // Foundation's Process on Linux spawns from a thread that blocks most signals, and the
        // helper inherits that mask, so a SIGTERM would wait unseen while a hung helper held
        // `resolve` past its bound.
        let deadline = ContinuousClock.now + .milliseconds(Int((limits.totalTimeout + 0.2) * 1000))
        let pid = process.processIdentifier
        let fd = output.fileHandleForReading.fileDescriptor
        let data: Data
        do {
            // Ctrl-C or SIGTERM: the helper is killed at once, which ends the reading, so no
            // helper outlives the command holding the server's connection until its timeout.
            data = try await withTaskCancellationHandler {
                try await DetachedThread.run { Self.readToEnd(fd, until: deadline) { kill(pid, SIGKILL) } }
            } onCancel: {
                kill(pid, SIGKILL)
            }
        } catch {
            kill(pid, SIGKILL)
            throw .transport("cannot start a thread to read \(helper.path): \(error)")
        }
        // The pipe's handle closes its descriptor when freed: kept until the reading is done.
        withExtendedLifetime((process, output)) {}
        if Task.isCancelled { throw .interrupted }
        return try Self.decode(data, limits: limits)
    }

    /// Everything `fd` gives until its writer closes it; at `deadline`, `expire` runs once
    /// (killing the writer, which closes it), and a second later the reading stops whatever
    /// holds the pipe. Not waiting for the helper's exit: the end of its output is all
    /// resolve needs, and Foundation reaps the helper by itself.
    static func readToEnd(_ fd: Int32, until deadline: ContinuousClock.Instant, expire: () -> Void) -> Data {
        let descriptor = FileDescriptor(rawValue: fd)
        var data = Data()
        var expired = false
        while true {
            let left = deadline - ContinuousClock.now
            if !expired, left <= .zero {
                expire()
                expired = true
            }
            if expired, left < .seconds(-1) { return data }
            let wait = (expired ? left + .seconds(1) : left).components
            let milliseconds = (Double(wait.seconds) * 1000 + Double(wait.attoseconds) / 1e15).rounded(.up)
            guard let readable = try? descriptor.waitUntilReadable(timeoutMs: Int32(max(1, min(1000, milliseconds))))
            else { return data }
            guard readable else { continue }  // the deadline comes round again
            guard let chunk = try? descriptor.read(upTo: 65_536), !chunk.isEmpty else { return data }
            data.append(contentsOf: chunk)
        }
    }

    static func decode(_ data: Data, limits: FetchLimits) throws(RemoteCatalogError) -> FetchOutcome {
        guard let newline = data.firstIndex(of: UInt8(ascii: "\n")),
            let header = try? JSONSerialization.jsonObject(with: data[..<newline]) as? [String: Any],
            let status = header["status"] as? String
        else {
            throw .timedOut(seconds: limits.totalTimeout)  // killed by the watchdog, or died
        }
        switch status {
        case "fetched": return .fetched(body: Data(data[data.index(after: newline)...]), etag: header["etag"] as? String)
        case "notModified": return .notModified
        default:
            throw RemoteCatalogError(
                kind: header["kind"] as? String ?? "", detail: header["detail"] as? String ?? "", limits: limits)
        }
    }
}

extension RemoteCatalogError {
    /// The helper's `kind` for this error.
    public var kind: String {
        switch self {
        case .invalidURL: "invalidURL"
        case .insecureURL: "insecureURL"
        case .timedOut: "timedOut"
        case .tooLarge: "tooLarge"
        case .httpStatus: "httpStatus"
        case .transport: "transport"
        case .notACatalog: "notACatalog"
        case .noCatalogCached: "noCatalogCached"
        case .refused: "refused"
        case .interrupted: "interrupted"
        }
    }

    /// The payload that `init(kind:detail:limits:)` reads back.
    public var detail: String {
        switch self {
        case .httpStatus(let code): String(code)
        case .invalidURL(let s), .insecureURL(let s), .transport(let s), .notACatalog(let s): s
        default: ""
        }
    }

    init(kind: String, detail: String, limits: FetchLimits) {
        switch kind {
        case "timedOut": self = .timedOut(seconds: limits.totalTimeout)
        case "tooLarge": self = .tooLarge(limit: limits.maxBytes)
        case "httpStatus": self = .httpStatus(Int(detail) ?? 0)
        case "invalidURL": self = .invalidURL(detail)
        case "insecureURL": self = .insecureURL(detail)
        case "notACatalog": self = .notACatalog(detail)
        default: self = .transport(detail)
        }
    }
}

/// What the main process asks the fetch helper for, on its standard input.
public struct HelperRequest: Codable, Sendable, Equatable {
    public let url: String
    public let etag: String?
    public let connectTimeout: Double
    public let totalTimeout: Double
    public let maxBytes: Int

    public init(url: String, etag: String?, connectTimeout: Double, totalTimeout: Double, maxBytes: Int) {
        self.url = url
        self.etag = etag
        self.connectTimeout = connectTimeout
        self.totalTimeout = totalTimeout
        self.maxBytes = maxBytes
    }

    /// One JSON line.
    public func line() throws -> Data { try JSONEncoder().encode(self) + Data("\n".utf8) }

    /// The first line of `input`, or `nil` when it is not a request.
    public static func read(_ input: Data) -> HelperRequest? {
        let line = input.prefix { $0 != UInt8(ascii: "\n") }
        return try? JSONDecoder().decode(HelperRequest.self, from: line)
    }
}
