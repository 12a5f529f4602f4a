import NFCBenchRecords

/// How far a phone got through the NFC Forum Type 4 read (`TagProgress`), in words a
/// report states, and what early stops mean for the phone.
public enum PartialReadWords {
    /// "selecting the NDEF application": the last step the phone completed.
    public static func stage(_ progress: TagProgress) -> String {
        switch progress {
        case .activated: "activating the tag (it selected nothing)"
        case .applicationSelected: "selecting the NDEF application"
        case .capabilitiesRead: "reading the capability container"
        case .ndefFileSelected: "selecting the NDEF file"
        case .ndefLengthRead: "reading the message length"
        case .ndefRead: "reading part of the message"
        }
    }

    /// The verdict's sentence about reads that stopped early, or `nil` when none did.
    public static func sentence(partial: Int, of positions: Int) -> String? {
        guard partial > 0 else { return nil }
        let count = partial == 1 ? "1 read" : "\(partial) reads"
        return "\(count) of \(positions) positions stopped early (PARTIAL): the phone's field reached the tag there,"
            + " so the zone counts them, but the phone did not finish reading; near the coil's edge that is expected,"
            + " at its centre it points to a weak or badly placed coil, or a phone that cancels reads."
    }
}
