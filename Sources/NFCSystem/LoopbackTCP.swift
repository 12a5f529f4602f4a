import Glibc

/// TCP to a port on 127.0.0.1 only, for the local services the bench talks to (vpcd).
public enum LoopbackTCP {
    /// Connects within `timeoutMs` (a connect can hang on a listener with no backlog; a
    /// hung connect must not keep its caller from stopping), with Nagle off.
    public static func connect(port: UInt16, timeoutMs: Int32) throws(Errno) -> OwnedFileDescriptor {
        let socket = OwnedFileDescriptor(
            taking: try retryingOnInterrupt {
                Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            })
        try socket.descriptor.setNonBlocking(true)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(socket.rawValue, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        if result != 0 {
            guard Errno.current == Errno(rawValue: EINPROGRESS) else { throw Errno.current }
            var request = pollfd(fd: socket.rawValue, events: Int16(POLLOUT), revents: 0)
            guard try retryingOnInterrupt({ poll(&request, 1, timeoutMs) }) == 1 else { throw Errno(rawValue: ETIMEDOUT) }
            var error: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            try retryingOnInterrupt { getsockopt(socket.rawValue, SOL_SOCKET, SO_ERROR, &error, &length) }
            if error != 0 { throw Errno(rawValue: error) }
        }
        try socket.descriptor.setNonBlocking(false)
        try setOption(socket.descriptor, TCP_NODELAY)
        return socket
    }

    /// Asks for immediate ACKs: without it each request waits for a delayed ACK (~40 ms).
    /// Linux clears the flag after use, so callers set it again after every read.
    public static func acknowledgeQuickly(_ socket: FileDescriptor) { try? setOption(socket, TCP_QUICKACK) }

    static func setOption(_ socket: FileDescriptor, _ option: Int32) throws(Errno) {
        var one: Int32 = 1
        try retryingOnInterrupt {
            setsockopt(socket.rawValue, Int32(IPPROTO_TCP), option, &one, socklen_t(MemoryLayout<Int32>.size))
        }
    }
}

extension FileDescriptor {
    /// Exactly `count` bytes from a stream socket; `nil` when the peer closes first.
    public func receiveExactly(_ count: Int) throws(Errno) -> [UInt8]? {
        var bytes: [UInt8] = []
        while bytes.count < count {
            let chunk = try read(upTo: count - bytes.count)
            if chunk.isEmpty { return nil }
            bytes += chunk
        }
        return bytes
    }

    /// All of `bytes` on a socket, never raising SIGPIPE when the peer has gone (EPIPE instead).
    public func send(_ bytes: [UInt8]) throws(Errno) {
        var rest = bytes[...]
        while !rest.isEmpty {
            let sent = try rest.withUnsafeBytes { buffer in
                Result { () throws(Errno) in
                    try retryingOnInterrupt { Glibc.send(rawValue, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL)) }
                }
            }.get()
            rest = rest.dropFirst(sent)
        }
    }
}
