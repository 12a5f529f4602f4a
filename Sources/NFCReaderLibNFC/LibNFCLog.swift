import Foundation
import Synchronization

/// libnfc's own log. libnfc prints its errors straight to standard error ("Unable to
/// transmit data", "Unable to find USB busses" on a machine without USB), in the middle of
/// an operator's prompts, although every failure it reports also reaches the reader as a
/// typed error. It reads `LIBNFC_LOG_LEVEL` at `nfc_init`: 0 is silent, 3 is everything.
public enum LibNFCLog {
    /// Everything (debug) when `verbose`, else libnfc's own default (errors), unless the
    /// user set the level themselves. Call before any reader opens. The command-line
    /// program keeps the error lines off the operator's screen (`LibraryLog`).
    /// `beforeFirstUse` runs once, just before libnfc is first initialised: where a
    /// program diverts libnfc's lines (a pipe and a thread that only commands that open
    /// libnfc need).
    public static func configure(
        verbose: Bool, environment: [String: String], beforeFirstUse: (@Sendable () -> Void)? = nil
    ) {
        firstUse.withLock { $0 = beforeFirstUse }
        guard environment["LIBNFC_LOG_LEVEL"] == nil, verbose else { return }
        setenv("LIBNFC_LOG_LEVEL", "3", 1)
    }

    private static let firstUse = Mutex<(@Sendable () -> Void)?>(nil)

    /// Called before every `nfc_init`: runs the first-use hook the first time only.
    static func willInitialise() {
        let hook = firstUse.withLock { hook in
            defer { hook = nil }
            return hook
        }
        hook?()
    }
}
