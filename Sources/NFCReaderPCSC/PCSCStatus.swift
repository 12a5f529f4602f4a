import CPCSCLite

/// A pcsc-lite return code (`SCARD_*` in <pcsclite.h>), usable in `switch` and `catch`.
public struct PCSCStatus: Error, RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    init(_ value: LONG) { rawValue = Int(value) }

    /// `LONG` is `long`: on 64-bit Linux the codes are positive (0x8010000A), not sign-extended.
    static func code(_ hex: UInt32) -> PCSCStatus { PCSCStatus(LONG(hex)) }

    public static let success = PCSCStatus(rawValue: 0)
    /// `SCARD_E_CANCELLED`: `SCardCancel` ended a wait.
    public static let cancelled = code(0x8010_0002)
    /// `SCARD_E_TIMEOUT`
    public static let timeout = code(0x8010_000A)
    /// `SCARD_E_SHARING_VIOLATION`: another process holds the card or reader exclusively.
    public static let sharingViolation = code(0x8010_000B)
    /// `SCARD_E_NO_SMARTCARD`
    public static let noSmartcard = code(0x8010_000C)
    /// `SCARD_E_UNKNOWN_READER`
    public static let unknownReader = code(0x8010_0009)
    /// `SCARD_E_NOT_TRANSACTED`: treated as "the target left the field".
    public static let notTransacted = code(0x8010_0016)
    /// `SCARD_E_READER_UNAVAILABLE`: the reader went away.
    public static let readerUnavailable = code(0x8010_0017)
    /// `SCARD_E_NO_SERVICE`: pcscd is not running.
    public static let noService = code(0x8010_001D)
    /// `SCARD_E_SERVICE_STOPPED`
    public static let serviceStopped = code(0x8010_001E)
    /// `SCARD_E_NO_READERS_AVAILABLE`
    public static let noReaders = code(0x8010_002E)
    /// `SCARD_E_UNSUPPORTED_FEATURE`
    public static let unsupportedFeature = code(0x8010_001F)
    /// `SCARD_F_COMM_ERROR`
    public static let commError = code(0x8010_0013)
    /// `SCARD_W_UNRESPONSIVE_CARD`
    public static let unresponsiveCard = code(0x8010_0066)
    /// `SCARD_W_UNPOWERED_CARD`
    public static let unpoweredCard = code(0x8010_0067)
    /// `SCARD_W_RESET_CARD`: treated as "the target left the field".
    public static let resetCard = code(0x8010_0068)
    /// `SCARD_W_REMOVED_CARD`: treated as "the target left the field".
    public static let removedCard = code(0x8010_0069)

    public static func ~= (pattern: PCSCStatus, value: PCSCStatus) -> Bool { pattern == value }

    /// The codes that mean the target is gone, not that something broke.
    public var meansTargetLeft: Bool {
        [.notTransacted, .removedCard, .resetCard, .noSmartcard, .unresponsiveCard, .unpoweredCard].contains(self)
    }

    public var description: String {
        String(cString: pcsc_stringify_error(LONG(rawValue))) + " (0x"
            + String(UInt32(truncatingIfNeeded: rawValue), radix: 16, uppercase: true) + ")"
    }
}

extension PCSCReader {
    /// pcsc-lite's version, from the headers nfcbench was built against.
    public static var libraryVersion: String { PCSCLITE_VERSION_NUMBER }
}
