import Foundation
import NFCSystem
import Synchronization

/// Where a command writes. The real process writes to stdout/stderr; tests capture.
public protocol TextOutput: Sendable {
    func write(_ text: String)
    /// Whether this is an interactive terminal (colour, spinners, prompts).
    var isTerminal: Bool { get }
    /// The first write that failed (a full disk, a closed pipe), if any: a command whose
    /// output did not arrive whole has not succeeded, whatever it did (issue 49, F4).
    var writeFailure: Errno? { get }
}

extension TextOutput {
    public func line(_ text: String = "") { write(text + "\n") }
    public var writeFailure: Errno? { nil }
}

/// A process stream, flushed after every write so progress shows at once.
public struct StandardStream: TextOutput {
    public let fileDescriptor: Int32

    public static let output = StandardStream(fileDescriptor: 1)
    public static let error = StandardStream(fileDescriptor: 2)

    public var isTerminal: Bool {
        let diverted = fileDescriptor == 2 ? LibraryLog.realStandardError.load(ordering: .sequentiallyConsistent) : -1
        return TerminalSettings.isTerminal(FileDescriptor(rawValue: diverted >= 0 ? diverted : fileDescriptor))
    }

    /// Control sequences from outside text are shown, never acted on (`TerminalSafeText`).
    public func write(_ text: String) {
        let bytes = Array(TerminalSafeText.output(text).utf8)
        // Past `LibraryLog`'s pipe: nfcbench's own messages go straight to the terminal.
        let diverted = fileDescriptor == 2 ? LibraryLog.realStandardError.load(ordering: .sequentiallyConsistent) : -1
        // A failed write is remembered, never a crash: the command's exit code says it
        // (`CommandLineTool.finished`), and nothing more is tried after it.
        guard writeFailure == nil else { return }
        do throws(Errno) {
            try FileDescriptor(rawValue: diverted >= 0 ? diverted : fileDescriptor).writeAll(bytes)
        } catch {
            Self.failures.withLock { $0[fileDescriptor] = $0[fileDescriptor] ?? error }
        }
    }

    /// The first failed write of each stream of the process.
    private static let failures = Mutex<[Int32: Errno]>([:])

    public var writeFailure: Errno? { Self.failures.withLock { $0[fileDescriptor] } }
}

/// Captures output in memory, for tests.
public final class CapturedOutput: TextOutput {
    private let buffer = Mutex("")
    public let isTerminal: Bool

    public init(isTerminal: Bool = false) { self.isTerminal = isTerminal }

    public func write(_ text: String) { buffer.withLock { $0 += text } }
    public var text: String { buffer.withLock { $0 } }
}
