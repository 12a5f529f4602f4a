import Glibc

/// A serial line: a USB-serial adapter's tty, or the slave side of a pseudo-terminal
/// standing in for one. Opened raw (no echo, no line editing, 8N1) at a baud rate, and
/// held under an exclusive `flock` so a second program gets "busy" instead of
/// interleaving frames with ours.
public final class SerialPort: Sendable {
    public let path: String
    public let file: OwnedFileDescriptor

    public var descriptor: FileDescriptor { file.descriptor }

    private init(path: String, file: OwnedFileDescriptor) {
        self.path = path
        self.file = file
    }

    /// Opens `path` read-write, raw at `baud`, locked exclusively. `Errno.wouldBlock`: another
    /// process holds the lock.
    public static func open(_ path: String, baud: Int = 115_200) throws(Errno) -> SerialPort {
        _ = try speedConstant(baud)  // a rate termios lacks is refused before the port is touched
        let file = try OwnedFileDescriptor.open(path, O_RDWR | O_NOCTTY | O_NONBLOCK)
        try file.descriptor.lockExclusively()
        try configureRaw(file.descriptor, baud: baud)
        return SerialPort(path: path, file: file)
    }

    /// Only the lock, for a port another library opens itself (libnfc's `pn532_uart`):
    /// held for as long as the returned descriptor lives.
    public static func lock(_ path: String) throws(Errno) -> OwnedFileDescriptor {
        let file = try OwnedFileDescriptor.open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK)
        try file.descriptor.lockExclusively()
        return file
    }

    /// A new pseudo-terminal pair: the master end for the emulator, and the slave end,
    /// opened raw and kept open (else the line discipline echoes a client's first bytes,
    /// and the master reads EIO whenever no client holds the slave).
    public static func pseudoTerminal() throws(Errno) -> (master: OwnedFileDescriptor, slave: SerialPort) {
        // posix_openpt/grantpt/unlockpt/ptsname, spelled as Linux implements them: open the
        // multiplexer, clear the lock (TIOCSPTLCK), ask for the slave number (TIOCGPTN);
        // Swift cannot import the _IOW macros, so their values from <asm-generic/ioctls.h>.
        let master = try OwnedFileDescriptor.open("/dev/ptmx", O_RDWR | O_NOCTTY)
        var unlock: Int32 = 0
        var number: UInt32 = 0
        try retryingOnInterrupt { ioctl(master.rawValue, UInt(0x4004_5431), &unlock) }
        try retryingOnInterrupt { ioctl(master.rawValue, UInt(0x8004_5430), &number) }
        let path = "/dev/pts/\(number)"
        let slave = try OwnedFileDescriptor.open(path, O_RDWR | O_NOCTTY)
        try configureRaw(slave.descriptor, baud: 115_200)
        try master.descriptor.setNonBlocking(true)
        return (master, SerialPort(path: path, file: slave))
    }

    static func configureRaw(_ descriptor: FileDescriptor, baud: Int) throws(Errno) {
        var settings = termios()
        try retryingOnInterrupt { tcgetattr(descriptor.rawValue, &settings) }
        cfmakeraw(&settings)
        let speed = try speedConstant(baud)
        try retryingOnInterrupt { cfsetispeed(&settings, speed) }
        try retryingOnInterrupt { cfsetospeed(&settings, speed) }
        try retryingOnInterrupt { tcsetattr(descriptor.rawValue, TCSANOW, &settings) }
    }

    /// termios's constant for `baud`; a rate it has none for is EINVAL.
    static func speedConstant(_ baud: Int) throws(Errno) -> speed_t {
        let rates: [Int: speed_t] = [
            9600: speed_t(B9600), 19_200: speed_t(B19200), 38_400: speed_t(B38400), 57_600: speed_t(B57600),
            115_200: speed_t(B115200), 230_400: speed_t(B230400),
        ]
        guard let speed = rates[baud] else { throw Errno(rawValue: EINVAL) }
        return speed
    }
}
