import Glibc

/// A thread of its own for work that blocks for the rest of the process (a pipe's
/// reader), started straight with `pthread_create`. Foundation's `Thread` did the same
/// at the cost of its object model's first use, and the thread that starts libnfc's log
/// sorter is on the way to a reader's first byte (docs/performance.md).
public enum DetachedThread {
    public static func start(_ body: @escaping @Sendable () -> Void) throws(Errno) {
        let work = Unmanaged.passRetained(Work(body)).toOpaque()
        var thread = pthread_t()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        let status = pthread_create(
            &thread, &attributes,
            { raw in
                Unmanaged<Work>.fromOpaque(raw!).takeRetainedValue().body()
                return nil
            }, work)
        guard status == 0 else {
            Unmanaged<Work>.fromOpaque(work).release()
            throw Errno(rawValue: status)
        }
    }

    /// `body`'s result, computed on a thread of its own: blocking work that must start at
    /// once, which a queue on Dispatch's pool does not when the pool's workers all block.
    public static func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async throws(Errno) -> T {
        let started: Result<T, Errno> = await withCheckedContinuation { continuation in
            do throws(Errno) {
                try start { continuation.resume(returning: .success(body())) }
            } catch {
                continuation.resume(returning: .failure(error))
            }
        }
        return try started.get()
    }

    private final class Work: Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
}
