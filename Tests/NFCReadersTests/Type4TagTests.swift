import NFCReaders
import Testing

/// NDEF encoding (golden bytes from the NFC Forum record layouts) and the Type 4 tag a
/// bench emulates for a phone's reader: the read procedure iOS and Android follow, its
/// chunking, its status words, and how far a reader that gives up got.
@Suite("NDEF and the Type 4 tag")
struct Type4TagTests {
    @Test func uriRecordUsesTheLongestPrefixCode() {
        let bytes = NDEFMessage([.uri("https://nfcbench.invalid/s/S-1/p/3")]).bytes
        // MB|ME|SR + TNF 1, type length 1, payload length, "U", prefix 0x04 (https://), rest.
        #expect(bytes == [0xD1, 0x01, 0x1B, 0x55, 0x04] + Array("nfcbench.invalid/s/S-1/p/3".utf8))
        #expect(NDEFMessage([.uri("https://www.example.invalid")]).bytes[4] == 0x02)
        #expect(NDEFMessage([.uri("urn:nfc:sn:1")]).bytes[4] == 0x23)
        #expect(NDEFMessage([.uri("x-custom:1")]).bytes[4] == 0x00)
    }

    @Test func textRecordAndSeveralRecords() {
        #expect(
            NDEFMessage([.text("hello", language: "en")]).bytes == [
                0xD1, 0x01, 0x08, 0x54, 0x02, 0x65, 0x6E, 0x68, 0x65, 0x6C, 0x6C, 0x6F,
            ])
        let two = NDEFMessage([.text("a", language: "en"), .uri("tel:1")]).bytes
        #expect(two[0] == 0x91 && two[8] == 0x51)  // MB only, then (after 8 bytes) ME only
    }

    /// A payload over 255 bytes is a normal record with a 4-byte length.
    @Test func longPayloadUsesAFourByteLength() {
        let text = String(repeating: "x", count: 300)
        let bytes = NDEFMessage([.text(text, language: "en")]).bytes
        #expect(Array(bytes.prefix(7)) == [0xC1, 0x01, 0x00, 0x00, 0x01, 0x2F, 0x54] && bytes.count == 7 + 303)
    }

    /// The NFC Forum read procedure as a phone runs it, in MLe-sized chunks.
    func read(_ tag: inout Type4Tag, stopAfter limit: Int? = nil) -> [UInt8]? {
        func ok(_ r: [UInt8]) -> Bool { r.suffix(2) == [0x90, 0x00] }
        guard ok(tag.respond(to: [0x00, 0xA4, 0x04, 0x00, 0x07] + Type4Tag.applicationID + [0x00])),
            ok(tag.respond(to: [0x00, 0xA4, 0x00, 0x0C, 0x02, 0xE1, 0x03]))
        else { return nil }
        let cc = tag.respond(to: [0x00, 0xB0, 0x00, 0x00, 0x0F])
        guard ok(cc), cc.count == 17 else { return nil }
        let mle = Int(cc[3]) << 8 | Int(cc[4])
        guard ok(tag.respond(to: [0x00, 0xA4, 0x00, 0x0C, 0x02, cc[9], cc[10]])) else { return nil }
        let nlen = tag.respond(to: [0x00, 0xB0, 0x00, 0x00, 0x02])
        let length = Int(nlen[0]) << 8 | Int(nlen[1])
        var message: [UInt8] = []
        while message.count < length {
            if let limit, message.count >= limit { return message }
            let offset = 2 + message.count
            let chunk = tag.respond(to: [
                0x00, 0xB0, UInt8(offset >> 8), UInt8(offset & 0xFF), UInt8(min(mle, length - message.count)),
            ])
            guard ok(chunk) else { return nil }
            message += chunk.dropLast(2)
        }
        return message
    }

    @Test func aPhoneReadsTheWholeMessageInChunks() throws {
        let message = NDEFMessage([.text(String(repeating: "nfc ", count: 80), language: "en")])
        var tag = Type4Tag(message: message, maxResponseData: 59)
        #expect(tag.progress == .none && !tag.completed)
        let received = try #require(read(&tag))
        #expect(received == message.bytes && message.bytes.count > 5 * 59)
        #expect(tag.completed && tag.messageBytesRead == message.bytes.count)
    }

    /// A reader that stops part-way is a partial read, with how far it got.
    @Test func aReaderThatGivesUpIsPartial() {
        var tag = Type4Tag(message: NDEFMessage([.text(String(repeating: "y", count: 200), language: "en")]))
        _ = read(&tag, stopAfter: 100)
        #expect(tag.progress == .ndefLengthRead && !tag.completed)
        #expect(tag.messageBytesRead >= 100 && tag.messageBytesRead < 206)
        var early = Type4Tag(message: NDEFMessage([.uri("tel:1")]))
        _ = early.respond(to: [0x00, 0xA4, 0x04, 0x00, 0x07] + Type4Tag.applicationID)
        #expect(early.progress == .applicationSelected)
    }

    @Test(
        arguments: [
            ([0x00, 0xCA, 0x00, 0x00, 0x00], [0x6D, 0x00]),  // GET DATA: not supported
            ([0x80, 0xA4, 0x04, 0x00, 0x00], [0x6E, 0x00]),  // a proprietary class
            ([0x00, 0xA4, 0x04, 0x00, 0x02, 0xA0, 0x00], [0x6A, 0x82]),  // another application
            ([0x00, 0xA4, 0x00, 0x0C, 0x02, 0xE1, 0x03], [0x6A, 0x82]),  // a file before the application
            ([0x00, 0xB0, 0x00, 0x00, 0x0F], [0x69, 0x86]),  // READ BINARY with no file selected
            ([0x00, 0xD6, 0x00, 0x00, 0x01, 0x00], [0x69, 0x82]),  // UPDATE BINARY: read-only
            ([0x00, 0xA4], [0x67, 0x00]),  // too short
        ] as [([UInt8], [UInt8])])
    func unsupportedCommandsGetTheirStatusWords(_ apdu: [UInt8], _ status: [UInt8]) {
        var tag = Type4Tag(message: NDEFMessage([.uri("tel:1")]))
        #expect(tag.respond(to: apdu) == status)
        #expect(tag.progress == .none)
    }

    @Test func readsPastTheFileAndOverMLeAreBounded() {
        var tag = Type4Tag(message: NDEFMessage([.uri("tel:123")]), maxResponseData: 20)
        _ = tag.respond(to: [0x00, 0xA4, 0x04, 0x00, 0x07] + Type4Tag.applicationID)
        _ = tag.respond(to: [0x00, 0xA4, 0x00, 0x0C, 0x02, 0xE1, 0x03])
        #expect(tag.respond(to: [0x00, 0xB0, 0x00, 0x10, 0x01]) == [0x6B, 0x00])  // past the 15-byte CC file
        _ = tag.respond(to: [0x00, 0xA4, 0x00, 0x0C, 0x02, 0xE1, 0x04])
        #expect(tag.respond(to: [0x00, 0xB0, 0x00, 0x00, 0x00]).count == 2 + tag.ndefFile.count)  // Le 0: what there is
        let big = Type4Tag(message: NDEFMessage([.text(String(repeating: "z", count: 60), language: "en")]), maxResponseData: 20)
        var copy = big
        _ = copy.respond(to: [0x00, 0xA4, 0x04, 0x00, 0x07] + Type4Tag.applicationID)
        _ = copy.respond(to: [0x00, 0xA4, 0x00, 0x0C, 0x02, 0xE1, 0x04])
        #expect(copy.respond(to: [0x00, 0xB0, 0x00, 0x00, 0xFF]).count == 20 + 2)  // capped at MLe
    }
}
