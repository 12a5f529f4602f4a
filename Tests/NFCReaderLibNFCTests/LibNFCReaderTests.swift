import Foundation
import NFCHost
import NFCReaderLibNFC
import NFCReaders
import NFCTestSupport
import NFCVirtualBench
import Testing

/// Real libnfc (Debian's libnfc 1.8.0, pn532_uart driver) against the emulated PN532.
@Suite("libnfc end to end")
struct LibNFCEndToEndTests {
    @Test func detectsAPhoneWithUIDATQASAKATS() async throws {
        let bench = try TestBench()
        try bench.placeOverCoil()
        let reader = try await LibNFCReader.open(connstring: bench.connstring)
        #expect(reader.info.firmware == "PN532 v1.6")
        let target = try #require(try await reader.waitForTarget(timeout: .seconds(3)))
        let truth = try #require(bench.bench.bench.snapshot.target)
        #expect(target.technology == .iso14443A)
        #expect(target.uid == truth.uid && target.uid.first == 0x08)
        #expect(target.atqa == [0x00, 0x04] && target.sak == 0x20 && target.ats == [0x78, 0x80, 0x70, 0x02])
        #expect(target.kind == .phoneCardEmulation)
        await reader.close()
    }

    /// The Android HCE SELECT through libnfc's InDataExchange: the phone answers it as
    /// Android's NFC service does; a dual-interface card in the case refuses it.
    @Test func theAndroidHCEProbeTellsThePhoneFromACard() async throws {
        let bench = try TestBench()
        try bench.placeOverCoil()
        let reader = try await LibNFCReader.open(connstring: bench.connstring)
        let phone = try #require(try await reader.waitForTarget(timeout: .seconds(3)))
        #expect(phone.platformProbe == .android)
        bench.lift()
        #expect(try await reader.waitForRemoval(timeout: .seconds(3)))
        let a = bench.bench.bench.snapshot.phone.antenna
        bench.bench.bench.setStrayCard(StrayCard(kind: .dualInterface, region: (0, 0, 1, 1), uid: [0x5A, 0x1B, 0x2C, 0x3D]))
        bench.bench.bench.place(x: a.x + a.width / 2, y: a.y + a.height / 2)
        let card = try #require(try await reader.waitForTarget(timeout: .seconds(3)))
        #expect(card.uid == [0x5A, 0x1B, 0x2C, 0x3D] && card.sak == 0x28 && card.platformProbe == .notAndroid)
        bench.lift()
        bench.bench.bench.setStrayCard(StrayCard(kind: .mifareClassic, region: (0, 0, 1, 1), uid: [0x5A, 0x1B, 0x2C, 0x3D]))
        bench.bench.bench.place(x: a.x + a.width / 2, y: a.y + a.height / 2)
        // No ISO-DEP: nothing to ask, so no finding.
        let classic = try #require(try await reader.waitForTarget(timeout: .seconds(3)))
        #expect(classic.sak == 0x08 && classic.platformProbe == nil && classic.ats == nil)
        await reader.close()
    }

    @Test func detectsTypeB() async throws {
        let bench = try TestBench(technology: .iso14443B)
        try bench.placeOverCoil()
        let reader = try await LibNFCReader.open(connstring: bench.connstring)
        let target = try #require(try await reader.waitForTarget(timeout: .seconds(3)))
        #expect(target.technology == .iso14443B && target.atqb?.first == 0x50 && target.uid.count == 4)
    }

    @Test func removalAndStillPresent() async throws {
        let bench = try TestBench()
        try bench.placeOverCoil()
        let reader = try await LibNFCReader.open(connstring: bench.connstring)
        _ = try #require(try await reader.waitForTarget(timeout: .seconds(3)))
        #expect(try await reader.waitForRemoval(timeout: .milliseconds(300)) == false)
        bench.lift()
        #expect(try await reader.waitForRemoval(timeout: .seconds(3)))
    }

    /// InAutoPoll rounds last 450 ms on the emulated chip; the deadline must cut them short.
    @Test func timeoutWithNoTargetReturnsNilWithin300msOfTheDeadline() async throws {
        let bench = try TestBench()
        let reader = try await LibNFCReader.open(connstring: bench.connstring)
        let start = ContinuousClock.now
        #expect(try await reader.waitForTarget(timeout: .milliseconds(700)) == nil)
        let elapsed = ContinuousClock.now - start
        #expect(elapsed >= .milliseconds(700) && elapsed < .milliseconds(1000))
    }

    @Test func cancellationEndsAWaitWithin300ms() async throws {
        let bench = try TestBench()
        let reader = try await LibNFCReader.open(connstring: bench.connstring)
        try await expectCancellationWithin300ms(of: reader, after: .milliseconds(400))  // inside InAutoPoll by then
        // The reader still works afterwards.
        try bench.placeOverCoil()
        #expect(try await reader.waitForTarget(timeout: .seconds(3)) != nil)
    }

    @Test func unplugDuringAPollIsATypedError() async throws {
        let bench = try TestBench()
        let reader = try await LibNFCReader.open(connstring: bench.connstring)
        let polls = bench.bench.pn532PollsStarted
        let wait = Task { try await reader.waitForTarget(timeout: .seconds(20)) }
        try await bench.waitForPoll(after: polls)  // pull the cable while the chip polls
        bench.fault(.unplug)
        let result = await wait.result
        guard case .failure(let error as ReaderError) = result else { Issue.record("expected an error: \(result)"); return }
        #expect(error.code == .unplugged)
        #expect(error.hint?.contains("Reconnect") == true)
    }

    /// One poll answer held back (a host that stalled) is a clean window once the link
    /// answers a quick check in time; a link late every time (`slow`) stays faulty.
    @Test func aStalledPollIsCleanASlowLinkIsNot() async throws {
        let bench = try TestBench()
        let reader = try await LibNFCReader.open(connstring: bench.connstring)
        bench.bench.controls.stallNextPollAnswer = .milliseconds(1200)
        guard case .clean = try await reader.pollWindow(.milliseconds(1500)) else {
            Issue.record("a stalled poll made the window faulty")
            return
        }
        #expect(bench.bench.controls.stallNextPollAnswer == nil, "the stall was never applied")
        bench.fault(.slow)
        guard case .faulty(let error) = try await reader.pollWindow(.milliseconds(1500)) else {
            Issue.record("a slow link made a clean window")
            return
        }
        #expect(error.message.contains("ms for a poll") || error.code == .garbage, "\(error)")
    }

    @Test func garbageAnswersAreTypedAtOpen() async throws {
        let bench = try TestBench()
        bench.fault(.garbage)
        await #expect { try await LibNFCReader.open(connstring: bench.connstring) } throws: { error in
            (error as? ReaderError)?.code == .garbage
        }
    }

    @Test func slowAnswersFailTheHandshake() async throws {
        let bench = try TestBench()
        bench.fault(.slow)
        await #expect { try await LibNFCReader.open(connstring: bench.connstring) } throws: { error in
            (error as? ReaderError)?.code == .garbage
        }
    }

    @Test func aSecondOpenOfTheSamePortIsBusy() async throws {
        let bench = try TestBench()
        let first = try await LibNFCReader.open(connstring: bench.connstring)
        await #expect { try await LibNFCReader.open(connstring: bench.connstring) } throws: { error in
            (error as? ReaderError)?.code == .busy
        }
        _ = first
    }

    @Test func missingPortIsNoReader() async {
        await #expect { try await LibNFCReader.open(connstring: "pn532_uart:/tmp/nfcbench-no-such-port") } throws: { error in
            (error as? ReaderError)?.code == .noReader
        }
    }

    @Test func nfcListSeesTheTargetAppearAndDisappear() async throws {
        let bench = try TestBench()
        let env = libnfcEnvironment(bench.connstring)
        let empty = try await runTool("/usr/bin/nfc-list", ["-t", "1"], environment: env)
        #expect(empty.status == 0 && !empty.output.contains("UID"))
        try bench.placeOverCoil()
        let uid = Hex.string(bench.bench.bench.snapshot.target!.uid, separator: "  ").lowercased()
        let seen = try await runTool("/usr/bin/nfc-list", ["-t", "1"], environment: env)
        #expect(seen.output.contains("1 ISO14443A passive target(s) found"))
        #expect(seen.output.contains("UID (NFCID1): \(uid)") || seen.output.contains("UID (NFCID3): \(uid)"), "\(seen.output)")
        #expect(seen.output.contains("SAK (SEL_RES): 20") && seen.output.contains("ATS: 78  80  70  02"))
        bench.lift()
        let gone = try await runTool("/usr/bin/nfc-list", ["-t", "1"], environment: env)
        #expect(!gone.output.contains("UID"))
        // The full scan (all modulations) finds exactly the one phone, nothing spurious.
        try bench.placeOverCoil()
        let all = try await runTool("/usr/bin/nfc-list", [], environment: env)
        #expect(all.output.components(separatedBy: "passive target(s) found").count == 2, "\(all.output)")
    }
}

@Suite("libnfc open diagnosis on fake system trees")
struct LibNFCDiagnosisTests {
    let scratch: TemporaryDirectory
    init() throws { scratch = try TemporaryDirectory("diag") }

    func tree(driver: String?, mode: Int = 0o664, group: UInt32 = 0) throws -> (sys: String, dev: String) {
        let root = scratch.path
        let device = root + "/sys/bus/usb/devices/1-1"
        try FileManager.default.createDirectory(atPath: device + "/1-1:1.0", withIntermediateDirectories: true)
        for (name, value) in [("idVendor", "072f"), ("idProduct", "2200"), ("busnum", "1"), ("devnum", "5")] {
            try (value + "\n").write(toFile: device + "/" + name, atomically: true, encoding: .utf8)
        }
        if let driver {
            try FileManager.default.createDirectory(
                atPath: root + "/sys/bus/usb/drivers/" + driver, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(
                atPath: device + "/1-1:1.0/driver",
                withDestinationPath: root + "/sys/bus/usb/drivers/" + driver)
        }
        try FileManager.default.createDirectory(atPath: root + "/dev/bus/usb/001", withIntermediateDirectories: true)
        #expect(
            FileManager.default.createFile(
                atPath: root + "/dev/bus/usb/001/005", contents: nil,
                attributes: [.posixPermissions: mode, .groupOwnerAccountID: group]))
        return (root + "/sys", root + "/dev")
    }

    @Test func kernelDriverClaimIsNamed() async throws {
        let t = try tree(driver: "pn533_usb")
        let error = LibNFCDiagnosis(sysRoot: t.sys, devRoot: t.dev).openFailure(connstring: "acr122_usb:")
        #expect(error.code == .claimedByKernel && error.message.contains("pn533_usb") && error.hint!.contains("modprobe.d"))
    }

    @Test func permissionIsJudgedForTheOperatorsAccount() async throws {
        let t = try tree(driver: nil, mode: 0o660, group: 46)
        let outsider = LibNFCDiagnosis(sysRoot: t.sys, devRoot: t.dev, identity: UserIdentity(uid: 1000, groups: [1000]))
        let error = outsider.openFailure(connstring: "acr122_usb:")
        #expect(error.code == .permissionDenied && error.hint!.contains("udev"))
        let member = LibNFCDiagnosis(sysRoot: t.sys, devRoot: t.dev, identity: UserIdentity(uid: 1000, groups: [1000, 46]))
        #expect(member.openFailure(connstring: "acr122_usb:").code == .busy)
    }

    @Test func noSupportedDeviceIsNoReader() async throws {
        let empty = scratch.file("empty")
        let error = LibNFCDiagnosis(sysRoot: empty, devRoot: empty).openFailure(connstring: "pn53x_usb:")
        #expect(error.code == .noReader && error.hint!.contains("lsusb"))
    }
}
