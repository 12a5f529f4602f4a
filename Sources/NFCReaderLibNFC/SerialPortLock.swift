import Foundation
import NFCReaders
import NFCSystem

/// An exclusive advisory lock (`flock`) on a serial reader's device node, held while
/// nfcbench uses it.
///
/// libnfc's own guard (the `CCLAIMED` termios flag) does not survive on Linux ttys, so
/// two programs could drive one PN532 at once and corrupt each other's frames. Tools
/// that honour `flock` (pyserial's `exclusive=True`, other nfcbench processes) are kept
/// out; the lock disappears with the process, so a killed run leaves nothing stale.
final class SerialPortLock {
    private let lock: OwnedFileDescriptor

    init(path: String) throws(ReaderError) {
        do throws(Errno) {
            lock = try SerialPort.lock(path)
        } catch .wouldBlock {
            throw ReaderError(
                .busy, "Reader '\(path)' is in use by another process.",
                hint: "Close the other nfcbench run using it (see 'fuser \(path)').")
        } catch {
            throw ReaderError(
                .noReader, "No serial reader at '\(path)'.",
                hint: "Plug the reader in and check the port name ('ls /dev/ttyUSB* /dev/ttyACM*').",
                underlying: error.description)
        }
    }

    /// The serial port a connstring names, for drivers that use one.
    static func serialPath(of connstring: String) -> String? {
        let parts = connstring.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count >= 2, ["pn532_uart", "acr122s", "arygon"].contains(String(parts[0])), !parts[1].isEmpty
        else { return nil }
        return String(parts[1])
    }
}
