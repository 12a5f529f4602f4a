import Foundation
import NFCReaderLibNFC
import NFCReaders
import NFCTestSupport
import NFCVirtualBench
import Testing

/// nfcbench's own tag emulation through the real libnfc (target API) on the virtual
/// bench's PN532, read by the simulated phone.
@Suite("Tag emulation through libnfc")
struct TagEmulationTests {
    let message = NDEFMessage([.uri("https://nfcbench.invalid/S-20261201-000000-test/3")])

    @Test func aPhoneOverTheCoilReadsTheWholeMessage() async throws {
        let bench = try TestBench()
        let reader = try await LibNFCReader.open(connstring: bench.connstring)
        defer { Task { await reader.close() } }
        #expect(reader.tagEmulation == .supported)
        try bench.placeOverCoil()
        guard case .read(let read) = try await reader.emulateTag(message, window: .seconds(3)) else {
            Issue.record("no read")
            return
        }
        #expect(read.completed && read.messageBytes == message.bytes.count)
        #expect(read.readTime != nil && read.activation < .seconds(3))
        #expect(bench.bench.bench.snapshot.tagReads.last?.outcome == .read(message.bytes))
    }

    /// No phone: a clean window, ended by the window's own abort of the wait for
    /// activation. Were that abort lost (it once was when it landed before libnfc was
    /// waiting, on a loaded CI host), the wait would run on to the exchange deadline, 3 s
    /// after the window: the bound tells the two apart, and no more.
    @Test func noPhoneIsACleanWindow() async throws {
        let bench = try TestBench()
        let reader = try await LibNFCReader.open(connstring: bench.connstring)
        defer { Task { await reader.close() } }
        let started = ContinuousClock.now
        guard case .clean = try await reader.emulateTag(message, window: .milliseconds(600)) else {
            Issue.record("not clean")
            return
        }
        #expect(ContinuousClock.now - started < .milliseconds(600) + .seconds(3))
        // The reader still works for the next window.
        try bench.placeOverCoil()
        guard case .read(let read) = try await reader.emulateTag(message, window: .seconds(3)) else {
            Issue.record("no read after a clean window")
            return
        }
        #expect(read.completed)
    }

    /// A phone that stops mid-read is partial evidence: activation happened, the message
    /// was not read to its end.
    @Test func aPhoneThatStopsMidReadIsPartial() async throws {
        let bench = try TestBench()
        bench.bench.bench.tagReaderAbortAfter = 5
        let read = try await readWithThePhoneOnTheCoil(bench)
        #expect(!read.completed && read.progress == .ndefLengthRead && read.messageBytes == 0)
    }

    /// Emulates the tag for one window with the phone placed over the coil.
    func readWithThePhoneOnTheCoil(_ bench: TestBench) async throws -> TagReadResult {
        let reader = try await LibNFCReader.open(connstring: bench.connstring)
        defer { Task { await reader.close() } }
        try bench.placeOverCoil()
        let window = try await reader.emulateTag(message, window: .seconds(3))
        guard case .read(let read) = window else { throw TestFailure("no read: \(window)") }
        return read
    }

    struct TestFailure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// A phone pulled away in the middle of the exchange: the chip reports the target
    /// released, and what was read so far is a partial read.
    @Test func aPhoneLeavingMidExchangeIsPartial() async throws {
        let bench = try TestBench()
        bench.bench.bench.tagReaderLeavesAfter = 4
        let read = try await readWithThePhoneOnTheCoil(bench)
        #expect(!read.completed && read.progress == .ndefFileSelected, "\(read)")
        guard case .gaveUp(let reason, _)? = bench.bench.bench.snapshot.tagReads.last?.outcome else {
            Issue.record("\(bench.bench.bench.snapshot.tagReads)")
            return
        }
        #expect(reason.contains("left the field"))
    }

    /// A reader that garbles its frames during the window is a faulty window, never a
    /// clean one (a MISS).
    @Test func aGarblingReaderIsAFaultyWindow() async throws {
        let bench = try TestBench()
        let reader = try await LibNFCReader.open(connstring: bench.connstring)
        defer { Task { await reader.close() } }
        bench.fault(.garbage)
        let window = try await reader.emulateTag(message, window: .milliseconds(800))
        guard case .faulty = window else {
            Issue.record("\(window)")
            return
        }
    }

    /// A fault that starts after the window's opening check and lasts past its end (the
    /// issue's `fault mute` or `garbage` held for 3 s) is a faulty window, never a clean
    /// one: the silence came from the fault, not from an empty field.
    @Test(arguments: [BenchFault.mute, .garbage])
    func aFaultInsideTheWindowIsNeverAClean(_ fault: BenchFault) async throws {
        let bench = try TestBench()
        let reader = try await LibNFCReader.open(connstring: bench.connstring)
        defer { Task { await reader.close() } }
        // Injected by the emulated chip as it starts waiting as a target: after the opening
        // check, whatever the machine's load.
        bench.bench.controls.faultAtTargetInit = fault
        let window = try await reader.emulateTag(message, window: .milliseconds(1200))
        guard case .faulty = window else {
            Issue.record("\(fault): \(window)")
            return
        }
    }

    /// A reader unplugged while it answers the phone is thrown as lost, as everywhere
    /// else (the run waits for it and says so), never taken for a faulty window.
    @Test func aReaderUnpluggedMidExchangeIsLost() async throws {
        let bench = try TestBench()
        let reader = try await LibNFCReader.open(connstring: bench.connstring)
        defer { Task { await reader.close() } }
        bench.bench.controls.unplugAtTargetAnswer = 2
        try bench.placeOverCoil()
        do {
            let window = try await reader.emulateTag(message, window: .seconds(3))
            Issue.record("the window ended as \(window)")
        } catch {
            #expect(error.code == .unplugged, "\(error)")
        }
    }

    @Test func whichChipsCanEmulate() {
        #expect(TagEmulationSupport.forLibNFC(firmware: "PN532 v1.6", name: "pn532_uart") == .supported)
        guard case .unsupported(let why) = TagEmulationSupport.forLibNFC(firmware: "PN533 v2.7", name: "NXP PN533") else {
            Issue.record("a PN533 emulating")
            return
        }
        #expect(why.contains("PN533") && why.contains("not implemented"))
        guard
            case .limited(let caveat) = TagEmulationSupport.forLibNFC(firmware: "PN532 v1.4", name: "ACS ACR122U PICC Interface")
        else {
            Issue.record("ACR122U without caveat")
            return
        }
        #expect(caveat.contains("replug"))
    }
}
