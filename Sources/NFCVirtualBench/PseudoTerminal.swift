import Foundation

/// A pseudo-terminal pair standing in for a USB-serial port, reachable through a
/// stable symlink (`pn532_uart:<link>`), since pty numbers change.
///
/// The slave side is opened and set raw before any client connects, and kept open:
/// otherwise the line discipline would echo the first bytes back to the client, and
/// the master would see EIO whenever no client holds the slave.
final class PseudoTerminal {
    let master: Int32
    private let slave: Int32
    let slavePath: String

    /// `TIOCSPTLCK` and `TIOCGPTN` from <asm-generic/ioctls.h>; Swift cannot import `_IOW` macros.
    private static let setLock: UInt = 0x4004_5431
    private static let getNumber: UInt = 0x8004_5430

    init(linkPath: String) throws {
        // posix_openpt/grantpt/unlockpt/ptsname, spelled as Linux implements them:
        // open the multiplexer, clear the lock, ask for the slave number.
        let fd = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        guard fd >= 0 else { throw BenchError.system("open /dev/ptmx", errno) }
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard ioctl(fd, Self.setLock, &unlock) == 0, ioctl(fd, Self.getNumber, &number) == 0 else {
            let e = errno
            Foundation.close(fd)
            throw BenchError.system("pty ioctl", e)
        }
        let path = "/dev/pts/\(number)"
        let slaveFD = open(path, O_RDWR | O_NOCTTY)
        guard slaveFD >= 0 else {
            let e = errno
            Foundation.close(fd)
            throw BenchError.system("open \(path)", e)
        }
        var tio = termios()
        tcgetattr(slaveFD, &tio)
        cfmakeraw(&tio)
        tcsetattr(slaveFD, TCSANOW, &tio)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        unlink(linkPath)
        guard symlink(path, linkPath) == 0 else {
            let e = errno
            Foundation.close(fd)
            Foundation.close(slaveFD)
            throw BenchError.system("symlink \(linkPath)", e)
        }
        master = fd
        slave = slaveFD
        slavePath = path
    }

    /// Up to `max` bytes, waiting at most `timeoutMs`; `nil` when the link is gone.
    func read(max: Int = 512, timeoutMs: Int32) -> [UInt8]? {
        var pfd = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        let ready = poll(&pfd, 1, timeoutMs)
        if ready <= 0 { return ready < 0 && errno != EINTR ? nil : [] }
        var buffer = [UInt8](repeating: 0, count: max)
        let n = Foundation.read(master, &buffer, max)
        if n < 0 { return errno == EAGAIN || errno == EINTR || errno == EIO ? [] : nil }
        return Array(buffer.prefix(n))
    }

    func write(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Foundation.write(master, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EAGAIN || errno == EINTR { usleep(200); continue }
                return
            }
            offset += n
        }
    }

    func close() {
        Foundation.close(master)
        Foundation.close(slave)
    }
}

/// Setting up or running the bench failed.
public struct BenchError: Error, CustomStringConvertible, Sendable {
    public let description: String

    static func system(_ call: String, _ code: Int32) -> BenchError {
        BenchError(description: "\(call) failed: \(String(cString: strerror(code)))")
    }

    public init(description: String) { self.description = description }
}
