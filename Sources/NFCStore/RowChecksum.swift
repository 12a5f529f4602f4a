import Foundation

/// A 64-bit FNV-1a checksum of a row's values as bound and as read back.
///
/// SQLite checks its pages and indexes (`integrity_check`) but not what a cell holds: a
/// flipped bit inside a number or a text still reads as a valid, different value. Rows
/// that carry this checksum are refused when their values no longer match it.
public enum RowChecksum {
    public static func of(_ values: [SQLiteStatement.Value]) -> Int64 {
        var running = Running()
        for value in values { running.add(value) }
        return running.checksum
    }

    /// The same checksum, fed one value or column at a time: a million-row read checks
    /// each row from its columns' bytes without first copying them into values.
    public struct Running {
        private var hash: UInt64 = 0xcbf2_9ce4_8422_2325

        public init() {}

        public var checksum: Int64 { Int64(bitPattern: hash) }

        mutating func feed(_ byte: UInt8) {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        mutating func feed<S: Sequence>(_ bytes: S) where S.Element == UInt8 { for byte in bytes { feed(byte) } }
        mutating func feed(_ word: UInt64) {
            var w = word.littleEndian
            for _ in 0..<8 {
                feed(UInt8(truncatingIfNeeded: w))
                w >>= 8
            }
        }

        public mutating func add(_ value: SQLiteStatement.Value) {
            switch value {
            case .null: feed(UInt8(0))
            case .integer(let i):
                feed(UInt8(1))
                feed(UInt64(bitPattern: i))
            case .real(let d):
                feed(UInt8(2))
                feed(d.bitPattern)
            case .text(let s): addText(s.utf8)
            case .blob(let b):
                feed(UInt8(4))
                feed(UInt64(b.count))
                feed(b)
            }
        }

        /// A text value by its UTF-8 bytes (what `.text` feeds).
        mutating func addText<C: Collection>(_ utf8: C) where C.Element == UInt8 {
            feed(UInt8(3))
            feed(UInt64(utf8.count))
            feed(utf8)
        }
    }
}

extension SQLiteStatement {
    /// Column `column` of the current row as the value it holds.
    public func value(_ column: Int32) -> Value {
        switch type(column) {
        case .null: .null
        case .integer: .integer(int(column))
        case .real: .real(double(column))
        case .text: .text(text(column) ?? "")
        case .blob: .blob(blob(column))
        }
    }
}
