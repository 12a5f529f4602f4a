import Foundation
import NFCSystem

#if canImport(Glibc)
    import Glibc
#endif

/// Buffered bytes to a file descriptor (64 KiB at a time), so a million rows stream in
/// flat memory. Every failed write throws with its reason (a full disk, a closed pipe),
/// never passes silently. With no descriptor it only collects (single rows, tests).
public final class ExportSink {
    private let descriptor: Int32?
    private let name: String
    private var buffer: [UInt8] = []
    /// Where the unit being written began in `buffer`: bytes from there on are held back
    /// from every flush until the unit ends, so a unit can still be dropped whole.
    private var unitStart: Int?
    public private(set) var bytesWritten = 0
    /// Applied to the text of every flush before it is written, in whole characters: a
    /// terminal gets stored escape sequences shown, not acted on (issue 49, F3).
    public var textFilter: (@Sendable (String) -> String)?

    /// `name` is how errors call the destination ("standard output", a path).
    public init(descriptor: Int32?, name: String) {
        self.descriptor = descriptor
        self.name = name
        buffer.reserveCapacity(70_000)
    }

    /// Collects in memory only.
    public static func memory() -> ExportSink { ExportSink(descriptor: nil, name: "memory") }

    public func write(_ text: String) throws { try append(Array(text.utf8)) }
    public func append(_ bytes: [UInt8]) throws { buffer.append(contentsOf: bytes); try flushIfFull() }
    public func append(_ byte: UInt8) { buffer.append(byte) }
    /// Lets `build` write straight into the buffer: one export row, with no buffer of its
    /// own to allocate and copy a million times.
    public func appendBuilt(_ build: (inout [UInt8]) -> Void) throws {
        build(&buffer)
        try flushIfFull()
    }
    public func append(_ text: String) throws { buffer.append(contentsOf: text.utf8); try flushIfFull() }

    /// What was collected, for a memory sink.
    public var text: String { String(decoding: buffer, as: UTF8.self) }
    public var bytes: [UInt8] { buffer }

    private func flushIfFull() throws { if buffer.count >= 65_536 { try flush() } }

    /// Starts a unit (an export's session): what follows is written only if `endUnit`
    /// keeps it. Ends the unit before, kept, if one is open.
    public func startUnit() {
        unitStart = buffer.count
    }

    /// Ends the unit: its bytes stay to be written, or are dropped as if never written.
    public func endUnit(keep: Bool) {
        if !keep, let start = unitStart { buffer.removeSubrange(start...) }
        unitStart = nil
    }

    public func flush() throws {
        guard let descriptor, !buffer.isEmpty else { return }
        // An open unit is held back: only what precedes it is written.
        var end = unitStart ?? buffer.count
        do {
            if let textFilter {
                // A character cut by the buffer's end waits for the next flush.
                while end > 0, end < buffer.count, buffer[end] & 0xC0 == 0x80 { end -= 1 }
                try FileDescriptor(rawValue: descriptor).writeAll(
                    Array(textFilter(String(decoding: buffer[..<end], as: UTF8.self)).utf8))
            } else {
                try FileDescriptor(rawValue: descriptor).writeAll(buffer[..<end])
            }
        } catch {
            throw ExportError.writeFailed(name, error.description)
        }
        bytesWritten += end
        buffer.removeSubrange(..<end)
        if unitStart != nil { unitStart = 0 }
    }
}

public enum ExportError: Error, Sendable, CustomStringConvertible, Equatable {
    case writeFailed(String, String)

    public var description: String {
        switch self {
        case .writeFailed(let name, let reason): "Cannot write \(name): \(reason)."
        }
    }

    /// The system's reason, without the name.
    public var reason: String {
        switch self {
        case .writeFailed(_, let reason): reason
        }
    }
}
