import Testing

@testable import NFCReaderPCSC

/// `SCARD_ATTR_VENDOR_IFD_SERIAL_NO` as drivers answer it: the CCID driver's
/// NUL-terminated USB serial string, or nothing for a reader without one.
@Suite("Reader serial number")
struct ReaderSerialNumberTests {
    @Test func serialsFromDriverAnswersAndNothingFromTheRest() {
        #expect(ReaderSerialNumber.parse(Array("RR174-002117".utf8) + [0]) == "RR174-002117")
        #expect(ReaderSerialNumber.parse(Array("A1B2C3".utf8)) == "A1B2C3", "a driver that leaves the NUL out")
        #expect(ReaderSerialNumber.parse(Array(" 0001 ".utf8) + [0, 0]) == "0001")
        #expect(ReaderSerialNumber.parse([]) == nil, "the CCID driver's answer for a reader without a serial")
        #expect(ReaderSerialNumber.parse([0]) == nil)
        #expect(ReaderSerialNumber.parse(Array("   ".utf8) + [0]) == nil)
        #expect(ReaderSerialNumber.parse([0x53, 0x4E, 0x1B, 0x5B, 0x32, 0x4A, 0]) == nil, "escape codes are no serial")
        #expect(ReaderSerialNumber.parse([0x53, 0x00, 0x4E, 0x00]) == nil, "a NUL inside is not a string")
        #expect(ReaderSerialNumber.parse(Array(repeating: 0x41, count: 65)) == nil)
    }
}
