import Foundation
import NFCSystem
import Synchronization

/// The one reader of standard input: a thread of its own that reads bytes as they arrive
/// (keys from a terminal in single-key mode, or a script's pipe) and hands each to its
/// decoder. `run`'s keys, its lines from a pipe and `rig calibrate`'s arrows all come
/// through here, so standard input is read in one way and by one thread.
enum Keyboard {
    /// A key, with the escape sequences a terminal sends for arrows and Page Up/Down decoded.
    enum Key: Equatable, Sendable { case up, down, left, right, pageUp, pageDown, byte(UInt8) }

    /// Starts the reading thread: `each` gets every byte, `end` is called once at the end
    /// of input.
    static func read(threadName: String, each: @escaping @Sendable (UInt8) -> Void, end: @escaping @Sendable () -> Void) {
        let thread = Thread {
            while let byte = try? FileDescriptor.standardInput.read(upTo: 1).first { each(byte) }
            end()
        }
        thread.name = threadName
        thread.start()
    }

    /// Keys, decoded (`KeyDecoder`).
    static func keys(threadName: String) -> AsyncStream<Key> {
        AsyncStream { continuation in
            let decoder = Mutex(KeyDecoder())
            read(
                threadName: threadName,
                each: { byte in if let key = decoder.withLock({ $0.feed(byte) }) { continuation.yield(key) } },
                end: { continuation.finish() })
        }
    }
}

/// Bytes to keys: ESC [ A..D are the arrows, ESC [ 5 ~ and ESC [ 6 ~ Page Up and Down.
/// Another control sequence (ESC [, parameter bytes, one final byte in 0x40...0x7E, as
/// ECMA-48 has it) is dropped whole; a lone ESC before another byte is dropped; every
/// other byte is itself.
struct KeyDecoder: Sendable {
    private var pending: [UInt8] = []
    private static let sequences: [[UInt8]: Keyboard.Key] = [
        Array("A".utf8): .up, Array("B".utf8): .down, Array("C".utf8): .right, Array("D".utf8): .left,
        Array("5~".utf8): .pageUp, Array("6~".utf8): .pageDown,
    ]
    private static let escape: UInt8 = 0x1B

    /// The key `byte` completes, if it completes one.
    mutating func feed(_ byte: UInt8) -> Keyboard.Key? {
        switch pending.count {
        case 0:
            if byte == Self.escape {
                pending = [byte]
                return nil
            }
            return .byte(byte)
        case 1:
            if byte == UInt8(ascii: "[") {
                pending.append(byte)
                return nil
            }
            pending = byte == Self.escape ? [byte] : []
            return byte == Self.escape ? nil : .byte(byte)
        default:
            pending.append(byte)
            guard (0x40...0x7E).contains(byte) else {
                if pending.count > 16 { pending = [] }  // no sequence is that long: give up on it
                return nil
            }
            defer { pending = [] }
            return Self.sequences[Array(pending.dropFirst(2))]
        }
    }
}

/// Bytes to lines: a line ends at LF, and a CR before it goes with it.
struct LineDecoder: Sendable {
    private var pending: [UInt8] = []

    mutating func feed(_ byte: UInt8) -> String? {
        guard byte == 0x0A else {
            pending.append(byte)
            return nil
        }
        defer { pending = [] }
        return String(decoding: pending.last == 0x0D ? pending.dropLast() : pending[...], as: UTF8.self)
    }

    /// The last line, when the input ended without a newline.
    mutating func finish() -> String? {
        defer { pending = [] }
        return pending.isEmpty ? nil : String(decoding: pending, as: UTF8.self)
    }
}
