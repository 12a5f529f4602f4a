import Glibc

/// A child process in a process group of its own, started with `posix_spawn`: standard
/// input and output on /dev/null, standard error into a pipe the parent reads, the signal
/// mask cleared and SIGINT, SIGTERM and SIGPIPE at their defaults (whatever the parent
/// blocks or ignores). Stopping it stops its whole group, so a shell's own children
/// cannot outlive it or hold the pipe open.
public struct SpawnedProcess: Sendable {
    public let pid: pid_t
    /// The read end of the child's standard error (close-on-exec), closed with its last reference.
    public let standardError: OwnedFileDescriptor

    /// Starts `arguments[0]` (a path, run as it is: no search, no shell) with the rest.
    public static func start(_ arguments: [String]) throws(Errno) -> SpawnedProcess {
        precondition(!arguments.isEmpty, "a child needs a program")
        let (readEnd, writeEnd) = try closeOnExecPipe()
        let fds = [readEnd, writeEnd]
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, fds[1], 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGPIPE] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let result = posix_spawn(&pid, arguments[0], &actions, &attributes, argv, environ)
        close(fds[1])
        guard result == 0 else {
            close(fds[0])
            throw Errno(rawValue: result)
        }
        return SpawnedProcess(pid: pid, standardError: OwnedFileDescriptor(taking: fds[0]))
    }

    /// Waits for the child to exit (blocking: a dedicated thread only) and says how, as a
    /// shell would: its exit status, or 128 plus the signal that ended it.
    public func reap() -> Int32 {
        var status: Int32 = 0
        _ = try? retryingOnInterrupt { waitpid(pid, &status, 0) }
        let exited = status & 0x7f == 0
        return exited ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }

    /// Sends `signal` to the child's whole process group. Only before `reap` returns: after
    /// it, the id may belong to another process.
    public func signalGroup(_ signal: Int32) { kill(-pid, signal) }
}
