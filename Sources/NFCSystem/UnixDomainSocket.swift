import Glibc

/// Stream sockets on a filesystem path, for a local control channel.
public enum UnixDomainSocket {
    /// Listens on `path` (replacing a stale socket file there).
    public static func listen(_ path: String, backlog: Int32 = 16) throws(Errno) -> OwnedFileDescriptor {
        var address = try self.address(path)
        unlink(path)
        let socket = OwnedFileDescriptor(
            taking: try retryingOnInterrupt {
                Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            })
        try withUnsafePointer(to: &address) { pointer throws(Errno) in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw throws(Errno) in
                try retryingOnInterrupt { bind(socket.rawValue, raw, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
        }
        try retryingOnInterrupt { Glibc.listen(socket.rawValue, backlog) }
        return socket
    }

    /// The next connection on a listening socket.
    public static func accept(_ listening: FileDescriptor) throws(Errno) -> OwnedFileDescriptor {
        let client = OwnedFileDescriptor(taking: try retryingOnInterrupt { Glibc.accept(listening.rawValue, nil, nil) })
        // Glibc's module map lacks accept4: close-on-exec is set just after.
        try retryingOnInterrupt { fcntl(client.rawValue, F_SETFD, FD_CLOEXEC) }
        return client
    }

    public static func connect(_ path: String) throws(Errno) -> OwnedFileDescriptor {
        var address = try self.address(path)
        let socket = OwnedFileDescriptor(
            taking: try retryingOnInterrupt {
                Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            })
        try withUnsafePointer(to: &address) { pointer throws(Errno) in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw throws(Errno) in
                try retryingOnInterrupt { Glibc.connect(socket.rawValue, raw, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
        }
        return socket
    }

    /// Ends both directions, waking a thread blocked in `accept` or `read` on it.
    public static func shutdown(_ socket: FileDescriptor) {
        _ = Glibc.shutdown(socket.rawValue, Int32(SHUT_RDWR))
    }

    /// `sockaddr_un` for `path`; ENAMETOOLONG past the 107 bytes it holds.
    static func address(_ path: String) throws(Errno) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { throw Errno(rawValue: ENAMETOOLONG) }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return address
    }
}

extension FileDescriptor {
    /// One `\n`-terminated line, without it; `nil` at end of stream. At most `limit` bytes:
    /// a peer that never ends its line cannot grow it without bound.
    public func readLine(limit: Int = 65_536) throws(Errno) -> String? {
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while line.count < limit {
            let count = try withUnsafeMutableBytes(of: &byte) { buffer in Result { () throws(Errno) in try read(into: buffer) } }
                .get()
            if count == 0 { return line.isEmpty ? nil : String(decoding: line, as: UTF8.self) }
            if byte == UInt8(ascii: "\n") { return String(decoding: line, as: UTF8.self) }
            line.append(byte)
        }
        throw Errno(rawValue: EMSGSIZE)
    }

    /// `text` and a `\n`, whole.
    public func writeLine(_ text: String) throws(Errno) { try writeAll(Array((text + "\n").utf8)) }
}
