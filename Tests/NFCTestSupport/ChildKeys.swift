import Foundation

/// Keys typed into a child's standard input through a pipe.
///
/// A child that has already died leaves the pipe without a reader, and writing to it
/// raises SIGPIPE, which by default ends the whole test process: one dead child would
/// end every test running beside it, their results unreported. So the test process
/// ignores SIGPIPE once, before the first key, and a write to a dead child throws
/// (EPIPE), failing only the test that made it.
public struct ChildKeys {
    public let pipe = Pipe()

    /// Run once, before any pipe is written: a test process has no use for SIGPIPE.
    private static let brokenPipesThrow: Void = { _ = signal(SIGPIPE, SIG_IGN) }()

    public init() { Self.brokenPipesThrow }

    public func type(_ keys: String) throws {
        try pipe.fileHandleForWriting.write(contentsOf: Data(keys.utf8))
    }
}
