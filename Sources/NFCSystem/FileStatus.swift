import Glibc

/// What a path names, by `stat` (through symlinks): the kind of file, and its device
/// and inode, which tell two paths to one file apart from two files (a hard link).
public struct FileStatus: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case regular, folder, socket
        /// A device, a FIFO: written in place, never replaced.
        case special
    }

    public let kind: Kind
    public let device: UInt64
    public let inode: UInt64
    /// The permission bits (`0o644`).
    public let permissions: mode_t

    public static func of(_ path: String) throws(Errno) -> FileStatus {
        var info = stat()
        guard stat(path, &info) == 0 else { throw .current }
        let kind: Kind =
            switch info.st_mode & S_IFMT {
            case S_IFREG: .regular
            case S_IFDIR: .folder
            case S_IFSOCK: .socket
            default: .special
            }
        return FileStatus(
            kind: kind, device: UInt64(info.st_dev), inode: UInt64(info.st_ino), permissions: info.st_mode & 0o777)
    }

    /// Whether this process may create files in `folder` (write and search permission).
    public static func mayCreateFiles(in folder: String) throws(Errno) {
        guard access(folder, W_OK | X_OK) == 0 else { throw .current }
    }
}

/// Symlinks as the kernel reads them.
public enum PathLinks {
    /// Where the symlink at `path` points, as written in it; `nil` when `path` is no symlink.
    public static func target(of path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `realpath(3)`: the folder with every symlink and `..` resolved; `nil` when it does not exist.
    public static func realPath(_ path: String) -> String? {
        guard let real = realpath(path, nil) else { return nil }
        defer { free(real) }
        return String(cString: real)
    }
}
