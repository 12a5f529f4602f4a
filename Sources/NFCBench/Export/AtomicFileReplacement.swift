import Foundation
import NFCSystem

#if canImport(Glibc)
    import Glibc
#endif

/// A report file replaced only once its new content is complete and on disk: written to
/// a temporary file beside the target, fsynced, then renamed over it. A failed, killed or
/// interrupted export leaves the previous file as it was, and no partial file under the
/// target's name (a stray `.name.XXXXXX` temporary at most, after `kill -9`).
public final class AtomicFileReplacement {
    public let target: URL
    public let temporaryPath: String
    /// Where the export writes.
    public let descriptor: Int32
    private var finished = false

    /// Creates the temporary file in the target's folder (same file system, so the rename
    /// is atomic), with the target's permissions when it exists, else as the user's umask
    /// makes a new file (mkstemp's 0600 would hide a report from the lab's group).
    public init(target: URL) throws(ExportError) {
        self.target = target
        let folder = target.deletingLastPathComponent().path
        var template = Array((folder + "/" + Self.temporaryName(for: target.lastPathComponent)).utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw .writeFailed(target.path, Errno.current.description) }
        descriptor = fd
        temporaryPath = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        var existing = stat()
        let mode: mode_t = stat(target.path, &existing) == 0 ? existing.st_mode & 0o777 : 0o666 & ~FileCreationMask.current
        _ = fchmod(fd, mode)
    }

    /// `.NAME.XXXXXX`, with NAME cut (at a character's edge) so the whole stays within
    /// NAME_MAX: a 250-byte file name, legal itself, was refused as too long because of
    /// its temporary's 8 more bytes (issue 49).
    static func temporaryName(for name: String) -> String {
        let room = Int(NAME_MAX) - ".".utf8.count - ".XXXXXX".utf8.count
        var kept = Substring(name)
        while kept.utf8.count > room { kept = kept.dropLast() }
        return "." + kept + ".XXXXXX"
    }

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

    /// Makes the new content the target's: fsync, rename, then fsync the folder so the
    /// rename itself survives a power cut.
    public func commit() throws(ExportError) {
        precondition(!finished, "an atomic replacement commits or is abandoned once")
        finished = true
        let synced = fsync(descriptor) == 0
        let syncError = Errno.current
        close(descriptor)
        guard synced else {
            unlink(temporaryPath)
            throw .writeFailed(target.path, syncError.description)
        }
        guard rename(temporaryPath, target.path) == 0 else {
            let reason = Errno.current.description
            unlink(temporaryPath)
            throw .writeFailed(target.path, reason)
        }
        let folder = open(target.deletingLastPathComponent().path, O_RDONLY | O_DIRECTORY)
        if folder >= 0 {
            _ = fsync(folder)
            close(folder)
        }
    }

    /// Removes the temporary file; the target is untouched.
    public func abandon() {
        guard !finished else { return }
        finished = true
        close(descriptor)
        unlink(temporaryPath)
    }

    deinit { abandon() }
}
