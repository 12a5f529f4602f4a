import Foundation

/// Where reader journals live: what nfcbench changed on a reader and must put back
/// (`PICCJournal`, `AnalogJournal`), one subfolder each under `$NFCBENCH_STATE_DIR`, else
/// `$XDG_STATE_HOME/nfcbench`, else `~/.local/state/nfcbench`.
public enum ReaderStateFolder {
    public static func url(_ name: String, environment env: [String: String]) -> URL {
        URL(fileURLWithPath: path(name, environment: env))
    }

    /// The same folder as a path, built from strings alone (a reader's open reads its
    /// journal before the first byte, where URL appending showed in `poll`'s start).
    public static func path(_ name: String, environment env: [String: String]) -> String {
        if let dir = env["NFCBENCH_STATE_DIR"], !dir.isEmpty { return joined(dir, name) }
        if let xdg = env["XDG_STATE_HOME"], !xdg.isEmpty { return joined(xdg, "nfcbench/" + name) }
        return joined(env["HOME"] ?? NSHomeDirectory(), ".local/state/nfcbench/" + name)
    }

    /// `folder/name` with exactly one slash between, as URL appending made it.
    private static func joined(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }

    /// A reader's name as a file name: letters and digits kept, the rest `_`.
    public static func fileName(_ reader: String) -> String {
        String(reader.map { $0.isLetter || $0.isNumber ? $0 : "_" })
    }
}
