/// An ATR decoded the way PC/SC Part 3 (section 3.1.3.2.3) builds them for contactless
/// targets: storage cards carry RID `A0 00 00 03 06`, a card standard and a card name;
/// ISO 14443-4 targets carry their historical bytes (type A: from the ATS; type B: from
/// ATQB and ATTRIB).
public struct ATRInfo: Sendable, Hashable {
    public enum Content: Sendable, Hashable {
        case storageCard(standard: UInt8, name: UInt16)
        case iso14443Part4(historicalBytes: [UInt8])
    }

    public static let pcscRID: [UInt8] = [0xA0, 0x00, 0x00, 0x03, 0x06]

    public let atr: [UInt8]
    public let historicalBytes: [UInt8]
    public let content: Content
    /// TCK (XOR of T0 ... TCK) is zero, as required when T=1 is indicated.
    public let checksumValid: Bool

    /// `nil` when the bytes are not a PC/SC contactless ATR (`3B 8n 80 01 ...`).
    public init?(atr: [UInt8]) {
        guard atr.count >= 5, atr[0] == 0x3B, atr[1] & 0xF0 == 0x80, atr[2] == 0x80, atr[3] == 0x01 else { return nil }
        let historicalCount = Int(atr[1] & 0x0F)
        guard atr.count == 4 + historicalCount + 1 else { return nil }
        self.atr = atr
        historicalBytes = Array(atr[4..<(4 + historicalCount)])
        checksumValid = atr.dropFirst().reduce(0, ^) == 0
        let h = historicalBytes
        if h.count >= 15, h[0] == 0x80, h[1] == 0x4F, h[2] == 0x0C, Array(h[3..<8]) == Self.pcscRID {
            content = .storageCard(standard: h[8], name: UInt16(h[9]) << 8 | UInt16(h[10]))
        } else {
            content = .iso14443Part4(historicalBytes: h)
        }
    }

    public var isISO14443Part4: Bool {
        if case .iso14443Part4 = content { return true }
        return false
    }

    /// A line for people: `ISO 14443-4, no historical bytes`, `MIFARE Classic 1K (ISO 14443 A part 3)`.
    public var summary: String {
        switch content {
        case .iso14443Part4(let h):
            return h.isEmpty
                ? "ISO 14443-4, no historical bytes" : "ISO 14443-4, historical bytes \(Hex.string(h, separator: " "))"
        case .storageCard(let standard, let name):
            return "\(Self.cardName(name)) (\(Self.standardName(standard)))"
        }
    }

    /// PC/SC Part 3 supplement, card standards (SS).
    public static func standardName(_ ss: UInt8) -> String {
        switch ss {
        case 0x00: "no information"
        case 0x01: "ISO 14443 A part 1"
        case 0x02: "ISO 14443 A part 2"
        case 0x03: "ISO 14443 A part 3"
        case 0x05: "ISO 14443 B part 1"
        case 0x06: "ISO 14443 B part 2"
        case 0x07: "ISO 14443 B part 3"
        case 0x09: "ISO 15693 part 1"
        case 0x0A: "ISO 15693 part 2"
        case 0x0B: "ISO 15693 part 3"
        case 0x0C: "ISO 15693 part 4"
        case 0x11: "FeliCa"
        default: "card standard 0x" + Hex.string([ss])
        }
    }

    /// PC/SC Part 3 supplement, card names (NN NN), the common ones.
    public static func cardName(_ nn: UInt16) -> String {
        switch nn {
        case 0x0001: "MIFARE Classic 1K"
        case 0x0002: "MIFARE Classic 4K"
        case 0x0003: "MIFARE Ultralight"
        case 0x0026: "MIFARE Mini"
        case 0x003A: "MIFARE Ultralight C"
        case 0x0036: "MIFARE Plus SL1 2K"
        case 0x0037: "MIFARE Plus SL1 4K"
        case 0x0038: "MIFARE Plus SL2 2K"
        case 0x0039: "MIFARE Plus SL2 4K"
        case 0x003B: "FeliCa"
        case 0xF004: "Topaz/Jewel"
        case 0xF011: "FeliCa 212K"
        case 0xF012: "FeliCa 424K"
        default: "card name 0x" + Hex.string([UInt8(nn >> 8), UInt8(nn & 0xFF)])
        }
    }

    /// Builds the ATR PC/SC readers report for an ISO 14443-4 type A target from its ATS
    /// (without length byte): `3B 8n 80 01 <historical bytes> TCK`.
    public static func atr(forATS ats: [UInt8]) -> [UInt8] {
        atr(historicalBytes: historicalBytes(ofATS: ats))
    }

    public static func atr(historicalBytes h: [UInt8]) -> [UInt8] {
        precondition(h.count <= 15, "at most 15 historical bytes fit in an ATR")
        var out: [UInt8] = [0x3B, 0x80 | UInt8(h.count), 0x80, 0x01] + h
        out.append(out.dropFirst().reduce(0, ^))
        return out
    }

    /// The historical bytes of an ATS (without its TL byte): after T0 and the interface
    /// bytes TA/TB/TC that T0 announces.
    public static func historicalBytes(ofATS ats: [UInt8]) -> [UInt8] {
        guard let t0 = ats.first else { return [] }
        var index = 1
        for bit in [UInt8(0x10), 0x20, 0x40] where t0 & bit != 0 { index += 1 }
        return index < ats.count ? Array(ats[index...]) : []
    }
}
