import Foundation
import NFCBench
import NFCBenchRecords
import NFCBenchSeams
import NFCReaders
import NFCTestSupport
import NFCVirtualBench
import Testing

@Suite("Virtual bench positioner")
struct VirtualBenchPositionerTests {
    @Test func movesTheBenchsPhoneOverItsControlSocket() async throws {
        let bench = try TestBench(antenna: (0.1, 0.1, 0.8, 0.4))
        let positioner = VirtualBenchPositioner(directory: bench.directory)
        try await positioner.place(Probe(x: 0.5, y: 0.3), index: 0)
        let probe = try #require(bench.bench.bench.snapshot.probe)
        #expect(probe.x == 0.5 && probe.y == 0.3 && bench.bench.bench.snapshot.fieldEntries == 1)
        try await positioner.lift(index: 0)
        #expect(bench.bench.bench.snapshot.probe == nil)
    }

    @Test func aBenchThatIsNotThereIsAPositionerError() async throws {
        let positioner = VirtualBenchPositioner(directory: "/tmp/nfcb-no-such-bench")
        await #expect {
            try await positioner.place(Probe(x: 0.5, y: 0.5), index: 0)
        } throws: { error in
            (error as? PositionerError)?.message.contains("virtual bench did not take 'place'") == true
        }
    }
}
