import Glibc

/// Standard error turned into a pipe the process reads itself, the real one kept aside:
/// how the command-line program sorts a C library's log lines (which it writes to
/// descriptor 2 directly) from its own messages.
public struct StandardErrorDiversion: Sendable {
    /// The real standard error (close-on-exec), for writes that skip the pipe.
    public let realStandardError: FileDescriptor
    /// The pipe's read end (close-on-exec): what anything writes to descriptor 2 arrives here.
    public let pipeReadEnd: FileDescriptor

    /// Points descriptor 2 at a new pipe. Nothing changes when a call fails.
    public static func begin() throws(Errno) -> StandardErrorDiversion {
        let real = fcntl(2, F_DUPFD_CLOEXEC, 3)
        guard real >= 0 else { throw .current }
        let fds: [Int32]
        do {
            let (readEnd, writeEnd) = try closeOnExecPipe()
            fds = [readEnd, writeEnd]
        } catch {
            close(real)
            throw error
        }
        guard dup2(fds[1], 2) >= 0 else {
            let error = Errno.current
            close(real)
            close(fds[0])
            close(fds[1])
            throw error
        }
        close(fds[1])
        return StandardErrorDiversion(
            realStandardError: FileDescriptor(rawValue: real), pipeReadEnd: FileDescriptor(rawValue: fds[0]))
    }

    /// Descriptor 2 is the real standard error again, which closes the pipe's write end:
    /// its reader sees the end of the pipe once every child holding it has gone.
    public func end() { Self.restore(realStandardError: realStandardError) }

    /// `end` for a diversion known only by its real standard error (at exit).
    public static func restore(realStandardError: FileDescriptor) { dup2(realStandardError.rawValue, 2) }

    /// `end`, and both descriptors closed: for a diversion no one will read.
    public func abandon() {
        end()
        close(pipeReadEnd.rawValue)
        close(realStandardError.rawValue)
    }
}
