/// ACR122U-family readers name their firmware when asked with the pseudo-APDU
/// `FF 00 48 00 00` ("ACR122U207"): ASCII, without a status word (some firmware append
/// `90 00`). It reads a string and changes nothing on the chip. Only readers that answered
/// the PICC operating parameter query (`FF 00 50`, `PICCParameterGuard`) are asked, so
/// other readers never see an escape command they do not know.
enum ReaderFirmwareQuery {
    static let command: [UInt8] = [0xFF, 0x00, 0x48, 0x00, 0x00]

    /// The firmware's name, or `nil` for an error status or anything but a short printable string.
    static func parse(_ answer: [UInt8]) -> String? {
        var bytes = answer[...]
        if bytes.count >= 2, bytes.suffix(2) == [0x90, 0x00] { bytes.removeLast(2) }
        return ReaderText.printable(bytes, lengths: 4...40)
    }
}
