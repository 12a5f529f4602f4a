import NFCBenchRecords
import NFCLocatorCore
import NFCReaders

/// What the session knows of how the phone under test answers, so that a card in the
/// phone's case, a badge on the bench or a second phone nearby is never taken for it.
///
/// Rules, from what phones present in card emulation:
/// - a phone answers with ISO-DEP (ISO 14443-4): Android's HCE and Apple's Wallet both
///   run over it, so a target without it (SAK bit 0x20 clear, a storage card's ATR) is
///   not the phone;
/// - the phone keeps one RF technology through a session;
/// - a phone that showed a random UID (first byte 0x08, ISO 14443-3) shows a new random
///   one each time; a fixed UID after that is another device;
/// - a phone that showed a fixed UID (some Wallet express cards) keeps it; any other
///   UID is another device;
/// - an Android phone answers the Android HCE SELECT (`AndroidHCEProbe`) itself: an
///   ISO-DEP target that refuses it is not the Android phone under test, and a target
///   that answers it is not the iPhone under test. The catalog's platform says which is
///   expected; a phone that answered it once must answer it again.
///
/// The signature is learned from the first read that fits, and from the stored taps
/// on resume, so a resumed session applies the same rules.
public struct PhoneSignature: Sendable, Equatable {
    public enum Fit: Sendable, Equatable {
        case phone
        case foreign(reason: String)
    }

    /// Tag mode: the phone reads the bench's emulated tag, so there is no responder to check.
    public let checksResponders: Bool
    public private(set) var technology: TargetTechnology?
    public private(set) var randomUID: Bool?
    public private(set) var fixedUID: [UInt8]?
    /// The platform the catalog gives the model, or the one the phone's first read showed.
    public private(set) var platform: PhonePlatform

    public init(session: SessionRecord, taps: [TapRecord]) {
        checksResponders = session.mode == .card
        platform = PhonePlatform(modelIdentifier: session.lookupKey)
        for tap in taps where tap.result == .hit { learn(from: tap) }
    }

    /// Learns from a tap the run took as the phone's (the first one only; later ones fit).
    public mutating func learn(from tap: TapRecord) {
        guard technology == nil, tap.result == .hit, let uidText = tap.uid, let uid = Hex.bytes(uidText) else { return }
        technology = tap.technology.flatMap(TargetTechnology.init(rawValue:))
        let random = UIDKind(uid: uid) == .random
        randomUID = random
        fixedUID = random ? nil : uid
        if platform == .unknown, tap.platformProbe == .android { platform = .android }
    }

    /// Whether `target` can be the phone under test, and if not, why.
    public func fit(_ target: DetectedTarget) -> Fit {
        guard checksResponders else { return .phone }
        if ResponderWords.isISODEP(target) == false {
            return .foreign(reason: "it has no ISO-DEP (ISO 14443-4), which every phone's card emulation uses")
        }
        if let technology, target.technology != technology {
            return .foreign(
                reason: "it answered in \(target.technology.rawValue) where the phone answered in \(technology.rawValue)")
        }
        let kind = UIDKind(uid: target.uid)
        if randomUID == true, kind != .random, target.technology == .iso14443A {
            return .foreign(reason: "its UID is fixed where the phone showed a new random UID at every tap")
        }
        if let fixedUID, target.uid != fixedUID {
            return .foreign(reason: "its UID differs from the fixed UID \(Hex.string(fixedUID)) the phone showed")
        }
        switch (platform, target.platformProbe) {
        case (.android, .notAndroid?):
            return .foreign(reason: "it refused the Android HCE SELECT, which every Android phone with NFC on answers")
        case (.iOS, .android?):
            return .foreign(reason: "it answered as an Android phone, and the phone under test is an iPhone")
        default:
            return .phone
        }
    }
}

/// The kind of UID a type A target showed (ISO/IEC 14443-3): a random single-size UID
/// starts with 0x08; otherwise it is fixed, of single (4), double (7) or triple (10) size.
public enum UIDKind: String, Sendable {
    case random
    case fixedSingle = "fixed single-size"
    case fixedDouble = "fixed double-size"
    case fixedTriple = "fixed triple-size"
    case other

    public init(uid: [UInt8]) {
        switch uid.count {
        case 4: self = uid.first == 0x08 ? .random : .fixedSingle
        case 7: self = .fixedDouble
        case 10: self = .fixedTriple
        default: self = .other
        }
    }
}
