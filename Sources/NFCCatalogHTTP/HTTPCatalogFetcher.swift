import Foundation
import NFCCatalogRemote

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One conditional GET of a catalog over URLSession, with limits a bench can rely on.
///
/// Linked only into the `nfcbench-fetch` helper: FoundationNetworking pulls in libcurl
/// and its TLS stack, which costs every process ~11 ms at start even when no URL is
/// configured, so the main binary reaches this through `HelperProcessFetcher`.
public struct HTTPCatalogFetcher: CatalogFetching {
    public let limits: FetchLimits

    public init(limits: FetchLimits = FetchLimits()) { self.limits = limits }

    public func fetch(_ url: URL, etag: String?) async throws(RemoteCatalogError) -> FetchOutcome {
        let connectTimeout = limits.connectTimeout, totalTimeout = limits.totalTimeout, maxBytes = limits.maxBytes
        var request = URLRequest(url: url)
        request.httpMethod = "GET"
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        request.setValue("nfcbench", forHTTPHeaderField: "User-Agent")
        if let etag { request.setValue(etag, forHTTPHeaderField: "If-None-Match") }
        request.cachePolicy = .reloadIgnoringLocalCacheData
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = connectTimeout  // connect, and idle between packets
        configuration.timeoutIntervalForResource = totalTimeout
        configuration.urlCache = nil
        let delegate = BoundedDownload(maxBytes: maxBytes)
        let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        let task = session.dataTask(with: request)
        let result: Result<(HTTPURLResponse, Data), RemoteCatalogError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                delegate.onFinish = { continuation.resume(returning: $0) }
                task.resume()
                // The total deadline is ours, not only URLSession's: a server that trickles
                // bytes must not hold the resolver past it.
                DispatchQueue.global().asyncAfter(deadline: .now() + totalTimeout) {
                    delegate.finish(.failure(.timedOut(seconds: totalTimeout)))
                    task.cancel()
                }
            }
        } onCancel: {
            task.cancel()
        }
        let (response, body) = try result.get()
        switch response.statusCode {
        case 304: return .notModified
        case 200: return .fetched(body: body, etag: response.value(forHTTPHeaderField: "ETag"))
        default: throw .httpStatus(response.statusCode)
        }
    }
}

/// Collects the body, refusing it as soon as it is known to exceed the cap: from
/// Content-Length before reading any of it, or while streaming when there is none.
final class BoundedDownload: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // @unchecked Sendable: URLSession calls the delegate on its own serial queue; the
    // only cross-thread access is `finish`, which the lock guards, and it resumes the
    // continuation at most once.
    private let lock = NSLock()
    private var body = Data()
    private var response: HTTPURLResponse?
    private var finished = false
    private let maxBytes: Int
    var onFinish: ((Result<(HTTPURLResponse, Data), RemoteCatalogError>) -> Void)?

    init(maxBytes: Int) { self.maxBytes = maxBytes }

    func finish(_ result: Result<(HTTPURLResponse, Data), RemoteCatalogError>) {
        let callback: ((Result<(HTTPURLResponse, Data), RemoteCatalogError>) -> Void)? = lock.withLock {
            guard !finished else { return nil }
            finished = true
            return onFinish
        }
        callback?(result)
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        guard let http = response as? HTTPURLResponse else {
            finish(.failure(.transport("not an HTTP response")))
            completionHandler(.cancel)
            return
        }
        if http.expectedContentLength > Int64(maxBytes) {
            finish(.failure(.tooLarge(limit: maxBytes)))
            completionHandler(.cancel)
            return
        }
        lock.withLock { self.response = http }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let over = lock.withLock { () -> Bool in
            body.append(data)
            return body.count > maxBytes
        }
        if over {
            finish(.failure(.tooLarge(limit: maxBytes)))
            dataTask.cancel()
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        if let error {
            let nsError = error as NSError
            if nsError.code == NSURLErrorTimedOut {
                finish(.failure(.timedOut(seconds: task.originalRequest?.timeoutInterval ?? 0)))
            } else {
                finish(.failure(.transport(nsError.localizedDescription)))
            }
            return
        }
        let (response, body) = lock.withLock { (self.response, self.body) }
        guard let response else { finish(.failure(.transport("no response"))); return }
        finish(.success((response, body)))
    }
}
