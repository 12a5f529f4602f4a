import Foundation
import NFCSystem

#if canImport(Glibc)
    import Glibc
#endif

/// Where a command writes a file it was asked for (`-o`, `--svg`, `--report`): the one
/// policy every writer follows, so no writer can destroy what it did not mean to write.
///
/// The path is resolved through symlinks and `..`, then compared with the protected
/// files (the session database and its `-wal`, `-shm` and `-journal`) by name and by
/// device and inode (a hard link is the same file). A regular file, or nothing yet, is
/// replaced atomically; a device, FIFO or socket is written in place and never renamed
/// over or removed (renaming a file over `/dev/null` as root replaces the device).
public struct OutputDestination: Sendable {
    public enum Kind: Sendable, Equatable {
        /// Written beside the target and renamed over it once complete.
        case replaced
        /// A device or pipe: opened and written as it is.
        case inPlace
    }

    /// The path as the user gave it, for messages.
    public let given: String
    /// The path after symlinks and `..`: where the bytes go.
    public let resolved: String
    public let kind: Kind

    /// Checks `path` before anything is opened. `protecting`: the session databases the
    /// command knows of; each and its journal files are refused.
    public static func check(_ path: String, protecting databases: [String]) throws(DestinationError) -> OutputDestination {
        let resolved = ResolvedPath.resolve(path)
        let target = FileIdentity(resolved)
        for database in databases {
            let base = ResolvedPath.resolve(database)
            for suffix in ["", "-wal", "-shm", "-journal"] {
                let protected = base + suffix
                let sameFile = target != nil && target == FileIdentity(protected)
                if protected == resolved || sameFile {
                    throw .sessionDatabase(path: path, database: base)
                }
            }
        }
        let status: FileStatus
        do { status = try FileStatus.of(resolved) } catch {
            guard error == .noSuchFile else { throw .cannotOpen(path: path, reason: error.description) }
            try checkFolder(of: resolved, for: path)
            return OutputDestination(given: path, resolved: resolved, kind: .replaced)
        }
        switch status.kind {
        case .regular:
            if let what = SQLiteFileKind.of(resolved) { throw .sqliteFile(path: path, what: what) }
            try checkFolder(of: resolved, for: path)
            return OutputDestination(given: path, resolved: resolved, kind: .replaced)
        case .folder: throw .folder(path: path)
        // A socket cannot be opened for writing at all: said now, not after a whole session.
        case .socket: throw .socket(path: path)
        case .special: return OutputDestination(given: path, resolved: resolved, kind: .inPlace)
        }
    }

    /// A replaced file is written beside its target and renamed over it, so its folder
    /// must exist and take new files: checked before a session runs, not after (issue 49, F5).
    static func checkFolder(of resolved: String, for path: String) throws(DestinationError) {
        let folder = ResolvedPath.parent(of: resolved)
        let status: FileStatus
        do { status = try FileStatus.of(folder) } catch {
            throw .cannotCreate(path: path, reason: "the folder \(folder) does not exist (\(error))")
        }
        guard status.kind == .folder else { throw .cannotCreate(path: path, reason: "\(folder) is not a folder") }
        do { try FileStatus.mayCreateFiles(in: folder) } catch {
            throw .cannotCreate(path: path, reason: "the folder \(folder) does not take new files (\(error))")
        }
    }

    /// Writes the content through `body`. A replaced file changes only once the content is
    /// complete and on disk; a failed write of either kind (a full device, a closed pipe)
    /// throws with its reason.
    public func write(_ body: (ExportSink) async throws -> Void) async throws {
        switch kind {
        case .replaced:
            let replacement: AtomicFileReplacement
            do { replacement = try AtomicFileReplacement(target: URL(fileURLWithPath: resolved)) } catch {
                throw DestinationError.cannotCreate(path: given, reason: error.reason)
            }
            try await replacement.write { sink in
                try await body(sink)
                try sink.flush()
            }
        case .inPlace:
            // No O_CREAT, no O_TRUNC: a device or pipe is neither made nor emptied.
            let file: OwnedFileDescriptor
            do { file = try OwnedFileDescriptor.open(resolved, O_WRONLY | O_NOCTTY) } catch {
                throw DestinationError.cannotOpen(path: given, reason: error.description)
            }
            let sink = ExportSink(descriptor: file.rawValue, name: given)
            try await body(sink)
            try sink.flush()
        }
    }
}

/// Why a destination was refused or could not be written; each names the fix.
public enum DestinationError: Error, Sendable, Equatable, CustomStringConvertible {
    case sessionDatabase(path: String, database: String)
    case folder(path: String)
    case cannotOpen(path: String, reason: String)
    case cannotCreate(path: String, reason: String)
    /// An SQLite database or one of its journals (`SQLiteFileKind`): no writer makes one,
    /// so replacing it can only destroy someone's sessions (issue 49, F10, F11).
    case sqliteFile(path: String, what: String)
    /// A socket cannot be opened for writing at all.
    case socket(path: String)

    public var description: String {
        switch self {
        case .sessionDatabase(let path, let database):
            "Refusing to write \(path): it is the session database \(database) or one of its journal files."
        case .folder(let path): "Cannot write \(path): it is a folder."
        case .cannotOpen(let path, let reason): "Cannot write \(path): \(reason)."
        case .cannotCreate(let path, let reason): "Cannot create \(path): \(reason)."
        case .sqliteFile(let path, let what): "Refusing to write \(path): it is \(what)."
        case .socket(let path): "Cannot write \(path): it is a socket."
        }
    }

    /// What to do about it.
    public var hint: String {
        switch self {
        case .sessionDatabase: "Choose another path; writing there would destroy the sessions."
        case .folder: "Name a file inside the folder."
        case .cannotOpen, .cannotCreate: "Check that the folder exists and is writable."
        case .sqliteFile: "Choose another path; writing there would destroy the sessions it holds."
        case .socket: "Name a file, a device or a FIFO; a socket takes no file's content."
        }
    }
}

/// A file's device and inode: two paths naming one file (a hard link, a bind mount) are
/// the same destination.
struct FileIdentity: Equatable {
    let device: UInt64
    let inode: UInt64

    init?(_ path: String) {
        guard let status = try? FileStatus.of(path) else { return nil }
        device = status.device
        inode = status.inode
    }
}

/// A path with every symlink and `..` resolved, including a final symlink that points
/// nowhere yet (the file it names is what a write would create).
enum ResolvedPath {
    static func resolve(_ path: String) -> String {
        var current = absolute(path)
        for _ in 0..<40 {
            guard let link = PathLinks.target(of: current) else { break }
            current = link.hasPrefix("/") ? link : parent(of: current) + "/" + link
        }
        let folder = parent(of: current)
        let name = String(current[current.index(after: current.lastIndex(of: "/")!)...])
        guard let base = PathLinks.realPath(folder) else { return normalised(current) }
        return normalised((base == "/" ? "" : base) + "/" + name)
    }

    /// Left unnormalised: `..` after a symlinked folder is resolved by `realpath`, not by
    /// dropping the folder's name.
    private static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }

    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }

    /// `.` and `..` removed lexically: only for what follows a real folder, or for a
    /// folder that does not exist (nothing can be written there anyway).
    private static func normalised(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            if part == "." { continue }
            if part == ".." {
                _ = parts.popLast()
                continue
            }
            parts.append(part)
        }
        return "/" + parts.joined(separator: "/")
    }
}
