import CPCSCLite

/// The reader's channel as its driver answers `SCARD_ATTR_CHANNEL_ID`: a DWORD in the
/// host's byte order, `0x0020` in its high half for USB and the bus and device address in
/// its low half (libccid). Asked on a direct connection, like the serial number; what it
/// names is where a reader's journals are kept (`ReaderDevice.pcscKey`, issue 49, L2).
enum ReaderChannel {
    static var attribute: DWORD { nfcbench_attr_channel_id() }

    /// The channel, or `nil` for an answer that is not one DWORD.
    static func parse(_ answer: [UInt8]) -> UInt32? {
        guard answer.count == 4 || answer.count == 8 else { return nil }
        // pcsc-lite passes the driver's DWORD through as bytes, little-endian on the hosts
        // nfcbench runs on; an 8-byte answer is a 64-bit DWORD whose high half is zero.
        guard answer.count == 4 || answer[4...].allSatisfy({ $0 == 0 }) else { return nil }
        return answer[..<4].reversed().reduce(0) { $0 << 8 | UInt32($1) }
    }
}
