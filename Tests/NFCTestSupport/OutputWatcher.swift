import Foundation
import Synchronization

/// Collects what a child writes to a pipe, on a thread of its own, and lets a test wait
/// for a given text to appear: the child's own words that something happened, instead
/// of a guessed sleep that a loaded machine overruns.
public final class OutputWatcher: Sendable {
    private let text = Mutex("")
    private let closed = Atomic<Bool>(false)

    public init(_ pipe: Pipe) {
        let handle = pipe.fileHandleForReading
        Thread { [self] in
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                text.withLock { $0 += String(decoding: chunk, as: UTF8.self) }
            }
            closed.store(true, ordering: .releasing)
        }.start()
    }

    public var output: String { text.withLock { $0 } }

    /// Waits until `needle` has appeared `count` times in total, the pipe closes, or
    /// `timeout` passes; returns whether it appeared.
    public func wait(for needle: String, count: Int = 1, timeout: Duration = .seconds(20)) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if output.components(separatedBy: needle).count - 1 >= count { return true }
            if closed.load(ordering: .acquiring) { return output.components(separatedBy: needle).count - 1 >= count }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return false
    }
}
