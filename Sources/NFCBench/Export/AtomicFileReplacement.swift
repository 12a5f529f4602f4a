import Foundation
import NFCSystem

/// A report file replaced only once its new content is complete and on disk
/// (`AtomicReplacement` makes the system calls): a failed, killed or interrupted export
/// leaves the previous file as it was, and no partial file under the target's name.
public final class AtomicFileReplacement {
    public let target: URL
    private let replacement: AtomicReplacement

    public var temporaryPath: String { replacement.temporaryPath }
    /// Where the export writes.
    public var descriptor: Int32 { replacement.descriptor.rawValue }

    public init(target: URL) throws(ExportError) {
        self.target = target
        do { replacement = try AtomicReplacement(targetPath: target.path) } catch {
            throw .writeFailed(target.path, error.description)
        }
    }

    static func temporaryName(for name: String) -> String { AtomicReplacement.temporaryName(for: name) }

    /// Writes the new content through `body`, then commits it; any error (the body's or
    /// the commit's) abandons the temporary and leaves the target as it was.
    public func write(_ body: (ExportSink) async throws -> Void) async throws {
        do {
            try await body(ExportSink(descriptor: descriptor, name: target.path))
            try commit()
        } catch {
            abandon()
            throw error
        }
    }

    public func commit() throws(ExportError) {
        do { try replacement.commit() } catch { throw .writeFailed(target.path, error.description) }
    }

    /// Removes the temporary file; the target is untouched.
    public func abandon() { replacement.abandon() }
}
