import Foundation
import NFCSystem

/// A pseudo-terminal pair standing in for a USB-serial port, reachable through a
/// stable symlink (`pn532_uart:<link>`), since pty numbers change. The pair itself is
/// `SerialPort.pseudoTerminal` (raw slave kept open, non-blocking master).
final class PseudoTerminal {
    private var master: OwnedFileDescriptor?
    private var slave: SerialPort?
    let slavePath: String

    init(linkPath: String) throws(VirtualBenchError) {
        let pair: (master: OwnedFileDescriptor, slave: SerialPort)
        do { pair = try SerialPort.pseudoTerminal() } catch { throw .pseudoTerminal(error) }
        do { try FileSystemCalls.replaceLink(linkPath, to: pair.slave.path) } catch { throw .link(path: linkPath, error) }
        master = pair.master
        slave = pair.slave
        slavePath = pair.slave.path
    }

    /// Up to `max` bytes, waiting at most `timeoutMs`; `nil` when the link is gone.
    func read(max: Int = 512, timeoutMs: Int32) -> [UInt8]? {
        guard let link = master?.descriptor else { return nil }
        do {
            guard try link.waitUntilReadable(timeoutMs: timeoutMs) else { return [] }
            return try link.read(upTo: max)
        } catch .wouldBlock, .ioError {
            // Nothing after all, or no client holds the slave this instant.
            return []
        } catch {
            return nil
        }
    }

    func write(_ bytes: [UInt8]) {
        guard let link = master?.descriptor else { return }
        var rest = bytes[...]
        while !rest.isEmpty {
            do {
                rest = rest.dropFirst(
                    try rest.withUnsafeBytes { buffer in Result { () throws(Errno) in try link.write(buffer) } }.get())
            } catch .wouldBlock {
                // The client reads slower than the chip answers: wait for its buffer to drain,
                // then write on (a closed link fails the next write and ends this).
                _ = try? link.waitUntilWritable(timeoutMs: 1000)
            } catch {
                return
            }
        }
    }

    /// Closes both ends: the host sees its port vanish.
    func close() {
        master = nil
        slave = nil
    }
}
