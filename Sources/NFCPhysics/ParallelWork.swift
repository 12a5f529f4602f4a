import Dispatch
import Synchronization

/// Independent pieces of one fit, computed on every core: the fit's starts and its four
/// profile intervals do not depend on each other, and each takes a good part of a second.
/// Results come back in the order asked, so the fit is the same however the work was shared.
enum ParallelWork {
    static func map<T: Sendable>(_ count: Int, _ body: @Sendable (Int) -> T) -> [T] {
        map(count, extra: nil, body)
    }

    /// `map`, with `extra` (work whose result the caller keeps) run as one more job among
    /// the others, and started first: it is the longest, and the rest fill the cores around it.
    static func map<T: Sendable>(_ count: Int, extra: (@Sendable () -> Void)?, _ body: @Sendable (Int) -> T) -> [T] {
        let results = Mutex<[T?]>(Array(repeating: nil, count: count))
        let first = extra == nil ? 0 : 1
        DispatchQueue.concurrentPerform(iterations: count + first) { job in
            guard job >= first else { return extra!() }
            let value = body(job - first)
            results.withLock { $0[job - first] = value }
        }
        return results.withLock { $0.map { $0! } }
    }
}

/// One result written by a job of `ParallelWork.map` and read once the map has returned.
final class ParallelSlot<T: Sendable>: Sendable {
    private let value = Mutex<T?>(nil)

    func fill(_ result: T) { value.withLock { $0 = result } }

    /// The result; the map has returned, so its job has run.
    var filled: T { value.withLock { $0! } }
}
