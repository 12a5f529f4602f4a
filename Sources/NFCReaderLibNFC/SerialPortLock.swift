import Foundation
import NFCReaders

/// An exclusive advisory lock (`flock`) on a serial reader's device node, held while
/// nfcbench uses it.
///
/// libnfc's own guard (the `CCLAIMED` termios flag) does not survive on Linux ttys, so
/// two programs could drive one PN532 at once and corrupt each other's frames. Tools
/// that honour `flock` (pyserial's `exclusive=True`, other nfcbench processes) are kept
/// out; the lock disappears with the process, so a killed run leaves nothing stale.
final class SerialPortLock {
    private let fd: Int32

    init(path: String) throws(ReaderError) {
        let fd = open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            throw ReaderError(
                .noReader, "No serial reader at '\(path)'.",
                hint: "Plug the reader in and check the port name ('ls /dev/ttyUSB* /dev/ttyACM*').",
                underlying: String(cString: strerror(errno)))
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            close(fd)
            throw ReaderError(
                .busy, "Reader '\(path)' is in use by another process.",
                hint: "Close the other nfcbench run using it (see 'fuser \(path)').")
        }
        self.fd = fd
    }

    deinit { close(fd) }

    /// The serial port a connstring names, for drivers that use one.
    static func serialPath(of connstring: String) -> String? {
        let parts = connstring.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count >= 2, ["pn532_uart", "acr122s", "arygon"].contains(String(parts[0])), !parts[1].isEmpty
        else { return nil }
        return String(parts[1])
    }
}
