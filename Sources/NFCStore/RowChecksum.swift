import Foundation

/// A 64-bit FNV-1a checksum of a row's values as bound and as read back.
///
/// SQLite checks its pages and indexes (`integrity_check`) but not what a cell holds: a
/// flipped bit inside a number or a text still reads as a valid, different value. Rows
/// that carry this checksum are refused when their values no longer match it.
public enum RowChecksum {
    public static func of(_ values: [SQLiteStatement.Value]) -> Int64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func feed<S: Sequence>(_ bytes: S) where S.Element == UInt8 {
            for byte in bytes {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01b3
            }
        }
        func feed(_ word: UInt64) { withUnsafeBytes(of: word.littleEndian) { feed($0) } }
        for value in values {
            switch value {
            case .null: feed([0])
            case .integer(let i): feed([1]); feed(UInt64(bitPattern: i))
            case .real(let d): feed([2]); feed(d.bitPattern)
            case .text(let s):
                feed([3]); feed(UInt64(s.utf8.count)); feed(s.utf8)
            case .blob(let b): feed([4]); feed(UInt64(b.count)); feed(b)
            }
        }
        return Int64(bitPattern: hash)
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
