import Foundation
import NFCReaders
import Testing

@testable import NFCBench

/// Keys keep the time they arrived, whoever reads them and however late: the stale-key
/// rule of a manual run depends on it.
@Suite("Operator command inbox")
struct CommandInboxTests {
    @Test func aKeyReadLateKeepsTheTimeItArrived() async throws {
        let (stream, keys) = AsyncStream<OperatorCommand>.makeStream()
        let clock = ContinuousBenchClock()
        let inbox = CommandInbox(stream, clock: clock)
        let before = clock.now
        keys.yield(.proceed)
        keys.yield(.skip)
        // Typed together: once the first is in, the second is too.
        let first = try #require(await inbox.nextArrival())
        #expect(first.command == .proceed && first.arrived >= before)
        // Read well after it arrived, the second key still says when it came.
        try await Task.sleep(for: .milliseconds(300))
        let read = clock.now
        let second = try #require(await inbox.nextArrival())
        #expect(second.command == .skip && second.arrived >= first.arrived && second.arrived < read)
        // Put back unused, it keeps its arrival and comes first again.
        inbox.unread(second)
        let again = try #require(await inbox.nextArrival())
        #expect(again.command == .skip && again.arrived == second.arrived)
        keys.finish()
        #expect(await inbox.nextArrival() == nil)
    }
}
