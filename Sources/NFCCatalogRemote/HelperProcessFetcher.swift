import Foundation

/// Fetches through the `nfcbench-fetch` helper, so only processes that actually use a
/// remote catalog pay for loading the HTTP/TLS stack.
///
/// Helper protocol: arguments `--url U [--etag E] --connect-timeout S --total-timeout S
/// --max-bytes N`; stdout is one JSON line (`{"status":"fetched","etag":...}`,
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

    public func fetch(_ endpoint: CatalogEndpoint, etag: String?) async throws(RemoteCatalogError) -> FetchOutcome {
        let process = Process()
        process.executableURL = helper
        var arguments = [
            "--url", endpoint.catalogURL.absoluteString, "--connect-timeout", String(limits.connectTimeout),
            "--total-timeout", String(limits.totalTimeout), "--max-bytes", String(limits.maxBytes),
        ]
        if let etag { arguments += ["--etag", etag] }
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch {
            throw .transport("cannot start \(helper.path): \(error.localizedDescription)")
        }
        let watchdog = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + limits.totalTimeout + 0.2, execute: watchdog)
        // Reading to the end and reaping both block, so both happen on a queue of their
        // own; the awaiting task holds no cooperative thread meanwhile.
        let data: Data = await withCheckedContinuation { continuation in
            DispatchQueue(label: "nfcbench.fetch-helper").async {
                let data = output.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                continuation.resume(returning: data)
            }
        }
        watchdog.cancel()
        return try Self.decode(data, limits: limits)
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
