import Foundation
import Glibc
@testable import NFCReaderPCSC
import NFCReaders
import NFCVirtualBench
import Testing

/// Real pcscd with the vpcd driver, and the shared virtual bench that scripts/test.sh
/// starts. One pcscd serves the whole machine, so these tests run one at a time.
@Suite("PC/SC end to end", .serialized,
       .enabled(if: ProcessInfo.processInfo.environment["NFCBENCH_TEST_PCSCD"] == "1",
                "needs pcscd and the virtual bench: run scripts/test.sh"))
struct PCSCEndToEndTests {
    let env = ProcessInfo.processInfo.environment
    var readerName: String { env["NFCBENCH_TEST_PCSC_READER"]! }
    var client: VirtualBenchClient { VirtualBenchClient(socketPath: env["NFCBENCH_TEST_BENCH_DIR"]! + "/control.sock") }

    init() async throws {
        _ = try client.request("fault none")
        _ = try client.request("lift")
        _ = try client.request("technology A")
        // Let pcscd's 400 ms presence poll notice the removal before the test starts.
        try await Task.sleep(for: .seconds(0.5))
    }

    /// Each test keeps its own PICC journal, never the operator's.
    let journal = PICCJournal(directory: FileManager.default.temporaryDirectory
        .appendingPathComponent("picc-\(UUID().uuidString)"))

    func status() throws -> [String: Any] { try client.request("status") }

    func open() async throws -> PCSCReader { try await PCSCReader.open(readerName, journal: journal) }

    @Test func detectsATRUIDAndATS() async throws {
        _ = try client.request("place 0.5 0.3")
        let reader = try await PCSCReader.open("virtual 00 00", journal: journal)
        let target = try #require(try await reader.waitForTarget(timeout: .seconds(5)))
        #expect(target.atr == [0x3B, 0x80, 0x80, 0x01, 0x01])
        #expect(target.atrInfo?.summary == "ISO 14443-4, no historical bytes")
        let benchUID = try status()["uid"] as? String
        #expect(Hex.string(target.uid) == benchUID)
        #expect(target.uid.first == 0x08 && target.ats == [0x78, 0x80, 0x70, 0x02])
        #expect(target.kind == .phoneCardEmulation)
        await reader.close()
    }

    @Test func removalAndTimeout() async throws {
        let reader = try await open()
        #expect(try await reader.waitForTarget(timeout: .milliseconds(600)) == nil)
        _ = try client.request("place 0.5 0.3")
        _ = try #require(try await reader.waitForTarget(timeout: .seconds(5)))
        #expect(try await reader.waitForRemoval(timeout: .milliseconds(500)) == false)
        _ = try client.request("lift")
        #expect(try await reader.waitForRemoval(timeout: .seconds(5)))
        // Close with the phone on the reader, so the PICC parameter can be put back.
        _ = try client.request("place 0.5 0.3")
        _ = try #require(try await reader.waitForTarget(timeout: .seconds(5)))
        await reader.close()
        #expect(reader.closingWarnings.isEmpty)
    }

    @Test func cancellationEndsAWaitWithin300ms() async throws {
        let reader = try await open()
        try await expectCancellationWithin300ms(of: reader, after: .milliseconds(300))
        await reader.close()
    }

    @Test func piccParameterIsNarrowedThenRestored() async throws {
        _ = try client.request("place 0.5 0.3")
        let before = try status()["piccWrites"] as! [String]
        let reader = try await open()
        _ = try #require(try await reader.waitForTarget(timeout: .seconds(5)))
        let during = try status()["picc"] as? String
        #expect(during == "E3")
        await reader.close()
        let after = try status()
        #expect(after["picc"] as? String == "FF")
        #expect(Array((after["piccWrites"] as! [String]).dropFirst(before.count)) == ["E3", "FF"])
        #expect(reader.piccReport == .init(original: 0xFF, applied: 0xE3, restored: true))
    }

    @Test func aRestoreThatCannotHappenIsJournaledAndDoneNextTime() async throws {
        let journal = PICCJournal(directory: FileManager.default.temporaryDirectory
            .appendingPathComponent("picc-\(UUID().uuidString)"))
        _ = try client.request("place 0.5 0.3")
        let first = try await PCSCReader.open(readerName, journal: journal)
        _ = try #require(try await first.waitForTarget(timeout: .seconds(5)))
        _ = try client.request("lift")  // no card and no escape channel on vpcd: nothing to send the restore through
        _ = try await first.waitForRemoval(timeout: .seconds(5))
        await first.close()
        let stuck = try status()["picc"] as? String
        #expect(stuck == "E3" && journal.original(for: readerName) == 0xFF)
        #expect(first.closingWarnings.first?.contains("restored the next time") == true)

        _ = try client.request("place 0.5 0.3")
        let second = try await PCSCReader.open(readerName, journal: journal)
        _ = try #require(try await second.waitForTarget(timeout: .seconds(5)))
        await second.close()
        let restored = try status()["picc"] as? String
        #expect(restored == "FF" && journal.original(for: readerName) == nil)
        #expect(second.piccReport == .init(original: 0xFF, applied: 0xE3, restored: true))
    }

    @Test func ctrlCThroughTheCLIRestoresThePICCParameter() async throws {
        _ = try client.request("place 0.5 0.3")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: BuiltBinary.path)
        process.arguments = ["poll", "--reader", "pcsc:\(readerName)", "--count", "3", "--timeout", "20", "--json"]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // First target printed; the run now waits for the phone to be lifted.
        let handle = out.fileHandleForReading
        let firstLine = await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: handle.availableLine(timeout: 10)) }
        }
        #expect(firstLine?.contains("\"kind\":\"phone (card emulation)\"") == true)
        let during = try status()["picc"] as? String
        #expect(during == "E3")
        process.interrupt()  // SIGINT, as Ctrl-C
        await ChildProcess.exit(of: process)
        #expect(process.terminationStatus == 130)
        let stderr = String(decoding: await ChildProcess.drain(err), as: UTF8.self)
        #expect(stderr.contains("Interrupted; the reader was closed and restored."))
        let final = try status()["picc"] as? String
        #expect(final == "FF")
    }

    @Test func ledFeedbackOnHitAndSwitchOff() async throws {
        _ = try client.request("place 0.5 0.3")
        let before = (try status()["leds"] as! [String]).count
        let on = try await BuiltBinary.run(["poll", "--reader", "pcsc:\(readerName)", "--timeout", "5"])
        #expect(on.status == 0)
        let leds = try status()["leds"] as! [String]
        #expect(leds.count == before + 1 && leds.last == "FF00402E0401010101")
        let off = try await BuiltBinary.run(["poll", "--reader", "pcsc:\(readerName)", "--timeout", "5", "--no-feedback"])
        let ledsAfter = try status()["leds"] as! [String]
        #expect(off.status == 0 && ledsAfter.count == before + 1)
    }

    @Test func garbageFromTheReaderIsTyped() async throws {
        _ = try client.request("fault garbage")
        _ = try client.request("place 0.5 0.3")
        let reader = try await open()
        await #expect { try await reader.waitForTarget(timeout: .seconds(5)) } throws: { error in
            (error as? ReaderError)?.code == .garbage
        }
        await reader.close()
    }

    @Test func cardHeldExclusivelyElsewhereIsBusy() async throws {
        _ = try client.request("place 0.5 0.3")
        try await Task.sleep(for: .milliseconds(600))
        let context = try PCSCContext()
        let holder = try PCSCCard(context: context, reader: readerName, exclusive: true)
        let r = try await BuiltBinary.run(["poll", "--reader", "pcsc:\(readerName)", "--timeout", "3"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("is in use by another process") && r.stderr.contains("Hint:"))
        _ = holder
    }

    @Test func noSuchReaderAndNoServiceThroughTheCLI() async throws {
        let none = try await BuiltBinary.run(["poll", "--reader", "pcsc:no such reader", "--timeout", "1"])
        #expect(none.status == 1 && none.stderr.contains("No PC/SC reader matches 'no such reader'"))
        #expect(none.stderr.contains("Readers present: 'nfcbench virtual 00 00'"))
        // The client library finds pcscd through this socket; pointing it elsewhere is
        // exactly what a stopped pcscd looks like (SCARD_E_NO_SERVICE).
        let down = try await BuiltBinary.run(["poll", "--reader", "pcsc:virtual", "--timeout", "1"],
                                       environment: ["PCSCLITE_CSOCK_NAME": "/tmp/nfcbench-no-pcscd.comm"])
        #expect(down.status == 1)
        #expect(down.stderr.contains("pcscd is not running") && down.stderr.contains("systemctl start pcscd"))
    }

    @Test func aGuidedSessionOverPCSC() async throws {
        let db = FileManager.default.temporaryDirectory.appendingPathComponent("pcsc-\(UUID().uuidString).sqlite").path
        let r = try await BuiltBinary.run(["run", "--model", "SM-S921B", "--reader", "pcsc:\(readerName)", "--positioner", "sim",
                                           "--sim-bench", env["NFCBENCH_TEST_BENCH_DIR"]!, "--plan", "adaptive", "--auto",
                                           "--tap-timeout", "2", "--db", db, "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let o = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [String: Any]
        #expect(o["status"] as? String == "completed" && (o["hits"] as? Int ?? 0) > 0)
        #expect((o["reader"] as? String)?.hasPrefix("pcsc:nfcbench virtual") == true)
        // The bench's true zone (0.1, 0.1, 0.8, 0.4, from scripts/test.sh) is above the seed's S24 guess.
        #expect(o["verdict"] as? String == "SHIFTED")
        // The session ends with the phone lifted: vpcd has no escape channel, so the PICC
        // restore is journaled, said, and done by the next session that sees a card.
        if try status()["picc"] as? String == "E3" {
            #expect(r.stderr.contains("will be restored the next time nfcbench opens it"))
            _ = try client.request("place 0.5 0.3")
            let poll = try await BuiltBinary.run(["poll", "--reader", "pcsc:\(readerName)", "--timeout", "5"])
            #expect(poll.status == 0)
        }
        let restored = try status()["picc"] as? String
        #expect(restored == "FF")
    }

    @Test func pcscScanSeesTheCardAppearAndDisappear() async throws {
        let scan = Process()
        // Line-buffered: pcsc_scan writes through stdio, which a pipe would buffer away.
        scan.executableURL = URL(fileURLWithPath: "/usr/bin/stdbuf")
        scan.arguments = ["-oL", "/usr/bin/pcsc_scan", "-t", "5"]
        let out = Pipe()
        scan.standardOutput = out
        scan.standardError = out
        try scan.run()
        try await Task.sleep(for: .seconds(1.0))
        _ = try client.request("place 0.5 0.3")
        try await Task.sleep(for: .seconds(1.2))
        _ = try client.request("lift")
        try await Task.sleep(for: .seconds(1.2))
        scan.terminate()
        let raw = String(decoding: await ChildProcess.drain(out), as: UTF8.self)
        let text = raw.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
        #expect(text.contains("Reader 0: \(readerName)"), "\(text)")
        #expect(text.contains("Card inserted") && text.contains("ATR: 3B 80 80 01 01"), "\(text)")
        let lastInsert = try #require(text.range(of: "Card inserted", options: .backwards))
        #expect(text[lastInsert.upperBound...].contains("Card removed"))
    }
}

extension FileHandle {
    /// The first line that arrives within `timeout` seconds.
    func availableLine(timeout: TimeInterval) -> String? {
        var data = Data()
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            var pfd = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 100) == 1 else { continue }
            var byte: UInt8 = 0
            guard Glibc.read(fileDescriptor, &byte, 1) == 1 else { return nil }
            if byte == UInt8(ascii: "\n") { return String(decoding: data, as: UTF8.self) }
            data.append(byte)
        }
        return nil
    }
}
