import Foundation
import NFCBenchUseCases
import NFCReaderLibNFC
import NFCReaders
import NFCTestSupport
import Testing

/// `doctor` puts back what a killed session left weakened, on the emulated PN532.
@Suite("doctor and the analog journal")
struct AnalogRestoreChecksTests {
    @Test func doctorPutsBackWhatAKilledSessionLeftWeakened() async throws {
        let scratch = try TemporaryDirectory("doctor-analog")
        let journal = AnalogJournal(directory: URL(fileURLWithPath: scratch.path))
        let bench = try TestBench()
        var reader: LibNFCReader? = try await LibNFCReader.open(connstring: bench.connstring, analogJournal: journal)
        try await reader?.capabilities.analogProfile?.apply(CouplingLadder.standard.profiles[0])
        reader = nil  // killed: nothing put back
        #expect(bench.bench.pn532AnalogSettings == CouplingLadder.standard.profiles[0].settings)
        #expect(journal.pending() == [bench.connstring])
        let checks = await AnalogRestoreChecks(journal: journal).checks()
        #expect(checks.map(\.verdict) == [.ok] && checks.first?.detail.contains(bench.connstring) == true, "\(checks)")
        #expect(bench.bench.pn532AnalogSettings == AnalogProfile.pn532Default.settings)
        #expect(journal.pending().isEmpty)
        #expect(await AnalogRestoreChecks(journal: journal).checks().isEmpty, "nothing left to do")
    }
}
