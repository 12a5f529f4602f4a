/// Whether a target is an Android phone, asked the way Android itself answers: SELECT
/// of the Android HCE AID `A000000476416E64726F6964484345`. AOSP's `HostEmulationManager`
/// answers it in the NFC service, with no app installed, with `14 81 00 00 90 00`; an
/// AID nobody registered gets `6A 82`, and a card without ISO-DEP cannot be asked.
public enum AndroidHCEProbe {
    public static let aid: [UInt8] = [0xA0, 0x00, 0x00, 0x04, 0x76, 0x41, 0x6E, 0x64, 0x72, 0x6F, 0x69, 0x64, 0x48, 0x43, 0x45]
    /// SELECT by DF name, first or only occurrence, Le 00.
    public static let select: [UInt8] = [0x00, 0xA4, 0x04, 0x00, UInt8(aid.count)] + aid + [0x00]
    public static let androidAnswer: [UInt8] = [0x14, 0x81, 0x00, 0x00, 0x90, 0x00]

    /// What an answer (or none) says. Only an application's verdict on the SELECT says
    /// "not Android": success with other data, or a refusal of the AID or command
    /// (6A xx, 69 xx, 6D 00, 6E 00). A transport or execution error (6F 00, 64 xx, 65 xx,
    /// a reader's own error) says nothing: the target may have left mid-exchange.
    public static func platform(fromAnswer answer: [UInt8]?) -> PlatformProbe {
        guard let answer, answer.count >= 2 else { return .noAnswer }
        if answer == androidAnswer { return .android }
        let sw1 = answer[answer.count - 2], sw2 = answer[answer.count - 1]
        switch (sw1, sw2) {
        case (0x90, 0x00), (0x6A, _), (0x69, _), (0x6D, 0x00), (0x6E, 0x00): return .notAndroid
        default: return .noAnswer
        }
    }

    /// Whether `apdu` is this probe's SELECT.
    public static func isProbe(_ apdu: [UInt8]) -> Bool {
        apdu.count >= 5 + aid.count && Array(apdu.prefix(4)) == [0x00, 0xA4, 0x04, 0x00] && Int(apdu[4]) == aid.count
            && Array(apdu[5..<(5 + aid.count)]) == aid
    }
}

/// What the Android HCE probe found out about a target.
public enum PlatformProbe: String, Sendable, Hashable, CaseIterable {
    /// Answered `14 81 00 00 90 00`: Android's NFC service.
    case android
    /// Answered something else (`6A 82`...): an ISO-DEP target that is no Android phone.
    case notAndroid = "not-android"
    /// No answer to read (no ISO-DEP, the target left, the exchange failed): says nothing.
    case noAnswer = "no-answer"
}
