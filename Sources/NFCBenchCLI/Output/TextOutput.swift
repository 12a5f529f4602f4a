import Foundation
import NFCSystem
import Synchronization

/// Where a command writes. The real process writes to stdout/stderr; tests capture.
public protocol TextOutput: Sendable {
    func write(_ text: String)
    /// Whether this is an interactive terminal (colour, spinners, prompts).
    var isTerminal: Bool { get }
}

extension TextOutput {
    public func line(_ text: String = "") { write(text + "\n") }
}

/// A process stream, flushed after every write so progress shows at once.
public struct StandardStream: TextOutput {
    public let fileDescriptor: Int32

    public static let output = StandardStream(fileDescriptor: 1)
    public static let error = StandardStream(fileDescriptor: 2)

    public var isTerminal: Bool {
        let diverted = fileDescriptor == 2 ? LibraryLog.realStandardError.load(ordering: .sequentiallyConsistent) : -1
        return isatty(diverted >= 0 ? diverted : fileDescriptor) == 1
    }

    /// Control sequences from outside text are shown, never acted on (`TerminalSafeText`).
    public func write(_ text: String) {
        let bytes = Array(TerminalSafeText.output(text).utf8)
        // Past `LibraryLog`'s pipe: nfcbench's own messages go straight to the terminal.
        let diverted = fileDescriptor == 2 ? LibraryLog.realStandardError.load(ordering: .sequentiallyConsistent) : -1
        // A closed pipe (e.g. `| head`) is not an error worth crashing over.
        try? FileDescriptor(rawValue: diverted >= 0 ? diverted : fileDescriptor).writeAll(bytes)
    }
}

/// Captures output in memory, for tests.
public final class CapturedOutput: TextOutput {
    private let buffer = Mutex("")
    public let isTerminal: Bool

    public init(isTerminal: Bool = false) { self.isTerminal = isTerminal }

    public func write(_ text: String) { buffer.withLock { $0 += text } }
    public var text: String { buffer.withLock { $0 } }
}
