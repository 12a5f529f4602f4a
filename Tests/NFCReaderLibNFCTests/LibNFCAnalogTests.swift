import Foundation
import NFCReaderLibNFC
import NFCReaders
import NFCTestSupport
import NFCVirtualBench
import Testing

/// The analog settings through real libnfc (`pn53x_transceive`, `pn53x_read_register`)
/// on the emulated PN532, checked on the chip's own item 0x0A: a weakened field misses a
/// phone that couples only a little, and the reader is never left weakened.
@Suite("Analog settings through libnfc")
struct LibNFCAnalogTests {
    let scratch: TemporaryDirectory
    init() throws { scratch = try TemporaryDirectory("analog") }

    var journal: AnalogJournal { AnalogJournal(directory: URL(fileURLWithPath: scratch.path)) }

    /// A phone placed where it couples a little: 0.3 to 0.6 of the way in.
    static func placeNearTheEdge(_ bench: TestBench) throws -> Double {
        let phone = bench.bench.bench.snapshot.phone
        let a = phone.antenna
        let x = a.x + a.width / 2
        let y = try #require(
            stride(from: a.y, to: a.y + a.height / 2, by: 0.002).first { (0.3...0.6).contains(phone.coupling(x: x, y: $0)) })
        #expect(bench.bench.bench.place(x: x, y: y), "the default field reads it there")
        try bench.waitUntilVisible()
        return phone.coupling(x: x, y: y)
    }

    @Test func aWeakenedFieldMissesAWeaklyCoupledPhoneAndIsPutBack() async throws {
        let bench = try TestBench()
        let coupling = try Self.placeNearTheEdge(bench)
        let weakest = CouplingLadder.standard.profiles[0]
        #expect(weakest.threshold > coupling)
        let reader = try await LibNFCReader.open(connstring: bench.connstring, analogJournal: journal)
        let analog = try #require(reader.capabilities.analogProfile)
        guard case .target = try await reader.pollWindow(.milliseconds(400)) else {
            Issue.record("the default field should read the phone"); return
        }
        try await analog.apply(weakest)
        #expect(bench.bench.pn532AnalogSettings == weakest.settings)
        // The journal holds what the chip had, read back from its registers: the defaults.
        #expect(journal.original(for: bench.connstring) == AnalogProfile.pn532Default.settings)
        guard case .clean = try await reader.pollWindow(.milliseconds(400)) else {
            Issue.record("the weakest field should not reach a phone coupled \(coupling)"); return
        }
        let middle = try #require(CouplingLadder.standard.profiles.first { $0.threshold <= coupling && $0.threshold > 0 })
        try await analog.apply(middle)
        guard case .target = try await reader.pollWindow(.milliseconds(400)) else {
            Issue.record("\(middle) reaches a phone coupled \(coupling)"); return
        }
        #expect(journal.original(for: bench.connstring) == AnalogProfile.pn532Default.settings, "the first original stays")
        try await analog.restoreAnalogSettings()
        #expect(bench.bench.pn532AnalogSettings == AnalogProfile.pn532Default.settings)
        #expect(journal.original(for: bench.connstring) == nil)
        await reader.close()
    }

    /// Opens the bench's reader with the test's journal. After a reader dropped a moment
    /// before, its queue still holds the port lock until the block that answered its last
    /// call has returned; `open` waits that moment out itself (`SerialPortLock.acquire`).
    func open(_ bench: TestBench) async throws -> LibNFCReader {
        try await LibNFCReader.open(connstring: bench.connstring, analogJournal: journal)
    }

    /// Closing puts the settings back; a reader dropped without closing (a killed
    /// session) leaves the journal, and the next open puts them back first.
    @Test func closeAndTheNextOpenPutTheSettingsBack() async throws {
        let bench = try TestBench()
        let weakest = CouplingLadder.standard.profiles[0]
        var reader: LibNFCReader? = try await LibNFCReader.open(connstring: bench.connstring, analogJournal: journal)
        try await reader?.capabilities.analogProfile?.apply(weakest)
        await reader?.close()
        #expect(bench.bench.pn532AnalogSettings == AnalogProfile.pn532Default.settings)
        #expect(journal.pending().isEmpty)

        reader = nil  // lets go of the port
        reader = try await open(bench)
        try await reader?.capabilities.analogProfile?.apply(weakest)
        reader = nil  // gone without close, as after kill -9
        #expect(bench.bench.pn532AnalogSettings == weakest.settings)
        #expect(journal.pending().count == 1)
        let next = try await open(bench)
        #expect(bench.bench.pn532AnalogSettings == AnalogProfile.pn532Default.settings)
        #expect(journal.pending().isEmpty)
        await next.close()
    }

    /// Issue 49, L2: a reader weakened under one of its names (the bench's link, as
    /// `/dev/serial/by-id/...` on a real bench) and dropped as a killed session drops it is
    /// put back when opened under another (the pseudo-terminal the link points to, as
    /// `/dev/ttyUSB0`), and says so; a reader found as it should be says nothing.
    @Test func aReaderWeakenedUnderOneNameIsPutBackUnderAnother() async throws {
        let bench = try TestBench()
        let weakest = CouplingLadder.standard.profiles[0]
        let link = try #require(ReaderDevice.serialPath(of: bench.connstring))
        let node = URL(fileURLWithPath: link).resolvingSymlinksInPath().path
        #expect(node.hasPrefix("/dev/pts/"), "\(node)")
        var reader: LibNFCReader? = try await open(bench)
        #expect(reader?.restoredAtOpen == nil)
        try await reader?.capabilities.analogProfile?.apply(weakest)
        reader = nil  // gone without close, as after kill -9
        #expect(bench.bench.pn532AnalogSettings == weakest.settings)
        #expect(journal.pending() == [bench.connstring], "the journal still names the reader as the run did")

        let other = try await LibNFCReader.open(connstring: "pn532_uart:" + node, analogJournal: journal)
        #expect(bench.bench.pn532AnalogSettings == AnalogProfile.pn532Default.settings)
        #expect(other.restoredAtOpen?.contains("put back") == true)
        #expect(journal.pending().isEmpty && journal.original(for: bench.connstring) == nil)
        await other.close()
    }

    /// The port lock is the device's too: `flock` locks the node a name opens, so a reader
    /// held under its link is busy under the node it points to (issue 49, L2).
    @Test func aReaderHeldUnderOneNameIsBusyUnderAnother() async throws {
        let bench = try TestBench()
        let link = try #require(ReaderDevice.serialPath(of: bench.connstring))
        let node = URL(fileURLWithPath: link).resolvingSymlinksInPath().path
        let held = try await open(bench)
        do {
            _ = try await LibNFCReader.open(connstring: "pn532_uart:" + node, analogJournal: journal)
            Issue.record("opened the reader twice, under two names")
        } catch {
            #expect(error.code == .busy, "\(error)")
        }
        await held.close()
    }
}
