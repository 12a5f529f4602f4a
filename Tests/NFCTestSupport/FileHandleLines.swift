import Foundation
import NFCSystem

extension FileHandle {
    /// The first line that arrives within `timeout` seconds. Through `NFCSystem`, so a
    /// signal interrupting the wait (the many children of the parallel pass exiting) is
    /// retried instead of ending it as if the writer had closed its end.
    public func availableLine(timeout: TimeInterval) -> String? {
        var data = Data()
        let deadline = Date().addingTimeInterval(timeout)
        let descriptor = FileDescriptor(rawValue: fileDescriptor)
        while Date() < deadline {
            guard (try? descriptor.waitUntilReadable(timeoutMs: 100)) == true else { continue }
            guard let byte = try? descriptor.read(upTo: 1).first else { return nil }
            if byte == UInt8(ascii: "\n") { return String(decoding: data, as: UTF8.self) }
            data.append(byte)
        }
        return nil
    }
}
