import Dispatch
import Foundation
import NFCSystem
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// One child (`/bin/sh -c LINE`, or a program with its arguments) in a process group of its own, waited for on a dedicated
/// queue (never a cooperative thread), with its standard error captured. A timeout or
/// the waiting task's cancellation stops the whole group (SIGTERM, then SIGKILL after
/// two seconds), so a shell's own children cannot outlive it or hold the pipe open.
final class ChildCommand: Sendable {
    enum Outcome: Sendable, Equatable {
        case exited(Int32, stderr: String)
        case timedOut(stderr: String)
        case cancelled
    }

    private enum Stop { case none, timeout, cancel }

    private struct State {
        var pid: pid_t = 0
        var reaped = false
        var stop = Stop.none
    }

    /// The program, then its arguments.
    let arguments: [String]
    private let state = Mutex(State())
    private let stderrRead = Mutex<Int32>(-1)
    private let queue = DispatchQueue(label: "nfcbench.child")
    /// Standard error kept for the message: the tail, at most this many bytes.
    static let stderrLimit = 16_384

    init(shellLine: String) { arguments = ["/bin/sh", "-c", shellLine] }

    /// `executable` is a path, run as it is (no search, no shell).
    init(executable: String, arguments: [String]) { self.arguments = [executable] + arguments }

    func start() throws {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw POSIXFailure("pipe", .current) }
        // Close-on-exec at once, so no other child started meanwhile inherits the pipe.
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
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
            throw POSIXFailure("posix_spawn \(arguments[0])", Errno(rawValue: result))
        }
        state.withLock { $0.pid = pid }
        stderrRead.withLock { $0 = fds[0] }
    }

    /// Waits for the child to exit, for `timeout` to pass, or for cancellation.
    func wait(timeout: Duration) async -> Outcome {
        let nanoseconds = Int(min(timeout.seconds, 86_400 * 365) * 1e9)
        queue.asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { [self] in stop(.timeout) }
        return await withTaskCancellationHandler {
            await BlockingWork.run("nfcbench.child.wait") { [self] in collect() }
        } onCancel: {
            stop(.cancel)
        }
    }

    /// Reads standard error to its end, then reaps the child. Blocking: dedicated queue only.
    private func collect() -> Outcome {
        let fd = stderrRead.withLock { $0 }
        var captured: [UInt8] = []
        while fd >= 0, let chunk = try? FileDescriptor(rawValue: fd).read(upTo: 4096), !chunk.isEmpty {
            captured.append(contentsOf: chunk)
            if captured.count > 2 * Self.stderrLimit { captured.removeFirst(captured.count - Self.stderrLimit) }
        }
        if fd >= 0 { close(fd) }
        let pid = state.withLock { $0.pid }
        var status: Int32 = 0
        _ = try? retryingOnInterrupt { waitpid(pid, &status, 0) }
        let stop = state.withLock { s -> Stop in
            s.reaped = true
            return s.stop
        }
        let text = String(decoding: captured.suffix(Self.stderrLimit), as: UTF8.self)
        switch stop {
        case .cancel: return .cancelled
        case .timeout: return .timedOut(stderr: text)
        case .none:
            let exited = status & 0x7f == 0
            return .exited(exited ? (status >> 8) & 0xff : 128 + (status & 0x7f), stderr: text)
        }
    }

    /// Stops the child's process group unless it already exited (and so its id may be reused).
    private func stop(_ reason: Stop) {
        let pid: pid_t? = state.withLock { s in
            guard !s.reaped, s.pid > 0, s.stop == .none else { return nil }
            s.stop = reason
            return s.pid
        }
        guard let pid else { return }
        kill(-pid, SIGTERM)
        queue.asyncAfter(deadline: .now() + .seconds(2)) { [self] in
            if !state.withLock({ $0.reaped }) { kill(-pid, SIGKILL) }
        }
    }
}

struct POSIXFailure: Error, CustomStringConvertible {
    let call: String
    let error: Errno
    init(_ call: String, _ error: Errno) {
        self.call = call
        self.error = error
    }
    var description: String { "\(call): \(error)" }
}
