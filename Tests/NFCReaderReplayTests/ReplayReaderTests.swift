import Foundation
import NFCReaderReplay
import NFCReaders
import NFCTestSupport
import Testing

@Suite("Replay reader")
struct ReplayReaderTests {
    let scratch: TemporaryDirectory
    init() throws { scratch = try TemporaryDirectory("replay-reader") }

    func recording(_ taps: String) throws -> String {
        let path = scratch.file("session-\(UUID().uuidString.prefix(6)).json")
        try #"{"sessionId": "S-r", "mode": "card", "tapList": [\#(taps)]}"#.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func answersInRecordedOrderSkipsAreNotAnswersAndRunningOutIsAFault() async throws {
        let path = try recording(
            #"{"result": "HIT", "uid": "08A1B2C3", "technology": "ISO14443B", "latencyMs": 12.5}, {"result": "SKIPPED"}, "#
                + #"{"result": "MISS"}"#)
        let reader = try ReplayReader.open(path: path)
        #expect(reader.info.isSimulated && reader.info.spec == "replay:\(path)")
        guard case .target(let target) = try await reader.pollWindow(.seconds(1)) else {
            Issue.record("the first answer is the recorded HIT")
            return
        }
        #expect(target.uid == [0x08, 0xA1, 0xB2, 0xC3] && target.technology == .iso14443B)
        guard case .clean = try await reader.pollWindow(.seconds(1)) else {
            Issue.record("the second answer is the recorded MISS")
            return
        }
        guard case .faulty(let error) = try await reader.pollWindow(.seconds(1)) else {
            Issue.record("a recording that ran out is a fault, never a miss")
            return
        }
        #expect(error.message.contains("no tap left"))
        #expect(try await reader.waitForRemoval(timeout: .seconds(1)))
        #expect(reader.capabilities.tagEmulator == nil)
    }

    @Test(arguments: [
        #"{"result": "HIT"}"#, #"{"result": "HIT", "uid": "zz"}"#, #"{"result": "PARTIAL"}"#, #"{"result": 7}"#,
    ])
    func aTapItCannotAnswerTruthfullyRefusesTheRecording(tap: String) throws {
        let path = try recording(tap)
        #expect(throws: ReaderError.self) { try ReplayReader.open(path: path) }
    }
}
