import Synchronization

/// Holds values from a stream until someone asks, so a command typed between two waits
/// is not lost when the wait that would have read it was cancelled.
final class AsyncStreamBuffer: Sendable {
    private let state = Mutex<(values: [OperatorCommand], waiter: CheckedContinuation<OperatorCommand?, Never>?, closed: Bool)>(
        ([], nil, false))

    func feed(from stream: AsyncStream<OperatorCommand>) {
        Task { [self] in
            for await value in stream { push(value) }
            close()
        }
    }

    func push(_ value: OperatorCommand) {
        let waiter = state.withLock { s -> CheckedContinuation<OperatorCommand?, Never>? in
            if let w = s.waiter { s.waiter = nil; return w }
            s.values.append(value)
            return nil
        }
        waiter?.resume(returning: value)
    }

    /// A value already waiting, without waiting for one.
    func poll() -> OperatorCommand? {
        state.withLock { s in s.values.isEmpty ? nil : s.values.removeFirst() }
    }

    /// Puts back a value a reader took but did not use, for the next reader.
    func unread(_ value: OperatorCommand) {
        let waiter = state.withLock { s -> CheckedContinuation<OperatorCommand?, Never>? in
            if let w = s.waiter { s.waiter = nil; return w }
            s.values.insert(value, at: 0)
            return nil
        }
        waiter?.resume(returning: value)
    }

    func next() async -> OperatorCommand? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<OperatorCommand?, Never>) in
                let immediate: OperatorCommand?? = state.withLock { s in
                    if !s.values.isEmpty { return .some(s.values.removeFirst()) }
                    // Cancelled before registering: onCancel already ran and found no waiter.
                    if s.closed || Task.isCancelled { return .some(nil) }
                    s.waiter = continuation
                    return .none
                }
                if let immediate { continuation.resume(returning: immediate) }
            }
        } onCancel: {
            let waiter = state.withLock { s -> CheckedContinuation<OperatorCommand?, Never>? in
                defer { s.waiter = nil }
                return s.waiter
            }
            waiter?.resume(returning: nil)
        }
    }

    func close() {
        let waiter = state.withLock { s -> CheckedContinuation<OperatorCommand?, Never>? in
            s.closed = true
            defer { s.waiter = nil }
            return s.waiter
        }
        waiter?.resume(returning: nil)
    }
}
