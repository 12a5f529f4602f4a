import Foundation

/// Remembers a reader's analog settings (RFConfiguration item 0x0A) while nfcbench has
/// them weakened, so that they are put back even when the program could not do it itself
/// (`kill -9`, a pulled cable): the next open of that reader restores them first.
///
/// One small file per reader in `ReaderStateFolder`'s `analog`: `$NFCBENCH_STATE_DIR/analog`, else
/// `$XDG_STATE_HOME/nfcbench/analog`, else `~/.local/state/nfcbench/analog`: eleven hex
/// bytes on the first line, the reader (its libnfc connstring) on the second, so that
/// `doctor` can find it again. The file is named by the reader's device
/// (`ReaderDevice.key`), so any name of the same reader finds it; a file from before,
/// named by the spelling it was weakened under, is still read and cleared.
///
/// Paths, not URLs: every open of a libnfc reader builds a journal and reads it before the
/// reader's first byte, and Foundation's URL appending cost `poll` a fifth of a
/// millisecond there (docs/performance.md).
public struct AnalogJournal: Sendable {
    public let directoryPath: String

    public init(path: String) { directoryPath = path }
    public init(directory: URL) { self.init(path: directory.path) }

    public var directory: URL { URL(fileURLWithPath: directoryPath) }

    public static func fromEnvironment(_ env: [String: String]) -> AnalogJournal {
        AnalogJournal(path: ReaderStateFolder.path("analog", environment: env))
    }

    private func file(key: String) -> String { directoryPath + "/" + ReaderStateFolder.fileName(key) }

    /// Where `reader`'s settings may be: under its device first, then under its name as
    /// nfcbench before the device key wrote it. `device`: the key a backend found itself
    /// (a PC/SC reader's USB device, `ReaderDevice.pcscKey`); else the name's own device.
    private func files(_ reader: String, device given: String?) -> [String] {
        let device = given ?? ReaderDevice.key(for: reader)
        return device == reader ? [file(key: reader)] : [file(key: device), file(key: reader)]
    }

    /// The settings to put back, or `nil` when none are pending. A damaged file is not
    /// settings: it reads as the PN532's defaults, the safe thing to restore.
    public func original(for reader: String, device: String? = nil) -> [UInt8]? {
        guard let data = files(reader, device: device).lazy.compactMap({ FileManager.default.contents(atPath: $0) }).first else {
            return nil
        }
        let text = String(decoding: data, as: UTF8.self)
        let first = text.split(separator: "\n", maxSplits: 1).first ?? ""
        let bytes = first.split(whereSeparator: \.isWhitespace).compactMap { UInt8($0, radix: 16) }
        return bytes.count == 11 ? bytes : AnalogProfile.pn532Default.settings
    }

    /// Written, atomically, under the reader's device before the reader is changed;
    /// `false` when it could not be.
    public func record(_ settings: [UInt8], for reader: String, device: String? = nil) -> Bool {
        do {
            try FileManager.default.createDirectory(
                atPath: directoryPath, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try (Hex.string(settings, separator: " ") + "\n" + reader + "\n").write(
                toFile: files(reader, device: device)[0], atomically: true, encoding: .utf8)
            return true
        } catch {
            return false
        }
    }

    public func clear(for reader: String, device: String? = nil) {
        for file in files(reader, device: device) { try? FileManager.default.removeItem(atPath: file) }
    }

    /// Readers with settings still to put back (`doctor`), as their files name them.
    public func pending() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directoryPath)) ?? []
        return names.sorted().compactMap { name in
            guard let text = try? String(contentsOfFile: directoryPath + "/" + name, encoding: .utf8) else { return nil }
            let lines = text.split(separator: "\n")
            return lines.count >= 2 ? String(lines[1]) : nil
        }
    }
}
