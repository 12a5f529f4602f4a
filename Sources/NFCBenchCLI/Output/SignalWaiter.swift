import Foundation
import NFCSystem
import Synchronization

/// Written once by `SignalWaiter.install()` before the handlers are installed, then only
/// read, from the async-signal-safe handler.
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1

/// Turns SIGINT/SIGTERM into events, so long-running commands clean up (restore
/// reader parameters, save sessions) instead of dying mid-write.
///
/// The classic self-pipe: the C handler only writes the signal number to a pipe (safe
/// in a signal handler, whichever thread takes the signal), and a dedicated thread
/// reads it and runs the registered handlers. Dispatch signal sources are not used: on
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

    /// Call first thing in `main`.
    public static func install() {
        // A parent may start us with these blocked (Foundation's Process on Linux spawns
        // from a thread that blocks most signals); then Ctrl-C would never arrive.
        var mask = sigset_t()
        sigemptyset(&mask)
        sigaddset(&mask, SIGINT)
        sigaddset(&mask, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &mask, nil)
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return }
        signalPipeWriteEnd = fds[1]
        let readEnd = fds[0]
        for signo in [SIGINT, SIGTERM] {
            signal(signo) { received in
                var byte = UInt8(truncatingIfNeeded: received)
                _ = write(signalPipeWriteEnd, &byte, 1)
            }
        }
        let thread = Thread {
            // One byte per signal; the pipe's end (or an error) ends the thread.
            while let byte = try? FileDescriptor(rawValue: readEnd).read(upTo: 1).first { deliver(Int32(byte)) }
        }
        thread.name = "signals"
        thread.start()
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
    }

    /// Registers `handler` for the first SIGINT/SIGTERM.
    public static func onTermination(_ handler: @escaping @Sendable (Int32) -> Void) {
        state.withLock { $0.handlers.append(handler) }
    }

    /// Suspends until SIGINT or SIGTERM arrives.
    public static func waitForTermination() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            onTermination { _ in continuation.resume() }
        }
    }
}
