import Foundation

/// Remembers a reader's analog settings (RFConfiguration item 0x0A) while nfcbench has
/// them weakened, so that they are put back even when the program could not do it itself
/// (`kill -9`, a pulled cable): the next open of that reader restores them first.
///
/// One small file per reader in `ReaderStateFolder`'s `analog`: `$NFCBENCH_STATE_DIR/analog`, else
/// `$XDG_STATE_HOME/nfcbench/analog`, else `~/.local/state/nfcbench/analog`: eleven hex
/// bytes on the first line, the reader (its libnfc connstring) on the second, so that
/// `doctor` can find it again.
public struct AnalogJournal: Sendable {
    public let directory: URL

    public init(directory: URL) { self.directory = directory }

    public static func fromEnvironment(_ env: [String: String]) -> AnalogJournal {
        AnalogJournal(directory: ReaderStateFolder.url("analog", environment: env))
    }

    private func file(_ reader: String) -> URL { directory.appendingPathComponent(ReaderStateFolder.fileName(reader)) }

    /// The settings to put back, or `nil` when none are pending. A damaged file is not
    /// settings: it reads as the PN532's defaults, the safe thing to restore.
    public func original(for reader: String) -> [UInt8]? {
        guard let text = try? String(contentsOf: file(reader), encoding: .utf8) else { return nil }
        let first = text.split(separator: "\n", maxSplits: 1).first ?? ""
        let bytes = first.split(whereSeparator: \.isWhitespace).compactMap { UInt8($0, radix: 16) }
        return bytes.count == 11 ? bytes : AnalogProfile.pn532Default.settings
    }

    /// Written, atomically, before the reader is changed; `false` when it could not be.
    public func record(_ settings: [UInt8], for reader: String) -> Bool {
        do {
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try (Hex.string(settings, separator: " ") + "\n" + reader + "\n").write(
                to: file(reader), atomically: true, encoding: .utf8)
            return true
        } catch {
            return false
        }
    }

    public func clear(for reader: String) { try? FileManager.default.removeItem(at: file(reader)) }

    /// Readers with settings still to put back (`doctor`), as their files name them.
    public func pending() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.sorted().compactMap { name in
            guard let text = try? String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8) else {
                return nil
            }
            let lines = text.split(separator: "\n")
            return lines.count >= 2 ? String(lines[1]) : nil
        }
    }
}
