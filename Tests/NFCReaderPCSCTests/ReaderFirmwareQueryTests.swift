import Testing

@testable import NFCReaderPCSC

/// The firmware's name from `FF 00 48 00 00`: an ACR122U's ASCII answer with or without a
/// status word; an error status or binary is no name.
@Suite("Reader firmware query")
struct ReaderFirmwareQueryTests {
    @Test func namesFromAnswersAndNothingFromErrors() {
        #expect(ReaderFirmwareQuery.parse(Array("ACR122U207".utf8)) == "ACR122U207")
        #expect(ReaderFirmwareQuery.parse(Array("ACR122U215".utf8) + [0x90, 0x00]) == "ACR122U215")
        #expect(ReaderFirmwareQuery.parse(Array(" ACR1252U ".utf8)) == "ACR1252U")
        #expect(ReaderFirmwareQuery.parse([0x6D, 0x00]) == nil)
        #expect(ReaderFirmwareQuery.parse([0x63, 0x00]) == nil)
        #expect(ReaderFirmwareQuery.parse([0x41, 0x43, 0x52, 0x1B, 0x5B, 0x32, 0x4A]) == nil, "escape codes are no name")
        #expect(ReaderFirmwareQuery.parse(Array(repeating: 0x41, count: 64)) == nil)
        #expect(ReaderFirmwareQuery.parse([]) == nil)
    }
}
