import NFCTestSupport
import Testing

@testable import NFCReaders

@Suite("Simulated phone")
struct SimulatedPhoneTests {
    let phone = SimulatedPhone(antenna: (0.1, 0.05, 0.6, 0.3), aspectRatio: 0.5, missRate: 0.05)

    @Test func probabilityFallsOffAtTheEdge() {
        #expect(phone.detectionProbability(x: 0.4, y: 0.2) == 0.95)
        #expect(phone.detectionProbability(x: 0.4, y: 0.9) == 0)
        let atEdge = phone.detectionProbability(x: 0.4, y: 0.35 + 0.02)  // just outside, within reader radius
        #expect(atEdge > 0.3 && atEdge < 0.95)
        #expect(phone.detectionProbability(x: 0.4, y: 0.35 + 0.06) == 0)
    }

    @Test func xDistancesAreScaledToBodyHeight() {
        // 0.1 of the width is 0.05 of the height on a phone half as wide as tall.
        #expect(abs(phone.signedDistance(x: 0.0, y: 0.2) - -0.05) < 1e-12)
        #expect(abs(phone.signedDistance(x: 0.4, y: 0.5) - -0.15) < 1e-12)
    }

    @Test func sameSeedSameTaps() {
        func taps(seed: UInt64) -> [[UInt8]?] {
            let bench = PhoneOnBench(phone: phone, seed: seed)
            return (0..<40).map { i in
                bench.place(x: Double(i % 8) / 8 + 0.05, y: Double(i / 8) / 5 + 0.05)
                defer { bench.lift() }
                return bench.snapshot.target?.uid
            }
        }
        #expect(taps(seed: 7) == taps(seed: 7))
        #expect(taps(seed: 7) != taps(seed: 8))
    }

    @Test func everyFieldEntryGetsANewRandomUID() {
        let bench = PhoneOnBench(phone: SimulatedPhone(antenna: (0, 0, 1, 1), missRate: 0), seed: 1)
        var uids = Set<[UInt8]>()
        for _ in 0..<20 {
            #expect(bench.place(x: 0.5, y: 0.5))
            let uid = bench.snapshot.target!.uid
            #expect(uid.count == 4 && uid[0] == 0x08)
            uids.insert(uid)
            bench.lift()
        }
        #expect(uids.count == 20)
    }

    @Test func missRateShowsOverTheCoil() {
        let bench = PhoneOnBench(phone: SimulatedPhone(antenna: (0, 0, 1, 1), missRate: 0.2), seed: 3)
        let hits = (0..<1000).filter { _ in
            defer { bench.lift() }; return bench.place(x: 0.5, y: 0.5)
        }.count
        #expect((740...860).contains(hits))
    }

    @Test func simulatedReaderSeesPlacementAndRemoval() async throws {
        let bench = PhoneOnBench(phone: SimulatedPhone(antenna: (0, 0, 1, 1), missRate: 0), seed: 5)
        let reader = SimulatedReader(bench: bench)
        #expect(try await reader.waitForTarget(timeout: .milliseconds(30)) == nil)
        bench.place(x: 0.5, y: 0.5)
        let target = try #require(try await reader.waitForTarget(timeout: .seconds(1)))
        #expect(target.kind == .phoneCardEmulation && target.sak == 0x20 && target.ats == [0x78, 0x80, 0x70, 0x02])
        #expect(try await reader.waitForRemoval(timeout: .milliseconds(30)) == false)
        bench.lift()
        #expect(try await reader.waitForRemoval(timeout: .seconds(1)))
    }

    @Test func cancellingAWaitEndsItWithin300ms() async throws {
        try await expectCancellationWithin300ms(
            of: SimulatedReader(bench: PhoneOnBench(phone: phone, seed: 1)), after: .milliseconds(20))
    }

    @Test(arguments: ["libnfc:pn532_uart:/dev/ttyUSB0", "libnfc:acr122_usb:", "pcsc:ACS ACR122U 00 00", "sim", "replay:/a:b"])
    func aRecordedSpecReadsBackAsItWasWritten(text: String) throws {
        let spec = try ReaderSpec(recorded: text)
        #expect(spec.description == text && spec.scheme == String(text.prefix { $0 != ":" }))
    }

    @Test(arguments: ["", ":x", "LIBNFC:x", "lib nfc:x", "\u{1B}[2J:x"])
    func aRecordedSpecNeedsASchemeOfItsOwnForm(text: String) {
        #expect(throws: ReaderError.self) { try ReaderSpec(recorded: text) }
    }
}
