import Foundation

/// Operator commands, delivered one at a time to whichever wait is current.
final class CommandInbox: Sendable {
    private let stream: AsyncStream<OperatorCommand>?
    private let buffer = AsyncStreamBuffer()

    init(_ stream: AsyncStream<OperatorCommand>?) {
        self.stream = stream
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
