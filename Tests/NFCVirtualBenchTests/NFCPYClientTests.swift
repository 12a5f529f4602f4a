import Foundation
import NFCReaders
import NFCTestSupport
import NFCVirtualBench
import Testing

/// The emulated PN532 against nfcpy 1.0.4's PN532 driver (`Tests/Fixtures/nfcpy`), a
/// client nfcbench did not write. nfcpy mutes the field between sense rounds
/// (RFConfiguration `32 01 02`) and polls with InListPassiveTarget, relying on the chip to
/// switch its field back on for the poll, as a real PN532 does; a type B phone is then
/// deselected (`CA 01`) and woken again (WUPB `05 00 08`) through InCommunicateThru.
@Suite("The emulated PN532 against nfcpy")
struct NFCPYClientTests {
    static func sense(_ bench: TestBench, iterations: Int = 10) async throws -> String {
        let script = Checkout.root.appendingPathComponent("Tests/Fixtures/nfcpy/find_phone.py").path
        let (status, output) = try await runTool(
            "/usr/bin/python3", [script, bench.directory + "/pn532", String(iterations)], timeout: 60)
        #expect(status == 0, "\(output)")
        return output
    }

    @Test(arguments: [TargetTechnology.iso14443A, .iso14443B])
    func nfcpyFindsThePhoneWhereTheBenchPutItAndNothingWhenLifted(_ technology: TargetTechnology) async throws {
        let bench = try TestBench(technology: technology)
        let empty = try await Self.sense(bench, iterations: 3)
        #expect(empty.hasSuffix("none\n") && empty.contains("PN532v1.6"), "\(empty)")
        try bench.placeOverCoil()
        let uid = try #require(bench.bench.bench.snapshot.target?.uid)
        let found = try await Self.sense(bench)
        let type = technology == .iso14443A ? "106A" : "106B"
        // nfcpy's sdd_res is everything after the UID length byte: the UID, then (type A)
        // the ATS the chip read.
        #expect(found.contains("found \(type) \(Hex.string(uid))"), "\(found)")
        bench.lift()
        let gone = try await Self.sense(bench, iterations: 3)
        #expect(gone.hasSuffix("none\n"), "\(gone)")
        // Each round that found nothing ended with nfcpy's mute: the chip's field is off.
        #expect(bench.bench.bench.snapshot.readerFieldOn == false)
    }
}
