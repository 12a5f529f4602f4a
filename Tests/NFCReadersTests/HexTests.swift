import NFCReaders
import Testing

@Suite struct HexTests {
    @Test func writesUpperCaseDigitsWithTheSeparatorBetweenBytesOnly() {
        #expect(Hex.string([0x08, 0xA1, 0xB2, 0xC3]) == "08A1B2C3")
        #expect(Hex.string([0x00, 0xFF, 0x5A], separator: " ") == "00 FF 5A")
        #expect(Hex.string([0x0F], separator: ":") == "0F")
        #expect(Hex.string([UInt8](), separator: " ") == "")
        #expect(Hex.string(Array(0x9A...0x9F) as [UInt8], separator: "--") == "9A--9B--9C--9D--9E--9F")
    }

    @Test func everyByteReadsBackThroughEverySeparator() {
        let all = (0...255).map { UInt8($0) }
        for separator in ["", " ", ":", "-"] {
            let text = Hex.string(all, separator: separator)
            #expect(text.count == 512 + 255 * separator.count)
            #expect(Hex.bytes(text) == all, "separator '\(separator)'")
        }
        // A lazy sequence, not an array: the same text.
        #expect(Hex.string(all.lazy.map { $0 }) == Hex.string(all))
    }
}
