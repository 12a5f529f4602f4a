import Foundation

/// Where reader journals live: what nfcbench changed on a reader and must put back
/// (`PICCJournal`, `AnalogJournal`), one subfolder each under `$NFCBENCH_STATE_DIR`, else
/// `$XDG_STATE_HOME/nfcbench`, else `~/.local/state/nfcbench`.
public enum ReaderStateFolder {
    public static func url(_ name: String, environment env: [String: String]) -> URL {
        if let dir = env["NFCBENCH_STATE_DIR"], !dir.isEmpty {
            return URL(fileURLWithPath: dir).appendingPathComponent(name)
        }
        let base =
            env["XDG_STATE_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: env["HOME"] ?? NSHomeDirectory()).appendingPathComponent(".local/state")
        return base.appendingPathComponent("nfcbench/" + name)
    }

    /// A reader's name as a file name: letters and digits kept, the rest `_`.
    public static func fileName(_ reader: String) -> String {
        String(reader.map { $0.isLetter || $0.isNumber ? $0 : "_" })
    }
}
