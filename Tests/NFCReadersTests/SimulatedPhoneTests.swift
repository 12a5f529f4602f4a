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

    /// A machine moving the reader straight up and down judges one placement with one
    /// roll: over many placements, the share coupled at each height is the detection
    /// probability there, coming down from out of range is an entry of its own, and a
    /// placement coupled at a height is coupled at every lower one.
    @Test func heightChangesJudgeThePlacementsOwnRoll() {
        var edgePhone = SimulatedPhone(antenna: (0.3, 0.3, 0.4, 0.4), missRate: 0.1)
        edgePhone.edgeFalloff = 0.05
        let bench = PhoneOnBench(phone: edgePhone, seed: 11)
        let x = 0.5, y = 0.72  // near the coil's lower edge: a probability between 0 and 1
        let expected = edgePhone.detectionProbability(x: x, y: y)
        #expect(expected > 0.2 && expected < 0.8)
        var coupledLow = 0, entered = 0
        for _ in 0..<2000 {
            bench.place(x: x, y: y, heightMm: 30)  // out of reach: nothing answers up there
            #expect(bench.snapshot.target == nil)
            let entries = bench.snapshot.fieldEntries
            let low = bench.changeHeight(to: 0)
            if low {
                coupledLow += 1
                entered += bench.snapshot.fieldEntries - entries
            }
            // Up again to 4 mm and back: coupled there only if coupled lower, and then the
            // same entry.
            let atFour = bench.changeHeight(to: 4)
            #expect(!atFour || low)
            if atFour { #expect(bench.snapshot.fieldEntries == entries + 1) }
            bench.lift()
        }
        #expect(entered == coupledLow, "each coupling on the way down is one field entry")
        #expect(abs(Double(coupledLow) / 2000 - expected) < 0.04, "\(coupledLow) of 2000 against p = \(expected)")
    }

    /// A phone that saturates misses the full field deep over its coil and answers a field
    /// weak enough there; one that does not answers every field its coupling reaches.
    @Test func aSaturatingPhoneMissesTheFullFieldDeepOverItsCoil() {
        var phone = SimulatedPhone(antenna: (0.2, 0.5, 0.6, 0.3), aspectRatio: 0.48, missRate: 0)
        let (deepX, deepY) = (0.5, 0.65)
        let depth = phone.coupling(x: deepX, y: deepY)
        #expect(depth > 0.9)
        #expect(phone.answers(fieldThreshold: 0, x: deepX, y: deepY))
        #expect(phone.answers(fieldThreshold: 0.8, x: deepX, y: deepY))
        phone.saturation = 0.3
        #expect(!phone.answers(fieldThreshold: 0, x: deepX, y: deepY), "the full field overwhelms it")
        #expect(phone.answers(fieldThreshold: depth - 0.2, x: deepX, y: deepY))
        #expect(!phone.answers(fieldThreshold: depth + 0.01, x: deepX, y: deepY), "too weak is still too weak")
        // Near the edge of its reach the full field is what it needs: no saturation there.
        #expect(phone.coupling(x: 0.5, y: 0.49) < 0.3 && phone.answers(fieldThreshold: 0, x: 0.5, y: 0.49))
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
