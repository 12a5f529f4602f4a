import Dispatch
import Synchronization

/// Independent pieces of one fit, computed on every core: the fit's starts and its four
/// profile intervals do not depend on each other, and each takes a good part of a second.
/// Results come back in the order asked, so the fit is the same however the work was shared.
enum ParallelWork {
    static func map<T: Sendable>(_ count: Int, _ body: @Sendable (Int) -> T) -> [T] {
        let results = Mutex<[T?]>(Array(repeating: nil, count: count))
        DispatchQueue.concurrentPerform(iterations: count) { index in
            let value = body(index)
            results.withLock { $0[index] = value }
        }
        return results.withLock { $0.map { $0! } }
    }
}
