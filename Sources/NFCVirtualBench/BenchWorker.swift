import Foundation
import Synchronization

/// A dedicated thread that a bench component runs its loop on, with an orderly stop:
/// `stop()` asks the loop to end and returns once it has (the loop checks
/// `shouldStop` at least every few milliseconds). Tracing goes to stderr when
/// `NFCBENCH_SIM_LOG=1`.
final class BenchWorker: Sendable {
    private let stopped = Mutex(false)
    private let started = Mutex(false)
    /// Signalled when the loop has returned, and again by each `stop` that waited on it.
    private let finished = DispatchSemaphore(value: 0)
    private let name: String
    private let log: Bool

    init(name: String, log: Bool = ProcessInfo.processInfo.environment["NFCBENCH_SIM_LOG"] == "1") {
        self.name = name
        self.log = log
    }

    var shouldStop: Bool { stopped.withLock { $0 } }

    func start(_ loop: @escaping @Sendable () -> Void) {
        started.withLock { $0 = true }
        let thread = Thread { [self] in
            loop()
            finished.signal()
        }
        thread.name = name
        thread.start()
    }

    /// Waits on the loop's end (no polling); returns at once for a worker never started.
    func stop() {
        stopped.withLock { $0 = true }
        guard started.withLock({ $0 }) else { return }
        finished.wait()
        finished.signal()
    }

    func trace(_ message: @autoclosure () -> String) {
        if log { FileHandle.standardError.write(Data("\(name): \(message())\n".utf8)) }
    }
}
