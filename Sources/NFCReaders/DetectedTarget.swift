import Foundation

/// The RF technology a target answered with.
public enum TargetTechnology: String, Sendable, Codable {
    case iso14443A = "ISO14443A"
    case iso14443B = "ISO14443B"
}

/// What a target probably is. Heuristic: never use it (or a UID) to identify a phone.
public enum TargetKind: String, Sendable, Codable {
    /// A phone emulating a card: random UID (first byte 0x08) with ISO-DEP, or the bare
    /// ISO 14443-4 ATR `3B 80 80 01 01` an ACR122U reports for such targets.
    case phoneCardEmulation = "phone (card emulation)"
    case smartCard = "ISO 14443-4 card"
    case storageCard = "storage card"
    case unknown
}

/// One target seen by a reader. Phones show a new random UID on every tap, so the UID
/// describes this tap only.
public struct DetectedTarget: Sendable, Hashable {
    public let technology: TargetTechnology
    /// UID (type A) or PUPI (type B).
    public let uid: [UInt8]
    public let atqa: [UInt8]?
    public let sak: UInt8?
    /// ATS without its length byte.
    public let ats: [UInt8]?
    public let atqb: [UInt8]?
    /// ATR as PC/SC reports it (PC/SC backend only).
    public let atr: [UInt8]?
    public let kind: TargetKind
    /// From the start of the wait to detection.
    public let latency: Duration
    /// Name of the reader that saw it.
    public let reader: String
    /// The Android HCE probe's finding (`AndroidHCEProbe`), for readers that exchange APDUs
    /// with the target; `nil` when it was not asked.
    public var platformProbe: PlatformProbe?

    public init(
        technology: TargetTechnology, uid: [UInt8], atqa: [UInt8]? = nil, sak: UInt8? = nil,
        ats: [UInt8]? = nil, atqb: [UInt8]? = nil, atr: [UInt8]? = nil, latency: Duration, reader: String
    ) {
        self.technology = technology
        self.uid = uid
        self.atqa = atqa
        self.sak = sak
        self.ats = ats
        self.atqb = atqb
        self.atr = atr
        self.latency = latency
        self.reader = reader
        self.kind = TargetClassifier.classify(technology: technology, uid: uid, sak: sak, atr: atr)
    }

    public var latencyMilliseconds: Double { latency.seconds * 1000 }

    /// The decoded ATR, when there is one.
    public var atrInfo: ATRInfo? { atr.flatMap(ATRInfo.init(atr:)) }
}

/// Rules for `TargetKind`.
public enum TargetClassifier {
    public static let phoneATR: [UInt8] = [0x3B, 0x80, 0x80, 0x01, 0x01]

    public static func classify(technology: TargetTechnology, uid: [UInt8], sak: UInt8?, atr: [UInt8]?) -> TargetKind {
        let randomUID = uid.count == 4 && uid.first == 0x08
        let isoDEP = sak.map { $0 & 0x20 != 0 }
        if atr == phoneATR && (randomUID || uid.isEmpty) { return .phoneCardEmulation }
        if randomUID && (isoDEP ?? (atr.map { ATRInfo(atr: $0)?.isISO14443Part4 ?? false } ?? false)) {
            return .phoneCardEmulation
        }
        if let info = atr.flatMap(ATRInfo.init(atr:)) {
            return info.isISO14443Part4 ? .smartCard : .storageCard
        }
        if let isoDEP { return isoDEP ? .smartCard : .storageCard }
        return technology == .iso14443B ? .smartCard : .unknown
    }
}
