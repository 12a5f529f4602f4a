import Foundation
import Synchronization

/// A dedicated thread that a bench component runs its loop on, with an orderly stop:
/// `stop()` asks the loop to end and returns once it has (the loop checks
/// `shouldStop` at least every few milliseconds). Tracing goes to stderr when
/// `NFCBENCH_SIM_LOG=1`.
final class BenchWorker: Sendable {
    private let stopped = Mutex(false)
    private let finished = Mutex(false)
    private let name: String
    private let log: Bool

    init(name: String, log: Bool = ProcessInfo.processInfo.environment["NFCBENCH_SIM_LOG"] == "1") {
        self.name = name
        self.log = log
    }

    var shouldStop: Bool { stopped.withLock { $0 } }

    func start(_ loop: @escaping @Sendable () -> Void) {
        let thread = Thread { [self] in
            loop()
            finished.withLock { $0 = true }
        }
        thread.name = name
        thread.start()
    }

    func stop() {
        stopped.withLock { $0 = true }
        while !finished.withLock({ $0 }) { usleep(1000) }
    }

    func trace(_ message: @autoclosure () -> String) {
        if log { FileHandle.standardError.write(Data("\(name): \(message())\n".utf8)) }
    }
}
