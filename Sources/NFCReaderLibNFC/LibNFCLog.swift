import Foundation

/// libnfc's own log. libnfc prints its errors straight to standard error ("Unable to
/// transmit data", "Unable to find USB busses" on a machine without USB), in the middle of
/// an operator's prompts, although every failure it reports also reaches the reader as a
/// typed error. It reads `LIBNFC_LOG_LEVEL` at `nfc_init`: 0 is silent, 3 is everything.
public enum LibNFCLog {
    /// Silences libnfc's log unless `verbose`, or unless the user set the level
    /// themselves. Call before any reader opens.
    public static func configure(verbose: Bool, environment: [String: String]) {
        guard environment["LIBNFC_LOG_LEVEL"] == nil else { return }
        setenv("LIBNFC_LOG_LEVEL", verbose ? "3" : "0", 1)
    }
}
