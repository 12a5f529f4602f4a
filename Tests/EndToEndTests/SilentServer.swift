import Foundation
import Synchronization

/// A loopback TCP server that accepts and never answers: a lab store that hung. It keeps
/// every connection and tells when each was closed by the other end.
final class SilentServer: Sendable {
    let port: UInt16
    private let listener: Int32
    private let connections = Mutex<[Int32]>([])
    private let stopped = Mutex(false)

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 16) == 0 else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [self] in
            while !stopped.withLock({ $0 }) {
                var poller = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
                guard poll(&poller, 1, 50) > 0 else { continue }
                let connection = accept(listener, nil, nil)
                if connection >= 0 { connections.withLock { $0.append(connection) } }
            }
        }
        thread.start()
    }

    var accepted: Int { connections.withLock { $0.count } }

    /// Whether every connection so far was closed by the client: what it sent is read and
    /// dropped, then a read gives end of file (an open connection would block instead).
    var allClosedByClient: Bool {
        connections.withLock { fds in
            fds.allSatisfy { fd in
                var buffer = [UInt8](repeating: 0, count: 4096)
                while true {
                    let count = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
                    if count == 0 { return true }
                    if count < 0 { return false }  // EAGAIN: still open
                }
            }
        }
    }

    deinit {
        stopped.withLock { $0 = true }
        usleep(100_000)
        for fd in connections.withLock({ $0 }) { close(fd) }
        close(listener)
    }
}
