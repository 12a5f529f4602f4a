import NFCReaders

/// The ACR122U's Direct Transmit pseudo-APDU (ACR122U API, "Direct Transmit"): a PN532
/// command passed through the reader's firmware to its chip, `FF 00 00 00 Lc D4 ...`,
/// answered `D5 ... 90 00`. It reaches the chip by the escape path (`SCardControl` on a
/// direct connection, which libccid passes only with `ifdDriverOptions` 0x0001), else as
/// an APDU while a card connection is up (`PCSCReader`'s escape channel).
///
/// An answer of `61 xx` (readers connected with T=0) holds the response back until it is
/// fetched with Get Response, `FF C0 00 00 xx`.
enum DirectTransmit {
    /// The pseudo-APDU carrying one PN532 command (its code and parameters, without D4).
    static func command(_ code: UInt8, _ parameters: [UInt8]) -> [UInt8] {
        let payload = [0xD4, code] + parameters
        precondition(payload.count <= 0xFF, "a direct transmit carries at most 255 bytes")
        return [0xFF, 0x00, 0x00, 0x00, UInt8(payload.count)] + payload
    }

    static func getResponse(_ length: UInt8) -> [UInt8] { [0xFF, 0xC0, 0x00, 0x00, length] }

    enum Answer: Equatable {
        /// The chip's response data after `D5 (code + 1)`.
        case data([UInt8])
        /// `61 xx`: the response waits to be fetched with Get Response.
        case pending(UInt8)
        /// Anything else: an error status (`63 00`, the operation failed) or a malformed answer.
        case refused([UInt8])
    }

    /// Reads the reader's answer to `command(code, ...)`.
    static func parse(_ answer: [UInt8], code: UInt8) -> Answer {
        if answer.count == 2, answer[0] == 0x61 { return .pending(answer[1]) }
        guard answer.count >= 4, answer.suffix(2) == [0x90, 0x00], answer[0] == 0xD5, answer[1] == code &+ 1 else {
            return .refused(answer)
        }
        return .data(Array(answer.dropFirst(2).dropLast(2)))
    }
}

/// The answer to InAutoPoll (PN532 user manual UM0701-02, §7.3.13): `NbTg`, then per
/// target its type, the length of its data and the data, laid out as InListPassiveTarget
/// gives it for that type.
enum AutoPollAnswer {
    /// Type A of any kind (generic 106 kbps) and ISO 14443-4 type B: a phone answers one or
    /// the other, as does a card in its case.
    static let types: [UInt8] = [0x00, 0x23]

    /// InAutoPoll's parameters for one round of about `window`: PollNr 1, and a period (in
    /// 150 ms units per type) that fits the window, at least one.
    static func parameters(window: Duration) -> [UInt8] {
        let perType = Duration.milliseconds(150 * types.count)
        let periods = Int((window / perType).rounded(.down))
        return [0x01, UInt8(min(max(periods, 1), 15))] + types
    }

    /// The first target, or `nil` when none answered. A malformed answer is not silence:
    /// it throws, and the caller counts the round as faulty.
    static func firstTarget(_ data: [UInt8], latency: Duration, reader: String) throws(ReaderError) -> DetectedTarget? {
        guard let count = data.first else { throw malformed(data, reader) }
        guard count > 0 else { return nil }
        guard data.count >= 3, data.count >= 3 + Int(data[2]) else { throw malformed(data, reader) }
        let type = data[1]
        let target = Array(data[3..<(3 + Int(data[2]))])
        switch type {
        case 0x00, 0x10, 0x20:
            // Tg, SENS_RES (2), SEL_RES, NFCIDLength, NFCID, then the ATS with its length byte.
            guard target.count >= 5, target.count >= 5 + Int(target[4]) else { throw malformed(data, reader) }
            let uidEnd = 5 + Int(target[4])
            let sak = target[3]
            var ats: [UInt8]?
            if sak & 0x20 != 0, target.count > uidEnd {
                let length = Int(target[uidEnd])
                guard length >= 1, target.count >= uidEnd + length else { throw malformed(data, reader) }
                ats = Array(target[(uidEnd + 1)..<(uidEnd + length)])
            }
            return DetectedTarget(
                technology: .iso14443A, uid: Array(target[5..<uidEnd]), atqa: Array(target[1...2]), sak: sak, ats: ats,
                latency: latency, reader: reader)
        case 0x03, 0x23:
            // Tg, ATQB (12: 50, PUPI (4), application data, protocol info), ATTRIB_RES.
            guard target.count >= 13, target[1] == 0x50 else { throw malformed(data, reader) }
            return DetectedTarget(
                technology: .iso14443B, uid: Array(target[2...5]), atqb: Array(target[1...12]), latency: latency,
                reader: reader)
        default:
            throw malformed(data, reader)
        }
    }

    private static func malformed(_ data: [UInt8], _ reader: String) -> ReaderError {
        .garbage(reader, underlying: "InAutoPoll answered \(Hex.string(data, separator: " "))")
    }
}
