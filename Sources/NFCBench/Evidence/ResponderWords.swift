import NFCBenchRecords
import NFCReaders

/// Who answered, in the words an operator acts on: "a MIFARE Classic 1K card (UID
/// 5A1B2C3D)". From the SAK (NXP AN10833, "MIFARE type identification procedure") or,
/// over PC/SC, the ATR's card name (PC/SC Part 3).
public enum ResponderWords {
    /// ISO-DEP from the SAK's bit 0x20 (type A), the ATR's ISO 14443-4 form (PC/SC), or
    /// type B (ISO 14443-4 is the only protocol a phone speaks over B); `nil` when the
    /// reader reported neither (a replayed tap), which proves nothing either way.
    public static func isISODEP(_ target: DetectedTarget) -> Bool? {
        if let sak = target.sak { return sak & 0x20 != 0 }
        if let info = target.atrInfo { return info.isISO14443Part4 }
        return target.technology == .iso14443B ? true : nil
    }

    public static func describe(_ target: DetectedTarget) -> String {
        "\(kind(technology: target.technology, sak: target.sak, atr: target.atrInfo)) (UID \(Hex.string(target.uid)))"
    }

    /// The same words for a stored tap (its identity columns).
    public static func describe(_ tap: TapRecord) -> String {
        let technology = tap.technology.flatMap(TargetTechnology.init(rawValue:)) ?? .iso14443A
        let sak = tap.sak.flatMap(Hex.bytes).flatMap(\.first)
        let atr = tap.atr.flatMap(Hex.bytes).flatMap(ATRInfo.init(atr:))
        return "\(kind(technology: technology, sak: sak, atr: atr)) (UID \(tap.uid ?? "unknown"))"
    }

    static func kind(technology: TargetTechnology, sak: UInt8?, atr: ATRInfo?) -> String {
        if technology == .iso14443B { return "an ISO 14443-B card" }
        if let sak {
            switch sak {
            case 0x08: return "a MIFARE Classic 1K card"
            case 0x18: return "a MIFARE Classic 4K card"
            case 0x09: return "a MIFARE Mini card"
            case 0x00: return "a MIFARE Ultralight or NTAG tag"
            case 0x10, 0x11: return "a MIFARE Plus card"
            case 0x28, 0x38: return "a dual-interface card (MIFARE Classic with ISO-DEP, e.g. a transit or bank card)"
            default: return sak & 0x20 != 0 ? "an ISO 14443-4 target" : "an ISO 14443-3 card (SAK \(Hex.string([sak])))"
            }
        }
        if let atr {
            if case .storageCard(_, let name) = atr.content { return "a \(ATRInfo.cardName(name)) card" }
            return "an ISO 14443-4 target"
        }
        return "an ISO 14443-A target"
    }
}
