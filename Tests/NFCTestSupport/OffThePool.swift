import Foundation

/// Runs CPU-bound or blocking work on a thread of its own: not on Swift Testing's
/// cooperative pool (two threads here), where it would starve tests awaiting processes,
/// and not on GCD's global queue, whose Linux pool adds no thread while its workers are
/// busy computing, which would stall every process helper parked there.
public func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}
