import Foundation

/// Writes a script a test then runs, through a descriptor that closes on exec. Written
/// through Foundation, the file's writable descriptor can be inherited by children that
/// parallel tests spawn meanwhile, and running the script then fails with ETXTBSY ("text
/// file busy") while they hold it: the likely cause of a `cannot start .../fetch`
/// (NSCocoaErrorDomain 256 from Process.run, no errno shown) in the release pass.
public func writeExecutableScript(_ text: String, to path: String) throws {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
    guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    defer { close(fd) }
    let bytes = Array(text.utf8)
    var written = 0
    while written < bytes.count {
        let count = bytes[written...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        if count < 0 {
            if errno == EINTR { continue }
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        written += count
    }
    guard fchmod(fd, 0o755) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
}
