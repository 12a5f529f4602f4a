import Foundation
import NFCSystem

/// Whether a file is an SQLite database or one of its journals, by the first bytes its
/// format fixes, whatever it is called or linked as: a hard link to another bench's
/// `bench.sqlite-wal` named `out.csv` is still a write-ahead log.
enum SQLiteFileKind {
    /// What the file is in words, or `nil` when it is none of them (or cannot be read).
    static func of(_ path: String) -> String? {
        guard let file = try? OwnedFileDescriptor.open(path, O_RDONLY | O_NONBLOCK),
            let bytes = try? file.descriptor.read(upTo: 16), bytes.count >= 4
        else { return nil }
        if bytes.count == 16, bytes == Array("SQLite format 3\0".utf8) { return "an SQLite database" }
        // The WAL header's magic number, big-endian, with either checksum byte order.
        if bytes.starts(with: [0x37, 0x7F, 0x06, 0x82]) || bytes.starts(with: [0x37, 0x7F, 0x06, 0x83]) {
            return "an SQLite write-ahead log (-wal)"
        }
        // The rollback journal's header magic.
        if bytes.count >= 8, bytes.starts(with: [0xD9, 0xD5, 0x05, 0xF9, 0x20, 0xA1, 0x63, 0xD7]) {
            return "an SQLite rollback journal (-journal)"
        }
        // The wal-index (-shm) begins with its version, 3007000, in the machine's byte order.
        if bytes.starts(with: withUnsafeBytes(of: UInt32(3_007_000).littleEndian, Array.init)) {
            return "an SQLite shared-memory index (-shm)"
        }
        return nil
    }
}
