import Dispatch
import Foundation
import Synchronization

/// Turns SIGINT/SIGTERM into async events, so long-running commands clean up
/// (restore reader parameters, save sessions) instead of dying mid-write.
public enum SignalWaiter {
    /// Suspends until SIGINT or SIGTERM arrives. The default handlers are replaced
    /// for the rest of the process.
    public static func waitForTermination() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            onTermination { _ in continuation.resume() }
        }
    }

    /// Calls `handler` (once) with the signal number on the first SIGINT/SIGTERM.
    public static func onTermination(_ handler: @escaping @Sendable (Int32) -> Void) {
        let once = OnceFlag()
        for signo in [SIGINT, SIGTERM] {
            signal(signo, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signo, queue: .global())
            source.setEventHandler {
                if once.claim() { handler(signo) }
            }
            source.resume()
            Retained.sources.append(source)
        }
    }

    /// Keeps signal sources alive for the process lifetime.
    private enum Retained {
        nonisolated(unsafe) static var sources: [any DispatchSourceSignal] = []
        // nonisolated(unsafe): appended to only from onTermination, which commands call
        // once, from their own task, before any signal can arrive.
    }
}

final class OnceFlag: Sendable {
    private let flag = Synchronization.Atomic<Bool>(false)
    func claim() -> Bool { flag.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged }
}
