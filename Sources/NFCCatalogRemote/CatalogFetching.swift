import Foundation

/// Limits for one catalog request.
public struct FetchLimits: Sendable, Equatable {
    /// Connect, and idle time between packets.
    public var connectTimeout: Double
    /// The whole request, body included.
    public var totalTimeout: Double
    /// Larger bodies are refused.
    public var maxBytes: Int

    public init(connectTimeout: Double = 2, totalTimeout: Double = 3, maxBytes: Int = 5 * 1_048_576) {
        self.connectTimeout = connectTimeout
        self.totalTimeout = totalTimeout
        self.maxBytes = maxBytes
    }
}

public enum FetchOutcome: Sendable, Equatable {
    case fetched(body: Data, etag: String?)
    case notModified
}

/// One conditional GET of a catalog's URL (`<base>/v1/catalog`) or of its signature's.
public protocol CatalogFetching: Sendable {
    var limits: FetchLimits { get }
    func fetch(_ url: URL, etag: String?) async throws(RemoteCatalogError) -> FetchOutcome
}
