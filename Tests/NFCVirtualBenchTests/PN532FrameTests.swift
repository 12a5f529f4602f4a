import Foundation
import NFCTestSupport
import Testing

@testable import NFCReaders
@testable import NFCVirtualBench

@Suite("PN532 frame codec")
struct PN532FrameTests {
    @Test(arguments: [
        // GetFirmwareVersion, as in the PN532 user manual.
        (PN532Frame.information(tfi: 0xD4, data: [0x02]), "00 00 FF 02 FE D4 02 2A 00"),
        (.information(tfi: 0xD5, data: [0x03, 0x32, 0x01, 0x06, 0x07]), "00 00 FF 06 FA D5 03 32 01 06 07 E8 00"),
        // SAMConfiguration normal mode.
        (.information(tfi: 0xD4, data: [0x14, 0x01]), "00 00 FF 03 FD D4 14 01 17 00"),
        (.ack, "00 00 FF 00 FF 00"),
        (.nack, "00 00 FF FF 00 00"),
        (.applicationError, "00 00 FF 01 FF 7F 81 00"),
    ])
    func encodes(frame: PN532Frame, hex: String) {
        #expect(Hex.string(frame.encoded(), separator: " ") == hex)
    }

    @Test func roundTripsNormalAndExtendedFrames() {
        for size in [0, 1, 200, 253, 254, 300, 1000] {
            let data = [0x40] + (0..<size).map { UInt8(truncatingIfNeeded: $0 * 7) }
            var decoder = PN532FrameDecoder()
            decoder.append(PN532Frame.information(tfi: 0xD4, data: data).encoded())
            #expect(decoder.next() == .frame(.information(tfi: 0xD4, data: data)), "size \(size)")
            #expect(decoder.next() == nil)
        }
    }

    /// Found by fuzzing (Fuzz/corpus/pn532-frame/regression-extended-length-1): an extended
    /// frame of length 1 decoded as an information frame with no command, which encodes
    /// back as the application-error frame. A frame needs its TFI and a command code.
    @Test func aFrameWithoutACommandCodeIsCorrupt() {
        var decoder = PN532FrameDecoder()
        decoder.append([0x00, 0xFF, 0xFF, 0xFF, 0x00, 0x01, 0xFF, 0x01, 0xFF, 0x00])
        guard case .corrupt(let reason)? = decoder.next() else {
            Issue.record("an extended frame of length 1 was accepted")
            return
        }
        #expect(reason.contains("without a TFI and command code"))
    }

    @Test func skipsWakeUpPreambleAndSplitsAStream() {
        var decoder = PN532FrameDecoder()
        let stream =
            [0x55, 0x55, 0x00, 0x00, 0x00] + PN532Frame.information(tfi: 0xD4, data: [0x14, 0x01]).encoded()
            + PN532Frame.ack.encoded() + PN532Frame.information(tfi: 0xD4, data: [0x02]).encoded()
        for byte in stream { decoder.append([byte]) }  // one byte at a time, as a UART delivers
        #expect(decoder.next() == .frame(.information(tfi: 0xD4, data: [0x14, 0x01])))
        #expect(decoder.next() == .frame(.ack))
        #expect(decoder.next() == .frame(.information(tfi: 0xD4, data: [0x02])))
        #expect(decoder.next() == nil)
    }

    @Test func reportsBadChecksumsAndResynchronises() {
        var bad = PN532Frame.information(tfi: 0xD4, data: [0x02]).encoded()
        bad[bad.count - 2] ^= 0xFF
        var decoder = PN532FrameDecoder()
        decoder.append(bad + [0x00, 0x00, 0xFF, 0x03, 0x00] + PN532Frame.ack.encoded())
        #expect(decoder.next() == .corrupt("data checksum mismatch"))
        #expect(decoder.next() == .corrupt("length checksum mismatch"))
        #expect(decoder.next() == .frame(.ack))
    }
}

@Suite("PN532 chip model")
struct PN532ChipTests {
    /// The chip and its phone live in virtual time: activation delays pass when the
    /// test advances the clock, never by waiting.
    let clock = VirtualBenchClock()
    var now: Duration { clock.now }

    func chip(placed: Bool, technology: TargetTechnology = .iso14443A) -> (PN532Chip, PhoneOnBench) {
        let bench = PhoneOnBench(
            phone: SimulatedPhone(antenna: (0, 0, 1, 1), technology: technology, missRate: 0), seed: 1,
            clock: clock)
        if placed { bench.place(x: 0.5, y: 0.5) }
        return (PN532Chip(bench: bench), bench)
    }

    @Test func answersLibnfcHandshake() {
        var (c, _) = chip(placed: false)
        #expect(c.receive([0x00, 0x00, 0x6C, 0x69, 0x62], now: now) == .respond([0x00, 0x6C, 0x69, 0x62]))
        #expect(c.receive([0x02], now: now) == .respond([0x32, 0x01, 0x06, 0x07]))
        #expect(c.receive([0x08, 0x63, 0x02, 0x80], now: now) == .respond([]))
        #expect(c.receive([0x06, 0x63, 0x02, 0x63, 0x03], now: now) == .respond([0x80, 0x00]))
        #expect(c.receive([0x8C], now: now) == .syntaxError)
    }

    @Test func autoPollEndsItselfAtItsDeadline() {
        var (c, _) = chip(placed: false)
        let now = clock.now
        guard case .pending(let pending) = c.receive([0x60, 0x01, 0x02, 0x20, 0x10, 0x23], now: now) else {
            Issue.record("InAutoPoll should wait"); return
        }
        #expect(c.poll(pending, now: now + .milliseconds(899)) == nil)  // 1 x 2 x 150 ms x 3 types
        #expect(c.poll(pending, now: now + .milliseconds(900)) == [0x00])
    }

    @Test func autoPollReportsTheTargetWithATS() throws {
        var (c, bench) = chip(placed: true)
        try waitUntilVisible(bench)
        guard case .respond(let data) = c.receive([0x60, 0x01, 0x01, 0x20, 0x10, 0x23], now: now) else {
            Issue.record("expected an answer"); return
        }
        let uid = bench.snapshot.target!.uid
        // NbTg, type 0x20 (ISO 14443-4A), length, Tg, ATQA, SAK, UID length, UID, TL, ATS
        #expect(data == [0x01, 0x20, 14, 0x01, 0x00, 0x04, 0x20, 0x04] + uid + [0x05, 0x78, 0x80, 0x70, 0x02])
    }

    @Test func typeBTargetsAnswerOnlyTypeBPolls() throws {
        var (c, bench) = chip(placed: true, technology: .iso14443B)
        try waitUntilVisible(bench)
        #expect(
            c.receive([0x4A, 0x01, 0x00], now: now) == .respond([0x00])
                || {
                    if case .pending = c.receive([0x4A, 0x01, 0x00], now: now) { return true }
                    return false
                }())
        guard case .respond(let data) = c.receive([0x4A, 0x01, 0x03, 0x00], now: now) else {
            Issue.record("expected a type B answer"); return
        }
        #expect(data.prefix(3) == [0x01, 0x01, 0x50] && data.count == 1 + 1 + 12 + 2)
    }

    @Test func presenceFollowsTheFieldEntry() throws {
        var (c, bench) = chip(placed: true)
        try waitUntilVisible(bench)
        _ = c.receive([0x60, 0x01, 0x01, 0x20], now: now)
        #expect(c.receive([0x42, 0xB2], now: now) == .respond([0x00, 0xA2]))
        bench.lift()
        #expect(c.receive([0x42, 0xB2], now: now) == .respond([0x01]))
        bench.place(x: 0.5, y: 0.5)  // back, but a new field entry: a new target
        try waitUntilVisible(bench)
        #expect(c.receive([0x00, 0x06], now: now) == .respond([0x01]))
    }

    /// RFConfiguration item 0x01 switches the field: off, the phone is out of the chip's
    /// field (a target selected before is gone and its presence check fails); a discovery
    /// command switches it back on by itself, as the firmware does, and finds the phone
    /// as a new activation. nfcpy's sequence: mute with `32 01 02`, then poll `4A 01 00`.
    @Test func theFieldSwitchesOffAndADiscoveryCommandSwitchesItBackOn() throws {
        var (c, bench) = chip(placed: true)
        try waitUntilVisible(bench)
        guard case .respond(let first) = c.receive([0x4A, 0x01, 0x00], now: now), first.first == 0x01 else {
            Issue.record("the phone in place should answer"); return
        }
        #expect(c.receive([0x00, 0x06], now: now) == .respond([0x00]), "the selected phone is present")
        #expect(c.receive([0x32, 0x01, 0x02], now: now) == .respond([]))  // Auto RFCA on, RF off
        #expect(c.fieldOn == false && bench.snapshot.readerFieldOn == false)
        #expect(c.receive([0x04], now: now) == .respond([0x00, 0x00, 0x00, 0x00]), "GetGeneralStatus: field off, no target")
        #expect(c.receive([0x00, 0x06], now: now) == .respond([0x01]), "unpowered: no longer present")
        guard case .respond(let again) = c.receive([0x4A, 0x01, 0x00], now: now) else {
            Issue.record("a discovery with the field off should switch it on and answer"); return
        }
        #expect(again.first == 0x01 && c.fieldOn && bench.snapshot.readerFieldOn)
        #expect(c.receive([0x00, 0x06], now: now) == .respond([0x00]), "the new activation is present")
        // Off and on again by the host (libnfc's NP_ACTIVATE_FIELD): the old selection is gone.
        #expect(c.receive([0x32, 0x01, 0x00], now: now) == .respond([]))
        #expect(c.receive([0x32, 0x01, 0x01], now: now) == .respond([]))
        #expect(c.receive([0x00, 0x06], now: now) == .respond([0x01]), "a field cycle resets the phone")
    }

    /// RFConfiguration item 0x0A sets the analog settings, read back through the CIU
    /// registers they land in; a phone answers a weakened field only where its coupling
    /// reaches the field's threshold, and the default field reads it everywhere it couples.
    @Test func theAnalogSettingsDecideHowDeepAPhoneMustCouple() throws {
        var (c, bench) = chip(placed: false)
        let weakest = CouplingLadder.standard.profiles[0]
        #expect(c.receive([0x32, 0x0A] + weakest.settings, now: now) == .respond([]))
        #expect(c.receive([0x06, 0x63, 0x16, 0x63, 0x18], now: now) == .respond([weakest.rfCfg, weakest.cwGsP]))
        let phone = bench.snapshot.phone
        for (x, y) in [(0.5, 0.5), (0.5, 0.03), (0.02, 0.5)] {
            bench.place(x: x, y: y)
            clock.advance(by: .milliseconds(60))
            let answered: Bool
            if case .respond(let data) = c.receive([0x4A, 0x01, 0x00], now: now) {
                answered = data.first == 0x01
            } else {
                answered = false
            }
            #expect(answered == (phone.coupling(x: x, y: y) >= weakest.threshold), "at \(x), \(y)")
            bench.lift()
        }
        #expect(c.receive([0x32, 0x0A] + AnalogProfile.pn532Default.settings, now: now) == .respond([]))
        bench.place(x: 0.5, y: 0.03)
        clock.advance(by: .milliseconds(60))
        guard case .respond(let data) = c.receive([0x4A, 0x01, 0x00], now: now), data.first == 0x01 else {
            Issue.record("the default field reads the phone near the edge"); return
        }
    }

    /// Lets the simulated activation (15-60 ms) pass in virtual time.
    func waitUntilVisible(_ bench: PhoneOnBench) throws {
        #expect(bench.visibleTarget() == nil, "activation is not instantaneous")
        clock.advance(by: .milliseconds(60))
        guard bench.visibleTarget() != nil else { throw WaitTimedOut(what: "the target to become visible") }
    }
}
