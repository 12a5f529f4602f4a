import Foundation
import Synchronization

/// The time the simulated phone, the simulated reader and the emulated PN532 live in.
///
/// Real benches use `ContinuousBenchClock`. Tests of whole simulated sessions use
/// `VirtualBenchClock`, where a sleep advances the clock at once instead of waiting,
/// so a 15-position session with 250 ms tap windows takes microseconds and stays
/// deterministic. Times are durations since the clock's own origin.
public protocol BenchClock: Sendable {
    var now: Duration { get }
    /// Throws `CancellationError` when the task is cancelled.
    func sleep(for duration: Duration) async throws
}

/// Wall time, as `ContinuousClock` counts it.
public struct ContinuousBenchClock: BenchClock {
    private let origin = ContinuousClock.now
    public init() {}
    public var now: Duration { origin.duration(to: .now) }
    public func sleep(for duration: Duration) async throws { try await Task.sleep(for: duration) }
}

/// Time that moves only when someone sleeps on it: each sleep advances `now` by its
/// duration and yields. Meant for one sleeper at a time (the simulated reader's poll
/// loop); the runner's other waits use real time and are ended by events.
public final class VirtualBenchClock: BenchClock {
    private let elapsed = Mutex(Duration.zero)
    public init() {}
    public var now: Duration { elapsed.withLock { $0 } }

    public func sleep(for duration: Duration) async throws {
        try Task.checkCancellation()
        elapsed.withLock { $0 += duration }
        await Task.yield()
        try Task.checkCancellation()
    }

    /// Moves time on without a sleeper (a test stepping the clock).
    public func advance(by duration: Duration) { elapsed.withLock { $0 += duration } }
}
