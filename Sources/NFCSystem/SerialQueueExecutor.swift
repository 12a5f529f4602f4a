import Dispatch

/// Runs an actor's jobs on a dispatch queue of its own, so the actor's blocking work
/// (fsync'd SQLite commits, a busy timeout of several seconds) never occupies one of
/// Swift's cooperative threads, which on a 2-core bench would stall every other task.
/// GRDB's one-writer queue is the model: one queue per connection, jobs in order.
public final class SerialQueueExecutor: SerialExecutor {
    private let queue: DispatchQueue

    public init(label: String) { queue = DispatchQueue(label: label) }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }

    /// Runs `body` on the queue and returns its result to the awaiting task, for work
    /// that must happen before the owning actor exists (opening its connection).
    public func run<T>(_ body: @escaping @Sendable () throws -> sending T) async throws -> sending T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, Error>) in
            queue.async {
                do { continuation.resume(returning: try body()) } catch { continuation.resume(throwing: error) }
            }
        }
    }
}

/// Blocking work a task must wait for (a C library that probes ports, a child's exit, a
/// read until end of file), run on a thread of its own so it never holds one of Swift's
/// few cooperative threads. The one way the package does this outside an actor's executor.
public enum BlockingWork {
    /// Runs `body` on a fresh serial queue named `label` (as debuggers and `ps -L` show it).
    public static func run<T: Sendable>(_ label: String, _ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            DispatchQueue(label: label).async { continuation.resume(returning: body()) }
        }
    }
}
