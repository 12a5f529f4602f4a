import CPCSCLite

/// The reader's serial number as its driver answers `SCARD_ATTR_VENDOR_IFD_SERIAL_NO`:
/// the CCID driver gives a USB reader's iSerialNumber string, NUL-terminated, and an
/// empty answer for a reader without one (many ACR122U units have none). Asked on a
/// direct connection, so no card is needed and nothing on the reader changes.
enum ReaderSerialNumber {
    static var attribute: DWORD { nfcbench_attr_vendor_ifd_serial_no() }

    /// The serial, or `nil` for an empty answer or anything but a short printable string
    /// (a driver that answered some other attribute's bytes).
    static func parse(_ answer: [UInt8]) -> String? {
        var bytes = answer[...]
        while bytes.last == 0 { bytes.removeLast() }
        return ReaderText.printable(bytes, lengths: 1...64)
    }
}
