import NFCReaders
import Testing

@Suite("A phone reading a Type 4 tag")
struct PhoneTagReaderTests {
    /// Runs the phone against the tag until the phone stops.
    func read(_ tag: inout Type4Tag, phone: inout PhoneTagReader, corrupt: (Int, [UInt8]) -> [UInt8] = { $1 }) -> Int {
        var exchanges = 0
        var command = phone.start()
        while let c = command {
            command = phone.receive(corrupt(exchanges, tag.respond(to: c)))
            exchanges += 1
        }
        return exchanges
    }

    /// The whole procedure, with a message longer than MLe read in several READ BINARYs.
    @Test(arguments: [15, 59, 255])
    func readsTheWholeMessageInChunksOfMLe(maxResponseData: Int) throws {
        let message = NDEFMessage([.uri("https://example.invalid/" + String(repeating: "a", count: 300))])
        var tag = Type4Tag(message: message, maxResponseData: maxResponseData)
        var phone = PhoneTagReader()
        let exchanges = read(&tag, phone: &phone)
        #expect(phone.outcome == .read(message.bytes))
        #expect(tag.completed)
        // SELECT app, SELECT CC, READ CC, SELECT NDEF, READ NLEN, then ceil(length / MLe) chunks.
        let chunk = min(maxResponseData, 255)
        #expect(exchanges == 5 + (message.bytes.count + chunk - 1) / chunk)
    }

    /// A phone that stops early is a partial read on both sides: the tag knows how far it got.
    @Test func aPhoneThatStopsEarlyIsPartial() {
        var tag = Type4Tag(message: NDEFMessage([.text("bench", language: "en")]))
        var phone = PhoneTagReader(abortAfter: 4)
        _ = read(&tag, phone: &phone)
        guard case .gaveUp(let reason, let bytes) = phone.outcome else {
            Issue.record("\(phone.outcome)")
            return
        }
        #expect(reason.contains("after 4 commands") && bytes == 0)
        #expect(tag.progress == .ndefFileSelected && !tag.completed)
    }

    /// A malformed answer ends the read, as phones give up on a broken tag.
    @Test func aMalformedCapabilityContainerEndsTheRead() {
        var tag = Type4Tag(message: NDEFMessage([.text("bench", language: "en")]))
        var phone = PhoneTagReader()
        _ = read(&tag, phone: &phone) { index, answer in index == 2 ? [0x00, 0x0F, 0x10] + answer.dropFirst(3) : answer }
        guard case .gaveUp(let reason, _) = phone.outcome else {
            Issue.record("\(phone.outcome)")
            return
        }
        #expect(reason.contains("capability container"))
        var refused = PhoneTagReader()
        _ = refused.start()
        #expect(refused.receive([0x6A, 0x82]) == nil)
        #expect(refused.outcome == .gaveUp(reason: "the tag answered 6A82 to selectApplication", messageBytes: 0))
    }
}
