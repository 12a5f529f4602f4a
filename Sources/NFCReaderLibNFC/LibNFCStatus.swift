import CLibNFC

/// A libnfc return code (`NFC_E*` in <nfc/nfc.h>), usable in `switch` and `catch`
/// patterns the way swift-system's `Errno` is.
public struct LibNFCStatus: Error, RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// `NFC_EIO`: input/output error (link lost, bad frame).
    public static let io = LibNFCStatus(rawValue: NFC_EIO)
    /// `NFC_EINVARG`
    public static let invalidArgument = LibNFCStatus(rawValue: NFC_EINVARG)
    /// `NFC_EDEVNOTSUPP`
    public static let notSupported = LibNFCStatus(rawValue: NFC_EDEVNOTSUPP)
    /// `NFC_ENOTSUCHDEV`
    public static let noSuchDevice = LibNFCStatus(rawValue: NFC_ENOTSUCHDEV)
    /// `NFC_ETIMEOUT`: the chip did not answer in time.
    public static let timeout = LibNFCStatus(rawValue: NFC_ETIMEOUT)
    /// `NFC_EOPABORTED`: `nfc_abort_command` interrupted the call.
    public static let aborted = LibNFCStatus(rawValue: NFC_EOPABORTED)
    /// `NFC_ETGRELEASED`: the target left the field.
    public static let targetReleased = LibNFCStatus(rawValue: NFC_ETGRELEASED)
    /// `NFC_ERFTRANS`: RF transmission error.
    public static let rfTransmission = LibNFCStatus(rawValue: NFC_ERFTRANS)
    /// `NFC_ECHIP`: chip-level error; also what InAutoPoll's "no target" becomes.
    public static let chip = LibNFCStatus(rawValue: NFC_ECHIP)

    public static func ~= (pattern: LibNFCStatus, value: LibNFCStatus) -> Bool { pattern == value }

    public var description: String {
        let names: [Int32: String] = [
            NFC_EIO: "NFC_EIO", NFC_EINVARG: "NFC_EINVARG", NFC_EDEVNOTSUPP: "NFC_EDEVNOTSUPP",
            NFC_ENOTSUCHDEV: "NFC_ENOTSUCHDEV", NFC_EOVFLOW: "NFC_EOVFLOW", NFC_ETIMEOUT: "NFC_ETIMEOUT",
            NFC_EOPABORTED: "NFC_EOPABORTED", NFC_ENOTIMPL: "NFC_ENOTIMPL", NFC_ETGRELEASED: "NFC_ETGRELEASED",
            NFC_ERFTRANS: "NFC_ERFTRANS", NFC_EMFCAUTHFAIL: "NFC_EMFCAUTHFAIL", NFC_ESOFT: "NFC_ESOFT",
            NFC_ECHIP: "NFC_ECHIP",
        ]
        return "\(names[rawValue] ?? "libnfc error") (\(rawValue))"
    }
}
