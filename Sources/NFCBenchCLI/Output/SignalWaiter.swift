import Foundation
import NFCSystem
import Synchronization

/// Written once by `SignalWaiter.listen()` before the handlers are installed, then only
/// read, from the async-signal-safe handler.
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1

/// Signals received, counted by the handler itself (a lock-free atomic is safe there), so
/// a command that fails because of one knows it at once, before the pipe's reader runs.
private let signalsArrived = Atomic<Int>(0)

/// Turns SIGINT/SIGTERM into events, so long-running commands clean up (restore
/// reader parameters, save sessions) instead of dying mid-write.
///
/// The classic self-pipe: the C handler only writes the signal number to a pipe (safe
/// in a signal handler, whichever thread takes the signal), and a dispatch read source
/// on the pipe runs the registered handlers. Dispatch signal sources are not used: on
/// Linux they sit on `signalfd`, which needs the signal blocked in every thread, and the
/// runtime starts threads before `main` can block anything.
/// The first signal runs the handlers; a second one exits at once with 128 + signal,
/// as a second Ctrl-C should.
public enum SignalWaiter {
    private static let state = Mutex<(handlers: [@Sendable (Int32) -> Void], received: Int)>(([], 0))
    private static let exitHooks = Mutex<[@Sendable () -> Void]>([])

    /// Runs `hook` before a second signal ends the process at once (which skips `atexit`):
    /// a terminal in raw mode is put back first.
    static func beforeImmediateExit(_ hook: @escaping @Sendable () -> Void) {
        exitHooks.withLock { $0.append(hook) }
    }

    /// Call first thing in `main`: only unblocks the signals. The handlers, their pipe and
    /// its reader are set up when a command first asks to hear of a signal, so a command
    /// that never does (`--version`, help) starts nothing.
    public static func install() {
        // A parent may start us with these blocked (Foundation's Process on Linux spawns
        // from a thread that blocks most signals); then Ctrl-C would never arrive.
        var mask = sigset_t()
        sigemptyset(&mask)
        sigaddset(&mask, SIGINT)
        sigaddset(&mask, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &mask, nil)
    }

    /// The pipe's reader, set up once by `listen()`; kept so it is never released.
    private static let reader = Mutex<(any DispatchSourceRead)?>(nil)

    /// The self-pipe, its C handlers and the dispatch source that reads it, once. A read
    /// source on the pipe (epoll in dispatch's own event thread) rather than a thread of
    /// our own: a one-shot command's start-up paid more for that thread than for its work.
    private static func listen() {
        reader.withLock { reader in
            guard reader == nil else { return }
            var fds: [Int32] = [-1, -1]
            guard pipe(&fds) == 0 else { return }
            _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
            _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
            _ = fcntl(fds[0], F_SETFL, O_NONBLOCK)
            signalPipeWriteEnd = fds[1]
            let readEnd = fds[0]
            let source = DispatchSource.makeReadSource(fileDescriptor: readEnd, queue: .global())
            source.setEventHandler {
                // One byte per signal; what is there now is read, the rest wakes us again.
                while let bytes = try? FileDescriptor(rawValue: readEnd).read(upTo: 16), !bytes.isEmpty {
                    for byte in bytes { deliver(Int32(byte)) }
                }
            }
            source.resume()
            reader = source
            for signo in [SIGINT, SIGTERM] {
                signal(signo) { received in
                    signalsArrived.add(1, ordering: .relaxed)
                    var byte = UInt8(truncatingIfNeeded: received)
                    _ = write(signalPipeWriteEnd, &byte, 1)
                }
            }
        }
    }

    static func deliver(_ signo: Int32) {
        let handlers = state.withLock { s -> [@Sendable (Int32) -> Void]? in
            s.received += 1
            return s.received == 1 ? s.handlers : nil
        }
        guard let handlers else {
            for hook in exitHooks.withLock({ $0 }) { hook() }
            _exit(128 + signo)
        }
        for handler in handlers { handler(signo) }
        // A command that cannot stop promptly (a call into a C library that waits out its
        // own timeout) is ended after a grace period, as a second signal would: everything
        // nfcbench stores survives that (it is crash-safe against kill -9), and a script's
        // `timeout` or systemd's stop must not wait for a store's 25 s bound.
        try? DetachedThread.start {
            usleep(UInt32(graceSeconds * 1_000_000))
            FileHandle.standardError.write(
                Data("nfcbench: still busy \(Int(graceSeconds)) s after the signal; stopped.\n".utf8))
            for hook in exitHooks.withLock({ $0 }) { hook() }
            _exit(130)  // interrupted, as the README's table says for Ctrl-C and SIGTERM alike
        }
    }

    /// How long a command has to end by itself after the first SIGINT/SIGTERM.
    static let graceSeconds = 10.0

    /// Whether a SIGINT or SIGTERM arrived: a command that failed after one was interrupted.
    static var interrupted: Bool { signalsArrived.load(ordering: .relaxed) > 0 }

    /// Registers `handler` for the first SIGINT/SIGTERM.
    public static func onTermination(_ handler: @escaping @Sendable (Int32) -> Void) {
        state.withLock { $0.handlers.append(handler) }
        listen()
    }

    /// Suspends until SIGINT or SIGTERM arrives.
    public static func waitForTermination() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            onTermination { _ in continuation.resume() }
        }
    }
}
