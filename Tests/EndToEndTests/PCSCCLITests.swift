import Foundation
import Glibc
import NFCReaders
import NFCSystem
import NFCTestSupport
import NFCVirtualBench
import Testing

@testable import NFCReaderPCSC

/// The built binary against the real pcscd (a private one, started by scripts/test.sh)
/// and the shared virtual reader, one test at a time (`SharedVirtualReader.exclusive`).
@Suite(
    "PC/SC through the CLI", .serialized,
    .enabled(if: SharedVirtualReader.isAvailable, "needs pcscd and the virtual bench: run scripts/test.sh"))
struct PCSCCLITests {
    let scratch: TemporaryDirectory
    init() throws { scratch = try TemporaryDirectory("pcsc-cli") }

    var readerName: String { SharedVirtualReader.readerName }
    var client: VirtualBenchClient { SharedVirtualReader.client }
    func status() throws -> BenchStatus { try #require(try client.request(.status).status) }

    @Test func ctrlCThroughTheCLIRestoresThePICCParameter() async throws {
        try await SharedVirtualReader.exclusive {
            _ = try client.request(.place(x: 0.5, y: 0.3))
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
                Thread { continuation.resume(returning: handle.availableLine(timeout: 30)) }.start()
            }
            #expect(firstLine?.contains("\"kind\":\"phone (card emulation)\"") == true)
            let during = try status().picc
            #expect(during == "E3")
            process.interrupt()  // SIGINT, as Ctrl-C
            await ChildProcess.exit(of: process)
            #expect(process.terminationStatus == 130)
            let stderr = String(decoding: await ChildProcess.drain(err), as: UTF8.self)
            #expect(stderr.contains("Interrupted; the reader was closed and restored."))
            let final = try status().picc
            #expect(final == "FF")
        }
    }

    @Test func ledFeedbackOnHitAndSwitchOff() async throws {
        try await SharedVirtualReader.exclusive {
            _ = try client.request(.place(x: 0.5, y: 0.3))
            let before = (try status().leds).count
            let on = try await BuiltBinary.run(["poll", "--reader", "pcsc:\(readerName)", "--timeout", "5"])
            #expect(on.status == 0)
            let leds = try status().leds
            #expect(leds.count == before + 1 && leds.last == "FF00402E0401010101")
            let off = try await BuiltBinary.run(["poll", "--reader", "pcsc:\(readerName)", "--timeout", "5", "--no-feedback"])
            let ledsAfter = try status().leds
            #expect(off.status == 0 && ledsAfter.count == before + 1)
        }
    }

    @Test func cardHeldExclusivelyElsewhereIsBusy() async throws {
        try await SharedVirtualReader.exclusive {
            _ = try client.request(.place(x: 0.5, y: 0.3))
            try await SharedVirtualReader.waitForPCSCD(cardPresent: true)
            let context = try PCSCContext()
            var holder: PCSCCard? = try PCSCCard(context: context, reader: readerName, exclusive: true)
            let r = try await BuiltBinary.run(["poll", "--reader", "pcsc:\(readerName)", "--timeout", "3"])
            #expect(r.status == 1)
            #expect(r.stderr.contains("is in use by another process") && r.stderr.contains("Hint:"))
            // `readers` says so without connecting.
            func inUse() async throws -> Bool? {
                let listed = try await BuiltBinary.run(["readers", "--json"])
                let rows = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as! [[String: Any]]
                return rows.first { $0["spec"] as? String == "pcsc:\(readerName)" }?["inUse"] as? Bool
            }
            #expect(try await inUse() == true)
            // PC/SC has no target mode: card polling only, and the reason.
            let listed = try await BuiltBinary.run(["readers", "--json"])
            let rows = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as! [[String: Any]]
            let row = rows.first { $0["spec"] as? String == "pcsc:\(readerName)" }
            #expect(row?["modes"] as? [String] == ["card"] && (row?["tagMode"] as? String)?.contains("no target mode") == true)
            _ = holder
            holder = nil
            #expect(try await inUse() == false)
        }
    }

    /// The serial number the tests' vpcd driver answers (Tests/Fixtures/vpcd-serial): "VPCD-"
    /// and the port scripts/test.sh gave vpcd.
    static var expectedSerial: String {
        "VPCD-" + (ProcessInfo.processInfo.environment["NFCBENCH_TEST_VPCD_PORT"] ?? "35963")
    }

    @Test func readersNamesTheSerialNumberAnOutsideClientReads() async throws {
        try await SharedVirtualReader.exclusive {
            func row() async throws -> [String: Any]? {
                let listed = try await BuiltBinary.run(["readers", "--json"])
                let rows = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as! [[String: Any]]
                return rows.first { $0["spec"] as? String == "pcsc:\(readerName)" }
            }
            #expect(try await row()?["serial"] as? String == Self.expectedSerial)
            let text = try await BuiltBinary.run(["readers"])
            let line = text.stdout.split(separator: "\n").first { $0.contains("pcsc:\(readerName)") }
            #expect(line?.contains(", serial \(Self.expectedSerial)\t") == true, "\(text.stdout)")
            // pyscard (Debian's python3-pyscard) asks pcscd the same way, on a direct connection.
            let script = """
                import sys
                from smartcard.scard import *
                rv, context = SCardEstablishContext(SCARD_SCOPE_USER)
                rv, card, _ = SCardConnect(context, sys.argv[1], SCARD_SHARE_DIRECT, 0)
                if rv != SCARD_S_SUCCESS: sys.exit("connect: " + SCardGetErrorMessage(rv))
                rv, value = SCardGetAttrib(card, SCARD_ATTR_VENDOR_IFD_SERIAL_NO)
                if rv != SCARD_S_SUCCESS: sys.exit("attribute: " + SCardGetErrorMessage(rv))
                print(bytes(value).rstrip(b"\\0").decode("ascii"))
                """
            let (status, out, errors) = try await ChildProcess.run(
                "/usr/bin/python3", ["-c", script, readerName], environment: ProcessInfo.processInfo.environment, timeout: 30)
            #expect(status == 0, "\(errors)")
            #expect(out.trimmingCharacters(in: .whitespacesAndNewlines) == Self.expectedSerial)
            // A reader another program holds exclusively is left alone: no serial asked.
            _ = try client.request(.place(x: 0.5, y: 0.3))
            try await SharedVirtualReader.waitForPCSCD(cardPresent: true)
            let context = try PCSCContext()
            var holder: PCSCCard? = try PCSCCard(context: context, reader: readerName, exclusive: true)
            let held = try await row()
            #expect(held?["inUse"] as? Bool == true && held?["serial"] is NSNull, "\(held ?? [:])")
            _ = holder
            holder = nil
            _ = try client.request(.lift)
        }
    }

    @Test func noSuchReaderAndNoServiceThroughTheCLI() async throws {
        try await SharedVirtualReader.exclusive {
            let none = try await BuiltBinary.run(["poll", "--reader", "pcsc:no such reader", "--timeout", "1"])
            #expect(none.status == 1 && none.stderr.contains("No PC/SC reader matches 'no such reader'"))
            #expect(none.stderr.contains("Readers present: 'nfcbench virtual 00 00'"))
            // The client library finds pcscd through this socket; pointing it elsewhere is
            // exactly what a stopped pcscd looks like (SCARD_E_NO_SERVICE).
            let down = try await BuiltBinary.run(
                ["poll", "--reader", "pcsc:virtual", "--timeout", "1"],
                environment: ["PCSCLITE_CSOCK_NAME": "/tmp/nfcbench-no-pcscd.comm"])
            #expect(down.status == 1)
            #expect(down.stderr.contains("pcscd is not running") && down.stderr.contains("systemctl start pcscd"))
            // `readers` does not drop PC/SC without a word: it says pcscd is down and how to start it.
            let listing = try await BuiltBinary.run(
                ["readers"], environment: ["PCSCLITE_CSOCK_NAME": "/tmp/nfcbench-no-pcscd.comm"])
            #expect(listing.status == 0, "\(listing.stderr)")
            #expect(
                listing.stderr.contains("pcscd is not running") && listing.stderr.contains("systemctl start pcscd"),
                "\(listing.stderr)")
        }
    }

    /// With no --reader, the choice weighs every reader `readers` lists: a running virtual
    /// bench's emulated PN532 (in the bench registry, never in libnfc's autoscan) and the
    /// PC/SC reader alike, and names them all; with pcscd down, the bench's PN532 is the
    /// only reader and is the one used.
    @Test func readerChoiceNamesVirtualBenchesAndPCSCReadersAlike() async throws {
        try await SharedVirtualReader.exclusive {
            let bench = try await ServedBench.start(registryIn: scratch)
            defer { bench.discard() }
            let directory = bench.directory
            var environment = bench.environment

            let both = try await BuiltBinary.run(["poll", "--timeout", "0.5"], environment: environment)
            #expect(both.status == 1 && both.stderr.contains("Several readers found ("), "\(both.stderr)")
            #expect(both.stderr.contains("pcsc:\(SharedVirtualReader.readerName)"), "\(both.stderr)")
            #expect(
                both.stderr.contains("libnfc:pn532_uart:\(directory)/pn532 (virtual bench in \(directory))"), "\(both.stderr)")
            let run = try await BuiltBinary.run(
                ["run", "--model", "SM-S921B", "--auto", "--db", scratch.file("choice.sqlite")], environment: environment)
            #expect(run.status != 0 && run.stderr.contains("Several readers found ("), "\(run.stderr)")

            environment["PCSCLITE_CSOCK_NAME"] = "/tmp/nfcbench-no-pcscd.comm"
            let benchOnly = try await BuiltBinary.run(["poll", "--timeout", "0.5", "--json"], environment: environment)
            #expect(
                !benchOnly.stderr.contains("Several readers") && !benchOnly.stderr.contains("No reader found"),
                "\(benchOnly.stderr)")
            #expect(benchOnly.stderr.contains("Waiting for a target on pn532_uart:\(directory)/pn532"), "\(benchOnly.stderr)")
            await bench.stop()
        }
    }

    /// `run --coupling` over PC/SC: each HIT graded down the ladder by Direct Transmit to
    /// the virtual ACR122U's chip, every MISS without a grade, and the reader left with its
    /// default field and its own polling on.
    @Test func aGradedSessionOverPCSC() async throws {
        try await SharedVirtualReader.exclusive {
            let db = scratch.file("bench.sqlite")
            let state = scratch.file("state")
            let r = try await BuiltBinary.run(
                [
                    "run", "--model", "SM-S921B", "--reader", "pcsc:\(readerName)", "--positioner", "sim",
                    "--sim-bench", SharedVirtualReader.benchDirectory, "--plan", "grid", "--auto", "--coupling",
                    "--tap-timeout", "2", "--db", db, "--no-report",
                ], environment: ["NFCBENCH_STATE_DIR": state])
            #expect(r.status == 0, "\(r.stdout)\n\(r.stderr)")
            let csv = try await BuiltBinary.run(["export", "--all", "--db", db])
            let rows = csv.stdout.split(separator: "\r\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
            let header = try #require(rows.first).map(String.init)
            let result = try #require(header.firstIndex(of: "result")), grade = try #require(header.firstIndex(of: "coupling"))
            var graded: [Double] = []
            for row in rows.dropFirst() {
                if row[result] == "HIT" {
                    graded.append(try #require(Double(row[grade]), "a HIT is graded: \(row)"))
                } else {
                    #expect(row[grade].isEmpty, "only a HIT has a grade: \(row)")
                }
            }
            #expect(!graded.isEmpty && graded.allSatisfy { (0...1).contains($0) }, "\(graded)")
            #expect(Set(graded).count > 1, "the grade follows the coil: \(graded)")
            let after = try status()
            #expect(after.vpcdAnalog == Hex.string(AnalogProfile.pn532Default.settings, separator: " "))
            #expect(after.picc == "E3" || after.picc == "FF", "the firmware polls by itself again: \(after.picc)")
            #expect(AnalogJournal(directory: URL(fileURLWithPath: state + "/analog")).pending().isEmpty)
            if after.picc == "E3" {  // the phone was lifted at the end: the PICC restore waits for a card
                _ = try client.request(.place(x: 0.5, y: 0.3))
                let poll = try await BuiltBinary.run(
                    ["poll", "--reader", "pcsc:\(readerName)", "--timeout", "5"], environment: ["NFCBENCH_STATE_DIR": state])
                #expect(poll.status == 0)
                _ = try client.request(.lift)
            }
            #expect(try status().picc == "FF")
        }
    }

    @Test func aGuidedSessionOverPCSC() async throws {
        try await SharedVirtualReader.exclusive {
            let db = scratch.file("bench.sqlite")
            let r = try await BuiltBinary.run([
                "run", "--model", "SM-S921B", "--reader", "pcsc:\(readerName)", "--positioner", "sim",
                "--sim-bench", SharedVirtualReader.benchDirectory, "--plan", "adaptive", "--auto",
                "--tap-timeout", "2", "--db", db, "--json",
            ])
            #expect(r.status == 0, "\(r.stderr)")
            let o = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [String: Any]
            #expect(o["status"] as? String == "completed" && (o["hits"] as? Int ?? 0) > 0)
            #expect((o["reader"] as? String)?.hasPrefix("pcsc:nfcbench virtual") == true)
            // PC/SC names no firmware; the reader does once a card is connected (`FF 00 48`,
            // which the virtual card answers for its reader firmware), and the record keeps it.
            #expect(o["readerFirmware"] as? String == "nfcbench virtual 1.0", "\(r.stdout)")
            let id = try #require(o["sessionId"] as? String)
            let shown = try await BuiltBinary.run(["show", id, "--json", "--db", db])
            let stored = try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any]
            #expect(stored?["readerFirmware"] as? String == "nfcbench virtual 1.0", "\(shown.stdout)")
            // The tests' pcscd serves vpcd through a driver that answers the serial number
            // the way the CCID driver does (Tests/Fixtures/vpcd-serial).
            #expect(o["readerSerial"] as? String == Self.expectedSerial, "\(r.stdout)")
            #expect(stored?["readerSerial"] as? String == Self.expectedSerial, "\(shown.stdout)")
            // The bench's true zone (0.1, 0.1, 0.8, 0.4, from scripts/test.sh) is above the seed's S24 guess.
            #expect(o["verdict"] as? String == "SHIFTED")
            // The session ends with the phone lifted: vpcd has no escape channel, so the PICC
            // restore is journaled, said, and done by the next session that sees a card.
            if try status().picc == "E3" {
                #expect(r.stderr.contains("will be restored the next time nfcbench opens it"))
                _ = try client.request(.place(x: 0.5, y: 0.3))
                let poll = try await BuiltBinary.run(["poll", "--reader", "pcsc:\(readerName)", "--timeout", "5"])
                #expect(poll.status == 0)
            }
            let restored = try status().picc
            #expect(restored == "FF")
        }
    }
}
