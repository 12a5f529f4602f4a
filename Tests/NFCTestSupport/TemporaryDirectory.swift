import Foundation

/// A scratch folder for one test, removed when the test is done with it (`remove()`,
/// or at the latest when the object goes away), so runs leave no databases or fake
/// system trees behind. Short path under /tmp: Unix socket names allow 107 bytes.
public final class TemporaryDirectory: Sendable {
    public let url: URL
    public var path: String { url.path }

    public init(_ prefix: String = "nfcb") throws {
        url = URL(fileURLWithPath: "/tmp/\(prefix)-\(UUID().uuidString.prefix(12))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// A path inside the folder (not created).
    public func file(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// A new, unique database path inside the folder.
    public func database() -> String { file("bench-\(UUID().uuidString.prefix(8)).sqlite") }

    public func remove() { try? FileManager.default.removeItem(at: url) }

    deinit { remove() }
}
