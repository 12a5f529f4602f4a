import Synchronization

/// A reader's open that was begun on a thread of its backend's own and is waited for
/// later (`ReaderBackendRegistration.begin`): the open runs while the caller goes on.
/// Finished once; any number may wait, before or after it finishes.
public final class PendingOpen<Opened: Sendable>: Sendable {
    private enum State {
        case waiting([CheckedContinuation<Result<Opened, ReaderError>, Never>])
        case done(Result<Opened, ReaderError>)
    }

    private let state = Mutex<State>(.waiting([]))

    public init() {}

    public func finish(_ result: Result<Opened, ReaderError>) {
        let waiting = state.withLock { state -> [CheckedContinuation<Result<Opened, ReaderError>, Never>] in
            guard case .waiting(let waiting) = state else { preconditionFailure("an open finishes once") }
            state = .done(result)
            return waiting
        }
        for continuation in waiting { continuation.resume(returning: result) }
    }

    /// The opened reader once the open ends, or its error.
    public func reader() async throws(ReaderError) -> Opened {
        let result = await withCheckedContinuation { continuation in
            let done = state.withLock { state -> Result<Opened, ReaderError>? in
                switch state {
                case .done(let result): return result
                case .waiting(var waiting):
                    waiting.append(continuation)
                    state = .waiting(waiting)
                    return nil
                }
            }
            if let done { continuation.resume(returning: done) }
        }
        return try result.get()
    }
}
