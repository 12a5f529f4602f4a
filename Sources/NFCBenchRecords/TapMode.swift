import NFCReaders

/// How a session sees the phone: `card`, the phone emulating a card that the reader polls
/// for (HCE, a Wallet pass); `tag`, the reader emulating an NFC Forum Type 4 tag that the
/// phone's own reader reads (any phone, no app). Tag mode maps the phone's reader field.
public enum TapMode: String, Sendable, CaseIterable { case card, tag }

/// How far a phone got through the NFC Forum Type 4 read procedure, as stored.
public enum TagProgress: String, Sendable, CaseIterable {
    case activated = "activated"
    case applicationSelected = "application"
    case capabilitiesRead = "capabilities"
    case ndefFileSelected = "ndef-file"
    case ndefLengthRead = "ndef-length"
    case ndefRead = "ndef-read"

    public init(_ progress: Type4Tag.Progress) {
        switch progress {
        case .none: self = .activated
        case .applicationSelected: self = .applicationSelected
        case .capabilitiesRead: self = .capabilitiesRead
        case .ndefFileSelected: self = .ndefFileSelected
        case .ndefLengthRead: self = .ndefLengthRead
        case .ndefRead: self = .ndefRead
        }
    }
}
