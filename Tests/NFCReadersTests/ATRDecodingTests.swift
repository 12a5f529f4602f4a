import Testing

@testable import NFCReaders

@Suite("ATR and ATS decoding")
struct ATRDecodingTests {
    @Test(arguments: [
        ("3B 80 80 01 01", "ISO 14443-4, no historical bytes", true),
        ("3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 00 01 00 00 00 00 6A", "MIFARE Classic 1K (ISO 14443 A part 3)", true),
        ("3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 00 03 00 00 00 00 68", "MIFARE Ultralight (ISO 14443 A part 3)", true),
        ("3B 8F 80 01 80 4F 0C A0 00 00 03 06 11 00 3B 00 00 00 00 42", "FeliCa (FeliCa)", true),
        ("3B 88 80 01 00 00 00 00 00 81 71 00 F9", "ISO 14443-4, historical bytes 00 00 00 00 00 81 71 00", true),
        ("3B 81 80 01 80 80", "ISO 14443-4, historical bytes 80", true),
        ("3B 80 80 01 02", "ISO 14443-4, no historical bytes", false),
    ])
    func decodes(hex: String, summary: String, checksum: Bool) throws {
        let info = try #require(ATRInfo(atr: Hex.bytes(hex)!))
        #expect(info.summary == summary)
        #expect(info.checksumValid == checksum)
    }

    @Test(arguments: ["3B 00", "3B 8F 80 01", "3F 80 80 01 01", "3B 82 80 01 01", ""])
    func rejectsNonContactlessATRs(hex: String) {
        #expect(ATRInfo(atr: Hex.bytes(hex) ?? []) == nil)
    }

    @Test(arguments: [
        ("78 80 70 02", ""),  // TA TB TC, no historical bytes
        ("78 33 88 02 4A 43 4F 50", "4A 43 4F 50"),  // "JCOP"
        ("00 80 31", "80 31"),  // no interface bytes
        ("10 80 AB", "AB"),  // TA only
        ("", ""),
    ])
    func atsHistoricalBytes(ats: String, historical: String) {
        #expect(ATRInfo.historicalBytes(ofATS: Hex.bytes(ats)!) == Hex.bytes(historical)!)
    }

    @Test func atrBuiltFromATSRoundTrips() throws {
        let atr = ATRInfo.atr(forATS: Hex.bytes("78 33 88 02 4A 43 4F 50")!)
        #expect(Hex.string(atr, separator: " ") == "3B 84 80 01 4A 43 4F 50 13")
        let info = try #require(ATRInfo(atr: atr))
        #expect(info.checksumValid && info.historicalBytes == Hex.bytes("4A434F50"))
        #expect(ATRInfo.atr(forATS: [0x78, 0x80, 0x70, 0x02]) == TargetClassifier.phoneATR)
    }

    @Test(arguments: [
        ("08A1B2C3", UInt8?.some(0x20), String?.none, TargetKind.phoneCardEmulation),
        ("04A1B2C3D4E5F6", 0x20, nil, .smartCard),
        ("04A1B2C3D4E5F6", 0x00, nil, .storageCard),
        ("", nil, "3B 80 80 01 01", .phoneCardEmulation),
        ("08112233", nil, "3B 80 80 01 01", .phoneCardEmulation),
        ("04A1B2C3D4E5F6", nil, "3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 00 01 00 00 00 00 6A", .storageCard),
        ("11223344", nil, "3B 84 80 01 4A 43 4F 50 13", .smartCard),
    ])
    func classifies(uid: String, sak: UInt8?, atr: String?, kind: TargetKind) {
        let tech: TargetTechnology = .iso14443A
        #expect(
            TargetClassifier.classify(
                technology: tech, uid: Hex.bytes(uid)!, sak: sak,
                atr: atr.flatMap(Hex.bytes)) == kind)
    }

    @Test func hexRoundTrip() {
        #expect(Hex.bytes("08:a1 b2-C3") == [0x08, 0xA1, 0xB2, 0xC3])
        #expect(Hex.bytes("0") == nil && Hex.bytes("zz") == nil)
        #expect(Hex.string([0x3B, 0x80], separator: " ") == "3B 80")
    }
}
