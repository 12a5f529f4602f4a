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

    /// Waits up to `patience` for a lock another holder is about to let go of: a process
    /// that is exiting, or a reader of this process dropped a moment ago whose last
    /// libnfc call is still unwinding on its queue. A port held for longer is busy.
    static func acquire(path: String, patience: Duration) throws(ReaderError) -> SerialPortLock {
        let deadline = ContinuousClock.now + patience
        while true {
            do throws(ReaderError) {
                return try SerialPortLock(path: path)
            } catch {
                guard error.code == .busy, ContinuousClock.now < deadline else { throw error }
                usleep(20_000)
            }
        }
    }
}
