import Foundation
import NFCReaders

/// Remembers a reader's original PICC operating parameter while nfcbench has it
/// narrowed, so it can be put back even when the session ends without a way to reach
/// the reader (no escape channel and no card present at close, or `kill -9`): the next
/// session that can talk to the reader restores it first.
///
/// One small file per reader under `$NFCBENCH_STATE_DIR`, else
/// `$XDG_STATE_HOME/nfcbench/picc`, else `~/.local/state/nfcbench/picc`.
public struct PICCJournal: Sendable {
    public let directory: URL

    public init(directory: URL) { self.directory = directory }

    public static func fromEnvironment(_ env: [String: String]) -> PICCJournal {
        PICCJournal(directory: ReaderStateFolder.url("picc", environment: env))
    }

    private func file(_ reader: String) -> URL { directory.appendingPathComponent(ReaderStateFolder.fileName(reader)) }

    public func original(for reader: String) -> UInt8? {
        guard let text = try? String(contentsOf: file(reader), encoding: .utf8) else { return nil }
        return UInt8(text.trimmingCharacters(in: .whitespacesAndNewlines), radix: 16)
    }

    /// Written before the reader is changed, atomically.
    @discardableResult
    public func record(_ value: UInt8, for reader: String) -> Bool {
        do {
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try (String(value, radix: 16, uppercase: true) + "\n").write(to: file(reader), atomically: true, encoding: .utf8)
            return true
        } catch {
            return false
        }
    }

    public func clear(for reader: String) { try? FileManager.default.removeItem(at: file(reader)) }
}
