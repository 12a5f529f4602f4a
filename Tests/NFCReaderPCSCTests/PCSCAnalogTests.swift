import Foundation
import NFCReaders
import NFCTestSupport
import NFCVirtualBench
import Testing

@testable import NFCReaderPCSC

/// The coupling ladder over PC/SC: RFConfiguration item 0x0A by ACR122U Direct Transmit
/// to the virtual reader's own PN532 (behind the real pcscd and vpcd), the firmware's auto
/// polling off while the host polls, and both put back, checked on the virtual reader.
@Suite(
    "Analog settings over PC/SC", .serialized,
    .enabled(if: SharedVirtualReader.isAvailable, "needs pcscd and the virtual bench: run scripts/test.sh"))
struct PCSCAnalogTests {
    let scratch: TemporaryDirectory
    let journal: PICCJournal
    let analogJournal: AnalogJournal

    init() throws {
        scratch = try TemporaryDirectory("pcsc-analog")
        journal = PICCJournal(directory: URL(fileURLWithPath: scratch.file("picc")))
        analogJournal = AnalogJournal(directory: URL(fileURLWithPath: scratch.file("analog")))
    }

    var readerName: String { SharedVirtualReader.readerName }
    var client: VirtualBenchClient { SharedVirtualReader.client }
    func status() throws -> BenchStatus { try #require(try client.request(.status).status) }
    func open() async throws -> PCSCReader {
        try await PCSCReader.open(readerName, journal: journal, analogJournal: analogJournal)
    }
    static let defaults = Hex.string(AnalogProfile.pn532Default.settings, separator: " ")

    /// The phone placed where it couples a little (0.3 to 0.6) and the default field reads
    /// it, found by asking the bench; its coupling.
    func placeNearTheEdge() async throws -> Double {
        for y in stride(from: 0.0, to: 0.5, by: 0.005) {
            let reply = try client.request(.place(x: 0.5, y: y))
            guard reply.coupled == true, let coupling = try status().coupling, (0.3...0.6).contains(coupling) else { continue }
            try await SharedVirtualReader.waitForPCSCD(cardPresent: true)
            return coupling
        }
        Issue.record("no placement couples between 0.3 and 0.6")
        throw CancellationError()
    }

    @Test func theLadderByDirectTransmitGradesThePhoneAndLeavesTheReaderAsItWas() async throws {
        try await SharedVirtualReader.exclusive {
            defer { _ = try? client.request(.lift) }
            let coupling = try await placeNearTheEdge()
            let reader = try await open()
            _ = try #require(try await reader.waitForTarget(timeout: .seconds(5)), "the default field reads it")
            let analog = try #require(reader.capabilities.analogProfile, "the virtual ACR122U offers analog settings")
            // vpcd passes no escape commands, as stock libccid: the chip is reached through
            // the phone's connection only, so a MISS is never asked again.
            #expect(await analog.listensWithoutATarget == false)

            let weakest = CouplingLadder.standard.profiles[0]
            #expect(weakest.threshold > coupling)
            guard case .clean = try await analog.listen(at: weakest, window: .milliseconds(400)) else {
                Issue.record("the weakest field should not reach a phone coupled \(coupling)"); return
            }
            let during = try status()
            #expect(during.vpcdAnalog == Hex.string(weakest.settings, separator: " "))
            #expect(during.picc == "63", "the firmware's own polling is off while the host polls")
            // What the chip had, read back from its registers before the first change.
            #expect(analogJournal.original(for: "pcsc:\(readerName)") == AnalogProfile.pn532Default.settings)

            let reaching = try #require(
                CouplingLadder.standard.profiles.first { $0.threshold <= coupling && $0.threshold > 0 })
            guard case .target(let phone) = try await analog.listen(at: reaching, window: .milliseconds(400)) else {
                Issue.record("\(reaching) reaches a phone coupled \(coupling)"); return
            }
            #expect(phone.technology == .iso14443A && phone.uid.first == 0x08 && phone.ats == [0x78, 0x80, 0x70, 0x02])

            try await analog.apply(.pn532Default)
            let after = try status()
            #expect(after.vpcdAnalog == Self.defaults && after.picc == "E3", "the default hands polling back")
            try await analog.restoreAnalogSettings()
            #expect(analogJournal.pending().isEmpty)
            await reader.close()
            #expect(try status().picc == "FF" && reader.closingWarnings.isEmpty)
        }
    }

    /// A session killed with the field weakened: the next open puts the settings and the
    /// firmware's polling back first.
    @Test func theNextOpenPutsBackWhatAKilledSessionLeftWeakened() async throws {
        try await SharedVirtualReader.exclusive {
            defer { _ = try? client.request(.lift) }
            _ = try await placeNearTheEdge()
            var reader: PCSCReader? = try await open()
            _ = try #require(try await reader?.waitForTarget(timeout: .seconds(5)))
            let weakest = CouplingLadder.standard.profiles[0]
            _ = try await reader?.capabilities.analogProfile?.listen(at: weakest, window: .milliseconds(300))
            reader = nil  // gone without close, as after kill -9
            #expect(try status().vpcdAnalog == Hex.string(weakest.settings, separator: " "))
            #expect(analogJournal.pending() == ["pcsc:\(readerName)"])

            let next = try await open()
            let restored = try status()
            #expect(restored.vpcdAnalog == Self.defaults && restored.picc == "E3", "\(restored)")
            #expect(analogJournal.pending().isEmpty)
            await next.close()
            #expect(try status().picc == "FF")
        }
    }

    /// Issue 49, L2 over PC/SC: settings a killed session left weakened, journalled while
    /// pcscd named the reader otherwise (its index follows the plugging order), are put
    /// back when it is opened under its name now: the journals follow its USB device and
    /// slot (the tests' vpcd driver names a USB channel as libccid does; the sysfs tree
    /// holds that device).
    @Test func aReaderWeakenedUnderAnotherNameIsPutBackByItsDevice() async throws {
        try await SharedVirtualReader.exclusive {
            defer { _ = try? client.request(.lift) }
            let channel = try #require(PCSCReader.channel(of: readerName), "the tests' vpcd driver names a channel")
            #expect(channel >> 16 == 0x0020)
            let sysfs = scratch.file("sys"), usb = scratch.file("sys/devices/pci0000:00/usb9/9-2")
            try FileManager.default.createDirectory(atPath: usb, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: sysfs + "/bus/usb/devices", withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: sysfs + "/bus/usb/devices/9-2", withDestinationPath: usb)
            for (file, value) in [
                ("busnum", "\((channel >> 8) & 0xFF)"), ("devnum", "\(channel & 0xFF)"), ("idVendor", "072f"),
                ("idProduct", "2200"),
            ] {
                try (value + "\n").write(toFile: usb + "/" + file, atomically: true, encoding: .utf8)
            }
            _ = try await placeNearTheEdge()
            var reader: PCSCReader? = try await PCSCReader.open(
                readerName, journal: journal, analogJournal: analogJournal, sysfs: sysfs)
            #expect(reader?.deviceKey == "device:usb-072f:2200-port-9-2/slot-0")
            _ = try #require(try await reader?.waitForTarget(timeout: .seconds(5)))
            let weakest = CouplingLadder.standard.profiles[0]
            _ = try await reader?.capabilities.analogProfile?.listen(at: weakest, window: .milliseconds(300))
            reader = nil  // gone without close, as after kill -9
            #expect(try status().vpcdAnalog == Hex.string(weakest.settings, separator: " "))
            // What a journal keyed by the name would hold now is under the name pcscd gave the
            // reader then, not the one it gives now.
            let then = "ACS ACR122U PICC Interface 01 00"
            for (folder, old, new) in [
                (analogJournal.directoryPath, "pcsc:\(readerName)", "pcsc:\(then)"),
                (journal.directory.path, readerName, then),
            ] {
                let from = folder + "/" + ReaderStateFolder.fileName(old)
                if FileManager.default.fileExists(atPath: from) {
                    try FileManager.default.moveItem(atPath: from, toPath: folder + "/" + ReaderStateFolder.fileName(new))
                }
            }

            let next = try await PCSCReader.open(readerName, journal: journal, analogJournal: analogJournal, sysfs: sysfs)
            let restored = try status()
            #expect(restored.vpcdAnalog == Self.defaults && restored.picc == "E3", "\(restored)")
            #expect(analogJournal.pending().isEmpty)
            await next.close()
            #expect(try status().picc == "FF")
        }
    }

    /// pcsc-tools' scriptor, a client we did not write, reaches the virtual reader's chip
    /// by Direct Transmit as it would an ACR122U's: GetFirmwareVersion answers PN532 1.6.
    @Test func scriptorReachesTheChipByDirectTransmit() async throws {
        try await SharedVirtualReader.exclusive {
            defer { _ = try? client.request(.lift) }
            _ = try client.request(.place(x: 0.5, y: 0.3))
            try await SharedVirtualReader.waitForPCSCD(cardPresent: true)
            let script = scratch.file("apdu.txt")
            try "FF 00 00 00 02 D4 02\n".write(toFile: script, atomically: true, encoding: .utf8)
            let r = try await ChildProcess.run(
                "/usr/bin/scriptor", ["-r", readerName, script], environment: ProcessInfo.processInfo.environment,
                mergeErrors: true, timeout: 20)
            #expect(r.stdout.contains("D5 03 32 01 06 07 90 00"), "\(r.stdout)")
        }
    }
}

@Suite("Direct Transmit framing")
struct DirectTransmitTests {
    @Test func framesAndReadsAPN532Command() {
        #expect(DirectTransmit.command(0x32, [0x01, 0x00]) == [0xFF, 0x00, 0x00, 0x00, 0x04, 0xD4, 0x32, 0x01, 0x00])
        #expect(DirectTransmit.parse([0xD5, 0x33, 0x90, 0x00], code: 0x32) == .data([]))
        #expect(DirectTransmit.parse([0x61, 0x08], code: 0x32) == .pending(0x08))
        #expect(DirectTransmit.parse([0x63, 0x00], code: 0x32) == .refused([0x63, 0x00]))
        #expect(DirectTransmit.parse([0xD5, 0x07, 0x90, 0x00], code: 0x32) == .refused([0xD5, 0x07, 0x90, 0x00]))
    }

    @Test func readsTheTargetsInAutoPollFound() throws {
        let a: [UInt8] = [
            0x01, 0x00, 0x0E, 0x01, 0x00, 0x04, 0x20, 0x04, 0x08, 0x11, 0x22, 0x33, 0x05, 0x78, 0x80, 0x70, 0x02,
        ]
        let phone = try #require(try AutoPollAnswer.firstTarget(a, latency: .zero, reader: "r"))
        #expect(phone.uid == [0x08, 0x11, 0x22, 0x33] && phone.sak == 0x20 && phone.ats == [0x78, 0x80, 0x70, 0x02])
        let atqb: [UInt8] = [0x50, 0x01, 0x02, 0x03, 0x04, 0, 0, 0, 0, 0x00, 0x81, 0x71]
        let b: [UInt8] = [0x01, 0x23, 0x0F, 0x01] + atqb + [0x01, 0x00]
        let typeB = try #require(try AutoPollAnswer.firstTarget(b, latency: .zero, reader: "r"))
        #expect(typeB.technology == .iso14443B && typeB.uid == [0x01, 0x02, 0x03, 0x04])
        #expect(try AutoPollAnswer.firstTarget([0x00], latency: .zero, reader: "r") == nil)
        // A cut-short answer is a fault, never silence.
        let cut: [UInt8] = [0x01, 0x00, 0x0F, 0x01]
        #expect(throws: ReaderError.self) { try AutoPollAnswer.firstTarget(cut, latency: .zero, reader: "r") }
        #expect(throws: ReaderError.self) { try AutoPollAnswer.firstTarget([], latency: .zero, reader: "r") }
    }

    @Test func oneRoundFitsTheWindow() {
        #expect(AutoPollAnswer.parameters(window: .milliseconds(400)) == [0x01, 0x01, 0x00, 0x23])
        #expect(AutoPollAnswer.parameters(window: .milliseconds(900)) == [0x01, 0x03, 0x00, 0x23])
        #expect(AutoPollAnswer.parameters(window: .zero) == [0x01, 0x01, 0x00, 0x23])
    }
}
