/// A phone reading an NFC Forum Type 4 Tag as iOS (Core NFC's background tag reading) and
/// Android (the NFC service's NDEF dispatch) do: the NDEF Tag Application by name, the
/// capability container, the NDEF file, its length, then the message in chunks no larger
/// than the tag's MLe. Any answer that is not what the procedure expects ends the read
/// (a phone gives up on a malformed tag and tries again only on the next tap).
///
/// Pure logic, C-APDU out, R-APDU in: the virtual bench's PN532 carries the bytes.
public struct PhoneTagReader: Sendable {
    public enum Outcome: Sendable, Equatable {
        case reading
        /// The whole NDEF message (without NLEN).
        case read([UInt8])
        /// Stopped before the end: why, and how many message bytes it had.
        case gaveUp(reason: String, messageBytes: Int)
    }

    private enum Step: Sendable {
        case selectApplication, selectCapabilities, readCapabilities, selectNDEF, readLength, readMessage
    }

    public private(set) var outcome: Outcome = .reading
    /// Commands sent so far.
    public private(set) var commands = 0
    /// Stop after this many commands (a phone moved away mid-read, or a misbehaving one).
    public let abortAfter: Int?
    private var step: Step = .selectApplication
    private var maxResponseData = 0
    private var ndefFileID: [UInt8] = []
    private var length = 0
    private var message: [UInt8] = []

    public init(abortAfter: Int? = nil) {
        precondition(abortAfter.map { $0 >= 0 } ?? true, "a phone sends at least no command")
        self.abortAfter = abortAfter
    }

    /// The first command: SELECT the NDEF Tag Application by name (T4T 2.0).
    public mutating func start() -> [UInt8]? { send([0x00, 0xA4, 0x04, 0x00, 0x07] + Type4Tag.applicationID + [0x00]) }

    /// Takes the tag's answer to the last command; returns the next command, or `nil` when
    /// the read ended (`outcome` says how).
    public mutating func receive(_ answer: [UInt8]) -> [UInt8]? {
        guard case .reading = outcome else { return nil }
        guard answer.count >= 2, answer.suffix(2) == [0x90, 0x00] else {
            let word = answer.count >= 2 ? Hex.string(Array(answer.suffix(2))) : "a short answer"
            return stop("the tag answered \(word) to \(step)")
        }
        let data = Array(answer.dropLast(2))
        switch step {
        case .selectApplication:
            step = .selectCapabilities
            return send([0x00, 0xA4, 0x00, 0x0C, 0x02, 0xE1, 0x03])
        case .selectCapabilities:
            step = .readCapabilities
            return send([0x00, 0xB0, 0x00, 0x00, 0x0F])
        case .readCapabilities:
            // CCLEN, mapping version 2.x or 3.x, MLe >= 15, and an NDEF File Control TLV whose
            // read access condition (its fifth value byte) is free.
            guard data.count >= 15, Int(data[0]) << 8 | Int(data[1]) >= 15, [0x2, 0x3].contains(data[2] >> 4),
                data[7] == 0x04, data[8] >= 0x06, data[13] == 0x00
            else { return stop("the capability container is not a readable T4T 2.0 one") }
            maxResponseData = Int(data[3]) << 8 | Int(data[4])
            guard maxResponseData >= 0x0F else { return stop("the capability container's MLe is below 15") }
            ndefFileID = Array(data[9...10])
            step = .selectNDEF
            return send([0x00, 0xA4, 0x00, 0x0C, 0x02] + ndefFileID)
        case .selectNDEF:
            step = .readLength
            return send([0x00, 0xB0, 0x00, 0x00, 0x02])
        case .readLength:
            guard data.count == 2 else { return stop("NLEN is not two bytes") }
            length = Int(data[0]) << 8 | Int(data[1])
            guard length > 0 else { return stop("the NDEF file is empty") }
            step = .readMessage
            return nextChunk()
        case .readMessage:
            guard !data.isEmpty, message.count + data.count <= length else { return stop("READ BINARY gave the wrong length") }
            message += data
            if message.count == length {
                outcome = .read(message)
                return nil
            }
            return nextChunk()
        }
    }

    /// Ends a read from outside: the phone left the field before it finished.
    public mutating func abandon(_ reason: String) {
        if case .reading = outcome { outcome = .gaveUp(reason: reason, messageBytes: message.count) }
    }

    private mutating func nextChunk() -> [UInt8]? {
        let offset = 2 + message.count
        let count = min(maxResponseData, length - message.count, 255)
        return send([0x00, 0xB0, UInt8(offset >> 8), UInt8(offset & 0xFF), UInt8(count)])
    }

    private mutating func send(_ command: [UInt8]) -> [UInt8]? {
        if let abortAfter, commands >= abortAfter { return stop("the phone stopped after \(commands) commands") }
        commands += 1
        return command
    }

    private mutating func stop(_ reason: String) -> [UInt8]? {
        outcome = .gaveUp(reason: reason, messageBytes: message.count)
        return nil
    }
}
