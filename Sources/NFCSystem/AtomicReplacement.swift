import Glibc

/// A file replaced only once its new content is complete and on disk: written to a
/// temporary file beside the target, fsynced, renamed over it, and the folder fsynced so
/// the rename itself survives a power cut. An abandoned, failed or killed replacement
/// leaves the target as it was (a stray `.NAME.XXXXXX` temporary at most, after `kill -9`).
public final class AtomicReplacement {
    public let targetPath: String
    public let temporaryPath: String
    /// Where the new content is written.
    public let descriptor: FileDescriptor
    private var finished = false

    /// Creates the temporary file in the target's folder (same file system, so the rename
    /// is atomic), with the target's permissions when it exists, else as the umask makes a
    /// new file (mkstemp's 0600 would hide a report from the lab's group).
    public init(targetPath: String) throws(Errno) {
        self.targetPath = targetPath
        let slash = targetPath.lastIndex(of: "/")
        let folder = slash.map { String(targetPath[..<$0]) } ?? "."
        let name = slash.map { String(targetPath[targetPath.index(after: $0)...]) } ?? targetPath
        var template = Array(((folder.isEmpty ? "" : folder) + "/" + Self.temporaryName(for: name)).utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw .current }
        descriptor = FileDescriptor(rawValue: fd)
        temporaryPath = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        var existing = stat()
        let mode: mode_t = stat(targetPath, &existing) == 0 ? existing.st_mode & 0o777 : 0o666 & ~FileCreationMask.current
        _ = fchmod(fd, mode)
    }

    /// `.NAME.XXXXXX`, with NAME cut (at a character's edge) so the whole stays within
    /// NAME_MAX: a 250-byte file name, legal itself, was refused as too long because of
    /// its temporary's 8 more bytes (issue 49).
    public static func temporaryName(for name: String) -> String {
        let room = Int(NAME_MAX) - ".".utf8.count - ".XXXXXX".utf8.count
        var kept = Substring(name)
        while kept.utf8.count > room { kept = kept.dropLast() }
        return "." + kept + ".XXXXXX"
    }

    /// Makes the new content the target's: fsync, rename, then fsync the folder.
    public func commit() throws(Errno) {
        precondition(!finished, "an atomic replacement commits or is abandoned once")
        finished = true
        let synced = fsync(descriptor.rawValue) == 0
        let syncError = Errno.current
        close(descriptor.rawValue)
        guard synced else {
            unlink(temporaryPath)
            throw syncError
        }
        guard rename(temporaryPath, targetPath) == 0 else {
            let reason = Errno.current
            unlink(temporaryPath)
            throw reason
        }
        let folder = targetPath.lastIndex(of: "/").map { String(targetPath[..<$0]) } ?? "."
        let folderDescriptor = open(folder.isEmpty ? "/" : folder, O_RDONLY | O_DIRECTORY)
        if folderDescriptor >= 0 {
            _ = fsync(folderDescriptor)
            close(folderDescriptor)
        }
    }

    /// Removes the temporary file; the target is untouched.
    public func abandon() {
        guard !finished else { return }
        finished = true
        close(descriptor.rawValue)
        unlink(temporaryPath)
    }

    deinit { abandon() }
}
