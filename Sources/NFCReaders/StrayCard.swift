/// A card that is not the phone, lying where the reader meets it: in the phone's case (a
/// transit card in a wallet case) over `region` of the phone's back. When the reader is
/// over the region, the card answers. When the phone couples there too, the card wins
/// the anticollision: the worst case for a bench, which must never take it for the phone.
public struct StrayCard: Sendable, Hashable, Codable {
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// MIFARE Classic 1K: fixed 4-byte UID, ATQA 00 04, SAK 08, no ISO-DEP.
        case mifareClassic = "mifare-classic"
        /// A dual-interface card (SAK 28: MIFARE Classic with ISO-DEP), e.g. a bank or transit card.
        case dualInterface = "dual-interface"
    }

    public let kind: Kind
    /// (x, y, width, height) fractions of the phone's back.
    public let region: [Double]
    public let uid: [UInt8]

    public init(kind: Kind, region: (x: Double, y: Double, width: Double, height: Double), uid: [UInt8]) {
        precondition(uid.count == 4, "a stray card shows a fixed single-size UID")
        precondition(region.width > 0 && region.height > 0, "a card covers an area")
        self.kind = kind
        self.region = [region.x, region.y, region.width, region.height]
        self.uid = uid
    }

    /// Whether the reader's antenna centre at (x, y) is over the card.
    public func covers(x: Double, y: Double) -> Bool {
        x >= region[0] && x <= region[0] + region[2] && y >= region[1] && y <= region[1] + region[3]
    }

    public var target: SimulatedTarget {
        switch kind {
        case .mifareClassic:
            SimulatedTarget(technology: .iso14443A, uid: uid, atqa: [0x00, 0x04], sak: 0x08, ats: [], atqb: [])
        case .dualInterface:
            SimulatedTarget(
                technology: .iso14443A, uid: uid, atqa: [0x00, 0x04], sak: 0x28, ats: [0x78, 0x77, 0x91, 0x02, 0x80],
                atqb: [])
        }
    }
}
