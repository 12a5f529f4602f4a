import Foundation
import NFCReaders

/// Operator commands, delivered one at a time to whichever wait is current.
final class CommandInbox: Sendable {
    private let stream: AsyncStream<OperatorCommand>?
    private let buffer: AsyncStreamBuffer

    /// Each command is stamped with `clock`'s time as it arrives: the run's own clock.
    init(_ stream: AsyncStream<OperatorCommand>?, clock: any BenchClock) {
        self.stream = stream
        buffer = AsyncStreamBuffer(clock: clock)
        if let stream { buffer.feed(from: stream) }
    }

    var isOpen: Bool { stream != nil }
    func next() async -> OperatorCommand? { await buffer.next()?.command }
    /// The next command with the time it arrived, for a wait that judges how soon it came.
    func nextArrival() async -> ArrivedCommand? { await buffer.next() }
    func poll() -> OperatorCommand? { buffer.poll()?.command }
    func unread(_ command: ArrivedCommand) { buffer.unread(command) }
    /// Drops every key typed so far: they were typed for no window.
    func discardWaiting() { while buffer.poll() != nil {} }
    func close() { buffer.close() }
}
