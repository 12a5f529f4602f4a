/// An NFC Forum Type 4 Tag (T4T 2.0) holding one read-only NDEF file, answering a phone's
/// reader command by command (ISO 7816-4 APDUs over ISO 14443-4). Pure logic: the chip
/// that carries the APDUs (a PN532 in target mode, the virtual bench) sits around it.
///
/// It records how far a reader got, so a bench can tell a complete NDEF read (a HIT) from
/// a phone that started and gave up (`partial`) and from nothing at all.
public struct Type4Tag: Sendable {
    /// How far the reader got through the NFC Forum read procedure.
    public enum Progress: Int, Sendable, Comparable {
        case none, applicationSelected, capabilitiesRead, ndefFileSelected, ndefLengthRead, ndefRead
        public static func < (a: Progress, b: Progress) -> Bool { a.rawValue < b.rawValue }
    }

    /// NDEF Tag Application, by name (T4T 2.0, 5.4.2).
    public static let applicationID: [UInt8] = [0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01]
    static let capabilityFileID: [UInt8] = [0xE1, 0x03]
    static let ndefFileID: [UInt8] = [0xE1, 0x04]

    /// Largest R-APDU data a reader may ask for in one READ BINARY (MLe), and the largest
    /// C-APDU data it may send (MLc), as the CC file declares them.
    public let maxResponseData: Int
    public let maxCommandData: Int
    /// NLEN (2 bytes) and the message: the NDEF file's content.
    public let ndefFile: [UInt8]
    public let capabilityFile: [UInt8]

    public private(set) var progress: Progress = .none
    /// Bytes of the NDEF message (after NLEN) the reader has read so far, contiguously.
    public private(set) var messageBytesRead = 0

    private enum Selected { case none, application, capabilities, ndef }
    private var selected: Selected = .none
    private var applicationSelected = false

    public init(message: NDEFMessage, maxResponseData: Int = 59, maxCommandData: Int = 52) {
        precondition((15...255).contains(maxResponseData) && (1...255).contains(maxCommandData), "MLe and MLc fit one byte")
        let body = message.bytes
        precondition(body.count <= 0x7FFF - 2, "an NDEF file of a 2-byte NLEN")
        self.maxResponseData = maxResponseData
        self.maxCommandData = maxCommandData
        ndefFile = [UInt8(body.count >> 8), UInt8(body.count & 0xFF)] + body
        let size = ndefFile.count
        capabilityFile =
            [
                0x00, 0x0F,  // CCLEN
                0x20,  // mapping version 2.0
                UInt8(maxResponseData >> 8), UInt8(maxResponseData & 0xFF),  // MLe
                UInt8(maxCommandData >> 8), UInt8(maxCommandData & 0xFF),  // MLc
                0x04, 0x06,  // NDEF File Control TLV
            ] + Self.ndefFileID + [UInt8(size >> 8), UInt8(size & 0xFF), 0x00, 0xFF]  // read free, no write
    }

    /// Status words (ISO 7816-4) the tag answers with.
    public enum Status: UInt16, Sendable {
        case ok = 0x9000
        case wrongLength = 0x6700
        case securityNotSatisfied = 0x6982
        case noCurrentFile = 0x6986
        case notFound = 0x6A82
        case wrongParameters = 0x6B00
        case instructionNotSupported = 0x6D00
        case classNotSupported = 0x6E00
        case wrongP1P2 = 0x6A86
    }

    /// The answer to one C-APDU: data and status word.
    public mutating func respond(to apdu: [UInt8]) -> [UInt8] {
        guard apdu.count >= 4 else { return Self.word(.wrongLength) }
        guard apdu[0] == 0x00 else { return Self.word(.classNotSupported) }
        switch apdu[1] {
        case 0xA4: return select(apdu)
        case 0xB0: return readBinary(apdu)
        case 0xD6: return Self.word(.securityNotSatisfied)  // UPDATE BINARY: the tag is read-only
        default: return Self.word(.instructionNotSupported)
        }
    }

    private mutating func select(_ apdu: [UInt8]) -> [UInt8] {
        guard apdu.count >= 5 else { return Self.word(.wrongLength) }
        let lc = Int(apdu[4])
        guard apdu.count >= 5 + lc, apdu.count <= 6 + lc else { return Self.word(.wrongLength) }
        let data = Array(apdu[5..<5 + lc])
        switch (apdu[2], apdu[3]) {
        case (0x04, 0x00):  // by name
            guard data == Self.applicationID else { return Self.word(.notFound) }
            selected = .application
            applicationSelected = true
            advance(to: .applicationSelected)
        case (0x00, 0x0C):  // by file identifier, no response data
            guard applicationSelected else { return Self.word(.notFound) }
            if data == Self.capabilityFileID {
                selected = .capabilities
            } else if data == Self.ndefFileID {
                selected = .ndef
                if progress >= .capabilitiesRead { advance(to: .ndefFileSelected) }
            } else {
                return Self.word(.notFound)
            }
        default:
            return Self.word(.wrongP1P2)
        }
        return Self.word(.ok)
    }

    private mutating func readBinary(_ apdu: [UInt8]) -> [UInt8] {
        let file: [UInt8]
        switch selected {
        case .capabilities: file = capabilityFile
        case .ndef: file = ndefFile
        case .none, .application: return Self.word(.noCurrentFile)
        }
        guard apdu.count == 5 else { return Self.word(.wrongLength) }
        let offset = Int(apdu[2] & 0x7F) << 8 | Int(apdu[3])
        guard apdu[2] & 0x80 == 0, offset <= file.count else { return Self.word(.wrongParameters) }
        let asked = apdu[4] == 0 ? 256 : Int(apdu[4])
        let count = min(asked, maxResponseData, file.count - offset)
        if selected == .capabilities, offset == 0, count >= 15 { advance(to: .capabilitiesRead) }
        if selected == .ndef {
            if offset == 0, count >= 2 { advance(to: .ndefLengthRead) }
            // Message bytes read contiguously from the start (NLEN excluded).
            let end = offset + count - 2
            if offset <= messageBytesRead + 2, end > messageBytesRead { messageBytesRead = end }
            if progress >= .ndefLengthRead, messageBytesRead >= ndefFile.count - 2 { advance(to: .ndefRead) }
        }
        return Array(file[offset..<offset + count]) + Self.word(.ok)
    }

    private mutating func advance(to step: Progress) { if step > progress { progress = step } }

    static func word(_ status: Status) -> [UInt8] { [UInt8(status.rawValue >> 8), UInt8(status.rawValue & 0xFF)] }

    /// Whether the reader read the whole NDEF message: a HIT in tag mode.
    public var completed: Bool { progress == .ndefRead }
}
