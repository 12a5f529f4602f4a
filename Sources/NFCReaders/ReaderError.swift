/// Every way a reader can fail, each with a message naming the reader and a hint that
/// says what to do.
public struct ReaderError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable, Codable {
        case noReader
        case ambiguousReader
        case invalidSpec
        case serviceNotRunning
        case permissionDenied
        case claimedByKernel
        case busy
        case unplugged
        case garbage
        case cancelled
        case failed
        /// The reader cannot do what was asked (tag emulation on a chip without it).
        case unsupported
    }

    public let code: Code
    public let message: String
    public let hint: String?
    /// The C library's own words, e.g. `SCARD_E_NO_SERVICE (0x8010001D)`.
    public let underlying: String?

    public init(_ code: Code, _ message: String, hint: String? = nil, underlying: String? = nil) {
        self.code = code
        self.message = message
        self.hint = hint
        self.underlying = underlying
    }

    public var description: String {
        var text = message
        if let underlying { text += " [\(underlying)]" }
        return text
    }

    public static func cancelled(_ reader: String) -> ReaderError {
        ReaderError(.cancelled, "Waiting on reader '\(reader)' was cancelled.")
    }

    public static func unplugged(_ reader: String, underlying: String? = nil) -> ReaderError {
        ReaderError(
            .unplugged, "Reader '\(reader)' disappeared (unplugged or powered off).",
            hint: "Reconnect the reader; the run pauses until it is back.", underlying: underlying)
    }

    public static func garbage(_ reader: String, underlying: String? = nil) -> ReaderError {
        ReaderError(
            .garbage, "Reader '\(reader)' answered with data that is not a valid reply.",
            hint: "Check the cable and the connstring's driver and speed; unplug and replug the reader.",
            underlying: underlying)
    }
}
