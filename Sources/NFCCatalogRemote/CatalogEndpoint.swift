import Foundation

/// A remote catalog's address: `<base>/v1/catalog` (see docs/catalog-api.md).
///
/// HTTPS only, unless the host is loopback or the operator passed
/// `--allow-insecure-http`. The check runs before any network activity, so a refused
/// URL never costs a DNS lookup or a connection.
public struct CatalogEndpoint: Sendable, Equatable {
    public let base: URL
    public let catalogURL: URL
    /// The catalog's minisign signature, beside it (`catalog publish` writes both).
    public let signatureURL: URL

    public init(_ text: String, allowInsecureHTTP: Bool = false) throws(RemoteCatalogError) {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty else {
            throw .invalidURL(text)
        }
        guard scheme == "https" || scheme == "http" else { throw .invalidURL(text) }
        if scheme == "http" && !allowInsecureHTTP && !Self.isLoopback(host) {
            throw .insecureURL(text)
        }
        base = url
        var path = url.path
        while path.hasSuffix("/") { path.removeLast() }
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)!
        components.path = path + "/v1/catalog"
        catalogURL = components.url!
        components.path = path + "/v1/catalog.minisig"
        signatureURL = components.url!
    }

    /// 127.0.0.0/8, ::1 and localhost.
    public static func isLoopback(_ host: String) -> Bool {
        let h = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).lowercased()
        if h == "localhost" || h == "::1" || h == "0:0:0:0:0:0:0:1" { return true }
        let parts = h.split(separator: ".")
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }
}

/// Why the remote layer gave no catalog. The chain then falls through to the cache.
public enum RemoteCatalogError: Error, Sendable, Equatable, CustomStringConvertible {
    case invalidURL(String)
    case insecureURL(String)
    case timedOut(seconds: Double)
    case tooLarge(limit: Int)
    case httpStatus(Int)
    case transport(String)
    case notACatalog(String)
    case noCatalogCached
    /// A signed catalog that failed its check (`--catalog-key`): the reason.
    case refused(String)
    /// Ctrl-C or SIGTERM came before the server answered.
    case interrupted

    public var description: String {
        switch self {
        case .invalidURL(let u): "'\(u)' is not an http(s) URL"
        case .insecureURL(let u):
            "refusing plain HTTP to a non-loopback host: \(u) (use https://, or --allow-insecure-http on a trusted network)"
        case .timedOut(let s): "no complete answer within \(s) s"
        case .tooLarge(let limit): "response larger than \(limit / 1_048_576) MiB refused"
        case .httpStatus(let code): "server answered HTTP \(code)"
        case .transport(let detail): detail
        case .notACatalog(let detail): "response is not a catalog: \(detail)"
        case .noCatalogCached: "nothing cached for this URL"
        case .refused(let reason): "refused: \(reason)"
        case .interrupted: "interrupted (Ctrl-C or SIGTERM) before the server answered"
        }
    }
}
