import NFCBench
import NFCBenchUseCases
import Testing

@Suite("Doctor as providers")
struct DiagnosisTests {
    @Test func everyProvidersFindingsComeInOrderAndOneFailBlocks() async {
        let host = FoundChecks([DoctorCheck(id: "libraries", verdict: .ok, detail: "libnfc 1.8.0")])
        let lab = FoundChecks([DoctorCheck(id: "lab-store", verdict: .warn, detail: "slow")])
        let clean = await Diagnosis.run([host, lab])
        #expect(clean.checks.map(\.id) == ["libraries", "lab-store"] && !clean.hasBlocker)
        let failing = FoundChecks([DoctorCheck(id: "permissions", verdict: .fail, detail: "no access", fix: "udev rules")])
        #expect(await Diagnosis.run([host, failing, lab]).hasBlocker)
        #expect(await Diagnosis.run([]).checks.isEmpty)
    }
}
