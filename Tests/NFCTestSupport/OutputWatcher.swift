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
        func seen() -> Bool { output.components(separatedBy: needle).count - 1 >= count }
        // Looked at once more after the deadline: a task resumed late by a busy pool must
        // not call text that arrived while it slept missing.
        while ContinuousClock.now < deadline {
            if seen() { return true }
            if closed.load(ordering: .acquiring) { return seen() }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return seen()
    }
}
