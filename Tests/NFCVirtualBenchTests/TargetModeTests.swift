import Foundation
import NFCReaders
import NFCTestSupport
import NFCVirtualBench
import Testing

/// The emulated PN532 in target mode, checked against an outside implementation:
/// libnfc's own `nfc-emulate-forum-tag4` (Debian libnfc-examples) drives the chip through
/// libnfc's target API, and the simulated phone on the bench reads its NDEF message.
@Suite("PN532 target mode")
struct TargetModeTests {
    /// The example's built-in message (a Smart Poster: "Libnfc", http://libnfc.org), as
    /// its source defines the NDEF file.
    static let libnfcMessage: [UInt8] = [
        0xd1, 0x02, 0x1c, 0x53, 0x70, 0x91, 0x01, 0x09, 0x54, 0x02, 0x65, 0x6e, 0x4c, 0x69, 0x62, 0x6e, 0x66, 0x63, 0x51, 0x01,
        0x0b, 0x55, 0x03, 0x6c, 0x69, 0x62, 0x6e, 0x66, 0x63, 0x2e, 0x6f, 0x72, 0x67,
    ]

    func waitForRead(_ bench: TestBench, count: Int) async throws -> [PhoneOnBench.TagRead] {
        let deadline = Date().addingTimeInterval(20)
        while bench.bench.bench.snapshot.tagReads.count < count, Date() < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        return bench.bench.bench.snapshot.tagReads
    }

    func startEmulator(_ bench: TestBench) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/nfc-emulate-forum-tag4")
        process.environment = ProcessInfo.processInfo.environment.merging(libnfcEnvironment(bench.connstring)) { $1 }
        process.standardOutput = Pipe()
        process.standardError = Pipe()
        try process.run()
        return process
    }

    @Test func theSimulatedPhoneReadsLibnfcsEmulatedTag() async throws {
        let bench = try TestBench()
        let emulator = try startEmulator(bench)
        defer { if emulator.isRunning { kill(emulator.processIdentifier, SIGKILL) } }
        // TgInitAsTarget is waiting for a reader before the phone comes.
        try await bench.waitForPoll(after: 0)
        try bench.placeOverCoil()
        let reads = try await waitForRead(bench, count: 1)
        #expect(reads.first?.outcome == .read(Self.libnfcMessage), "\(reads)")
        // The phone is done: the chip reports the target released, and the example ends.
        let output = String(decoding: await ChildProcess.drain(emulator.standardOutput as! Pipe), as: UTF8.self)
        await ChildProcess.exit(of: emulator)
        #expect(output.contains("Emulating NDEF tag now"), "\(output)")
        #expect(output.contains("Out: ") && output.contains("90  00"), "\(output)")
    }

    /// A phone that gives up mid-read, and one lifted mid-exchange, are partial reads;
    /// the emulating side sees the target released.
    @Test func aPhoneThatStopsMidReadIsPartial() async throws {
        let bench = try TestBench()
        bench.bench.bench.tagReaderAbortAfter = 5
        let emulator = try startEmulator(bench)
        defer { if emulator.isRunning { kill(emulator.processIdentifier, SIGKILL) } }
        try await bench.waitForPoll(after: 0)
        try bench.placeOverCoil()
        let reads = try await waitForRead(bench, count: 1)
        guard case .gaveUp(let reason, let bytes)? = reads.first?.outcome else {
            Issue.record("\(reads)")
            return
        }
        #expect(reason.contains("after 5 commands") && bytes == 0)
        await ChildProcess.exit(of: emulator)
        #expect(emulator.terminationStatus != 0)  // nfc_emulate_target: target released
    }

    /// `sim ctl reader`: the phone reads to the end, or stops after N commands.
    @Test func controlWordsForThePhoneAsAReader() throws {
        let bench = try TestBench()
        #expect(bench.bench.handle(try BenchCommand(parsing: "reader abort 4")).abortAfter == 4)
        #expect(bench.bench.bench.tagReaderAbortAfter == 4)
        let complete = bench.bench.handle(try BenchCommand(parsing: "reader complete"))
        #expect(complete.ok && complete.abortAfter == nil)
        #expect(bench.bench.bench.tagReaderAbortAfter == nil)
        #expect(throws: BenchControlError.usage("reader abort N, N in 0...1000")) { try BenchCommand(parsing: "reader abort x") }
    }
}
