import Glibc

/// An open file descriptor, not owned: standard streams, or one an `OwnedFileDescriptor`
/// holds. Every call retries on EINTR and throws `Errno` otherwise.
public struct FileDescriptor: Sendable, Hashable {
    public let rawValue: Int32

    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let standardInput = FileDescriptor(rawValue: 0)
    public static let standardOutput = FileDescriptor(rawValue: 1)
    public static let standardError = FileDescriptor(rawValue: 2)

    /// Up to `buffer.count` bytes into `buffer`; 0 at end of file.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        try retryingOnInterrupt { Glibc.read(rawValue, buffer.baseAddress, buffer.count) }
    }

    /// Up to `max` bytes; empty at end of file.
    public func read(upTo max: Int) throws(Errno) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: max)
        let count = bytes.withUnsafeMutableBytes { buffer in Result { () throws(Errno) in try read(into: buffer) } }
        return Array(bytes.prefix(try count.get()))
    }

    /// Writes some of `bytes`; how many.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(Errno) -> Int {
        try retryingOnInterrupt { Glibc.write(rawValue, bytes.baseAddress, bytes.count) }
    }

    /// Writes every byte of `bytes`, however many calls it takes. A descriptor that stops
    /// taking bytes without an error (0 written) ends it as a broken pipe.
    public func writeAll(_ bytes: UnsafeRawBufferPointer) throws(Errno) {
        var offset = 0
        while offset < bytes.count {
            let written = try write(UnsafeRawBufferPointer(rebasing: bytes[offset...]))
            if written == 0 { throw .brokenPipe }
            offset += written
        }
    }

    /// `writeAll` of an array or a slice of one, from its own storage (an export's buffer
    /// is written where it is, never copied first).
    public func writeAll<Bytes: Collection>(_ bytes: Bytes) throws(Errno) where Bytes.Element == UInt8 {
        let contiguous = bytes.withContiguousStorageIfAvailable { buffer in
            Result { () throws(Errno) in try writeAll(UnsafeRawBufferPointer(buffer)) }
        }
        try (contiguous ?? Array(bytes).withUnsafeBytes { buffer in Result { () throws(Errno) in try writeAll(buffer) } })
            .get()
    }

    /// Waits up to `timeoutMs` (-1: for ever) for the descriptor to become readable.
    public func waitUntilReadable(timeoutMs: Int32) throws(Errno) -> Bool {
        var request = pollfd(fd: rawValue, events: Int16(POLLIN), revents: 0)
        return try retryingOnInterrupt { poll(&request, 1, timeoutMs) } > 0
    }

    /// Waits up to `timeoutMs` (-1: for ever) for the descriptor to take more bytes.
    public func waitUntilWritable(timeoutMs: Int32) throws(Errno) -> Bool {
        var request = pollfd(fd: rawValue, events: Int16(POLLOUT), revents: 0)
        return try retryingOnInterrupt { poll(&request, 1, timeoutMs) } > 0
    }

    /// Sets or clears `O_NONBLOCK`.
    public func setNonBlocking(_ on: Bool) throws(Errno) {
        let flags = try retryingOnInterrupt { fcntl(rawValue, F_GETFL) }
        try retryingOnInterrupt { fcntl(rawValue, F_SETFL, on ? flags | O_NONBLOCK : flags & ~O_NONBLOCK) }
    }

    /// Takes `flock`'s exclusive lock without waiting: `Errno.wouldBlock` when another
    /// open file holds it.
    public func lockExclusively() throws(Errno) {
        try retryingOnInterrupt { flock(rawValue, LOCK_EX | LOCK_NB) }
    }
}

/// A file descriptor this value owns: closed exactly once, when the last reference goes,
/// so no path out of a function can leak it.
public final class OwnedFileDescriptor: Sendable {
    public let descriptor: FileDescriptor

    /// Takes ownership of `rawValue` (from `open`, `socket`, `accept`...).
    public init(taking rawValue: Int32) {
        precondition(rawValue >= 0, "a descriptor to own is open")
        descriptor = FileDescriptor(rawValue: rawValue)
    }

    /// `open(2)` with `O_CLOEXEC`, so children never inherit it.
    public static func open(_ path: String, _ flags: Int32, mode: mode_t = 0o600) throws(Errno) -> OwnedFileDescriptor {
        OwnedFileDescriptor(taking: try retryingOnInterrupt { Glibc.open(path, flags | O_CLOEXEC, mode) })
    }

    public var rawValue: Int32 { descriptor.rawValue }

    deinit { _ = Glibc.close(descriptor.rawValue) }
}

/// A pipe whose two ends are close-on-exec (`pipe2` with `O_CLOEXEC` is glibc's, not in
/// Swift's Glibc module): read end first. The flags are set before the ends are handed
/// out; a child spawned by another thread in between is the one window left.
func closeOnExecPipe() throws(Errno) -> (read: Int32, write: Int32) {
    var fds: [Int32] = [-1, -1]
    guard pipe(&fds) == 0 else { throw .current }
    for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    return (fds[0], fds[1])
}
