import Glibc

/// A system call's error number, typed: thrown by the calls in this module and caught by
/// value (`catch Errno.wouldBlock`), never read from the global `errno` elsewhere.
public struct Errno: Error, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: Int32

    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The calling thread's `errno`, read at once after the failed call.
    public static var current: Errno { Errno(rawValue: errno) }

    public static let interrupted = Errno(rawValue: EINTR)
    public static let wouldBlock = Errno(rawValue: EAGAIN)
    public static let ioError = Errno(rawValue: EIO)
    public static let noSuchFile = Errno(rawValue: ENOENT)
    public static let fileExists = Errno(rawValue: EEXIST)
    public static let permissionDenied = Errno(rawValue: EACCES)
    public static let notPermitted = Errno(rawValue: EPERM)
    public static let noSpace = Errno(rawValue: ENOSPC)
    public static let brokenPipe = Errno(rawValue: EPIPE)
    public static let badDescriptor = Errno(rawValue: EBADF)
    public static let isDirectory = Errno(rawValue: EISDIR)
    public static let connectionRefused = Errno(rawValue: ECONNREFUSED)

    /// The C library's words (`strerror`).
    public var description: String { String(cString: strerror(rawValue)) }

    /// `catch Errno.noSpace { ... }`.
    public static func ~= (pattern: Errno, error: any Error) -> Bool { (error as? Errno) == pattern }
}

/// Runs a system call again for as long as a signal interrupts it (EINTR); any other
/// failure (`-1`) throws its `Errno`. The one retry loop in the package.
@discardableResult
public func retryingOnInterrupt<Result: FixedWidthInteger>(_ call: () -> Result) throws(Errno) -> Result {
    while true {
        let result = call()
        if result != -1 { return result }
        let error = Errno.current
        if error != .interrupted { throw error }
    }
}
