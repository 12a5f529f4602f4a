import NFCReaders
import Synchronization

/// One operator command and when it reached the run. The stamp is taken as the key
/// arrives, not when a wait reads it: on a loaded machine the wait may run late, and a
/// key typed too soon must still be seen as too soon.
struct ArrivedCommand: Sendable {
    let command: OperatorCommand
    /// On the run's bench clock.
    let arrived: Duration
}

/// Holds values from a stream until someone asks, so a command typed between two waits
/// is not lost when the wait that would have read it was cancelled.
final class AsyncStreamBuffer: Sendable {
    private let clock: any BenchClock
    init(clock: any BenchClock) { self.clock = clock }
    private let state = Mutex<(values: [ArrivedCommand], waiter: CheckedContinuation<ArrivedCommand?, Never>?, closed: Bool)>(
        ([], nil, false))

    func feed(from stream: AsyncStream<OperatorCommand>) {
        Task { [self] in
            for await value in stream { push(ArrivedCommand(command: value, arrived: clock.now)) }
            close()
        }
    }

    func push(_ value: ArrivedCommand) {
        let waiter = state.withLock { s -> CheckedContinuation<ArrivedCommand?, Never>? in
            if let w = s.waiter { s.waiter = nil; return w }
            s.values.append(value)
            return nil
        }
        waiter?.resume(returning: value)
    }

    /// A value already waiting, without waiting for one.
    func poll() -> ArrivedCommand? {
        state.withLock { s in s.values.isEmpty ? nil : s.values.removeFirst() }
    }

    /// Puts back a value a reader took but did not use, for the next reader; it keeps
    /// the time it first arrived.
    func unread(_ value: ArrivedCommand) {
        let waiter = state.withLock { s -> CheckedContinuation<ArrivedCommand?, Never>? in
            if let w = s.waiter { s.waiter = nil; return w }
            s.values.insert(value, at: 0)
            return nil
        }
        waiter?.resume(returning: value)
    }

    func next() async -> ArrivedCommand? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<ArrivedCommand?, Never>) in
                let immediate: ArrivedCommand?? = state.withLock { s in
                    if !s.values.isEmpty { return .some(s.values.removeFirst()) }
                    // Cancelled before registering: onCancel already ran and found no waiter.
                    if s.closed || Task.isCancelled { return .some(nil) }
                    s.waiter = continuation
                    return .none
                }
                if let immediate { continuation.resume(returning: immediate) }
            }
        } onCancel: {
            let waiter = state.withLock { s -> CheckedContinuation<ArrivedCommand?, Never>? in
                defer { s.waiter = nil }
                return s.waiter
            }
            waiter?.resume(returning: nil)
        }
    }

    func close() {
        let waiter = state.withLock { s -> CheckedContinuation<ArrivedCommand?, Never>? in
            s.closed = true
            defer { s.waiter = nil }
            return s.waiter
        }
        waiter?.resume(returning: nil)
    }
}
