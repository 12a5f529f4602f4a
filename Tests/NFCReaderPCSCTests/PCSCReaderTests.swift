import Foundation
import NFCReaders
import NFCTestSupport
import NFCVirtualBench
import Testing

@testable import NFCReaderPCSC

/// Real pcscd with the vpcd driver, and the shared virtual bench that scripts/test.sh
/// starts (a private pcscd, never the operator's). The reader is one for the whole run,
/// so each test takes it through `SharedVirtualReader.exclusive`.
@Suite(
    "PC/SC reader", .serialized,
    .enabled(if: SharedVirtualReader.isAvailable, "needs pcscd and the virtual bench: run scripts/test.sh"))
struct PCSCReaderTests {
    let scratch: TemporaryDirectory
    /// Each test keeps its own PICC journal, never the operator's.
    let journal: PICCJournal

    init() throws {
        scratch = try TemporaryDirectory("picc")
        journal = PICCJournal(directory: scratch.url)
    }

    var readerName: String { SharedVirtualReader.readerName }
    var client: VirtualBenchClient { SharedVirtualReader.client }
    func status() throws -> BenchStatus { try #require(try client.request(.status).status) }
    func open() async throws -> PCSCReader { try await PCSCReader.open(readerName, journal: journal) }

    @Test func detectsATRUIDAndATS() async throws {
        try await SharedVirtualReader.exclusive {
            _ = try client.request(.place(x: 0.5, y: 0.3))
            let reader = try await PCSCReader.open("virtual 00 00", journal: journal)
            let target = try #require(try await reader.waitForTarget(timeout: .seconds(5)))
            #expect(target.atr == [0x3B, 0x80, 0x80, 0x01, 0x01])
            #expect(target.atrInfo?.summary == "ISO 14443-4, no historical bytes")
            let benchUID = try status().uid
            #expect(Hex.string(target.uid) == benchUID)
            #expect(target.uid.first == 0x08 && target.ats == [0x78, 0x80, 0x70, 0x02])
            #expect(target.kind == .phoneCardEmulation)
            await reader.close()
        }
    }

    /// The Android HCE SELECT over PC/SC (SCardTransmit to the card): the phone answers
    /// as Android does, a dual-interface card refuses, and pcsc-tools' scriptor, a client
    /// we did not write, gets the same answers from the virtual card.
    @Test func theAndroidHCEProbeOverPCSCAndThroughScriptor() async throws {
        try await SharedVirtualReader.exclusive {
            _ = try client.request(.place(x: 0.5, y: 0.3))
            let reader = try await open()
            let phone = try #require(try await reader.waitForTarget(timeout: .seconds(5)))
            #expect(phone.platformProbe == .android)
            await reader.close()
            let select = Hex.string(AndroidHCEProbe.select, separator: " ")
            #expect(try await scriptor(select).contains("14 81 00 00 90 00"))
            _ = try client.request(.lift)
            try await SharedVirtualReader.waitForPCSCD(cardPresent: false)
            _ = try client.request(.card(StrayCard(kind: .dualInterface, region: (0, 0, 1, 1), uid: [0x5A, 0x1B, 0x2C, 0x3D])))
            defer { _ = try? client.request(.card(nil)) }
            _ = try client.request(.place(x: 0.5, y: 0.3))
            try await SharedVirtualReader.waitForPCSCD(cardPresent: true)
            let again = try await open()
            let card = try #require(try await again.waitForTarget(timeout: .seconds(5)))
            #expect(card.uid == [0x5A, 0x1B, 0x2C, 0x3D] && card.platformProbe == .notAndroid)
            await again.close()
            #expect(try await scriptor(select).contains("6A 82"))
            _ = try client.request(.lift)
        }
    }

    /// One APDU through scriptor (pcsc-tools) to the shared reader; its whole output.
    func scriptor(_ apdu: String) async throws -> String {
        let script = scratch.file("apdu.txt")
        try (apdu + "\n").write(toFile: script, atomically: true, encoding: .utf8)
        let r = try await ChildProcess.run(
            "/usr/bin/scriptor", ["-r", readerName, script], environment: ProcessInfo.processInfo.environment,
            mergeErrors: true, timeout: 20)
        return r.stdout
    }

    /// `close()` lets go of pcsc-lite before it returns (the process may exit right
    /// after, while a dispatch thread drops the last reference): a closed reader says so,
    /// closing twice is harmless, and the reader opens again.
    @Test func closeReleasesTheContextAtOnce() async throws {
        try await SharedVirtualReader.exclusive {
            _ = try client.request(.place(x: 0.5, y: 0.3))
            let reader = try await open()
            #expect(try await reader.waitForTarget(timeout: .seconds(5)) != nil)
            await reader.close()
            await reader.close()
            await #expect { try await reader.waitForTarget(timeout: .seconds(1)) } throws: { error in
                (error as? ReaderError)?.message.contains("was closed") == true
            }
            let again = try await open()
            #expect(try await again.waitForTarget(timeout: .seconds(5)) != nil)
            await again.close()
        }
    }

    @Test func removalAndTimeout() async throws {
        try await SharedVirtualReader.exclusive {
            let reader = try await open()
            #expect(try await reader.waitForTarget(timeout: .milliseconds(600)) == nil)
            _ = try client.request(.place(x: 0.5, y: 0.3))
            _ = try #require(try await reader.waitForTarget(timeout: .seconds(5)))
            #expect(try await reader.waitForRemoval(timeout: .milliseconds(500)) == false)
            _ = try client.request(.lift)
            #expect(try await reader.waitForRemoval(timeout: .seconds(5)))
            // Close with the phone on the reader, so the PICC parameter can be put back.
            _ = try client.request(.place(x: 0.5, y: 0.3))
            _ = try #require(try await reader.waitForTarget(timeout: .seconds(5)))
            await reader.close()
            #expect(reader.closingWarnings.isEmpty)
        }
    }

    @Test func cancellationEndsAWaitWithin300ms() async throws {
        try await SharedVirtualReader.exclusive {
            let reader = try await open()
            try await expectCancellationWithin300ms(of: reader, after: .milliseconds(300))
            await reader.close()
        }
    }

    @Test func piccParameterIsNarrowedThenRestored() async throws {
        try await SharedVirtualReader.exclusive {
            _ = try client.request(.place(x: 0.5, y: 0.3))
            let before = try status().piccWrites
            let reader = try await open()
            _ = try #require(try await reader.waitForTarget(timeout: .seconds(5)))
            let during = try status().picc
            #expect(during == "E3")
            await reader.close()
            let after = try status()
            #expect(after.picc == "FF")
            #expect(Array(after.piccWrites.dropFirst(before.count)) == ["E3", "FF"])
            #expect(reader.piccReport == .init(original: 0xFF, applied: 0xE3, restored: true))
        }
    }

    @Test func aRestoreThatCannotHappenIsJournaledAndDoneNextTime() async throws {
        try await SharedVirtualReader.exclusive {
            _ = try client.request(.place(x: 0.5, y: 0.3))
            let first = try await open()
            _ = try #require(try await first.waitForTarget(timeout: .seconds(5)))
            _ = try client.request(.lift)  // no card and no escape channel on vpcd: nothing to send the restore through
            _ = try await first.waitForRemoval(timeout: .seconds(5))
            await first.close()
            let stuck = try status().picc
            #expect(stuck == "E3" && journal.original(for: readerName) == 0xFF)
            #expect(first.closingWarnings.first?.contains("restored the next time") == true)

            _ = try client.request(.place(x: 0.5, y: 0.3))
            let second = try await open()
            _ = try #require(try await second.waitForTarget(timeout: .seconds(5)))
            await second.close()
            let restored = try status().picc
            #expect(restored == "FF" && journal.original(for: readerName) == nil)
            #expect(second.piccReport == .init(original: 0xFF, applied: 0xE3, restored: true))
        }
    }

    @Test func garbageFromTheReaderIsTyped() async throws {
        try await SharedVirtualReader.exclusive {
            _ = try client.request(.fault(.garbage))
            _ = try client.request(.place(x: 0.5, y: 0.3))
            let reader = try await open()
            await #expect { try await reader.waitForTarget(timeout: .seconds(5)) } throws: { error in
                (error as? ReaderError)?.code == .garbage
            }
            await reader.close()
        }
    }

    /// pcsc-tools' own client sees what the virtual card does, step by step.
    @Test func pcscScanSeesTheCardAppearAndDisappear() async throws {
        try await SharedVirtualReader.exclusive {
            let scan = Process()
            // Line-buffered: pcsc_scan writes through stdio, which a pipe would buffer away.
            scan.executableURL = URL(fileURLWithPath: "/usr/bin/stdbuf")
            scan.arguments = ["-oL", "/usr/bin/pcsc_scan", "-t", "5"]
            let out = Pipe()
            scan.standardOutput = out
            scan.standardError = out
            let watcher = OutputWatcher(out)
            try scan.run()
            #expect(await watcher.wait(for: "Card removed"), "pcsc_scan never reported the empty reader: \(watcher.output)")
            _ = try client.request(.place(x: 0.5, y: 0.3))
            #expect(await watcher.wait(for: "Card inserted"), "\(watcher.output)")
            _ = try client.request(.lift)
            #expect(await watcher.wait(for: "Card removed", count: 2), "\(watcher.output)")
            scan.terminate()
            await ChildProcess.exit(of: scan)
            let text = watcher.output.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
            #expect(text.contains("Reader 0: \(readerName)"), "\(text)")
            #expect(text.contains("Card inserted") && text.contains("ATR: 3B 80 80 01 01"), "\(text)")
            let lastInsert = try #require(text.range(of: "Card inserted", options: .backwards))
            #expect(text[lastInsert.upperBound...].contains("Card removed"))
        }
    }
}
