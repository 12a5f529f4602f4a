import Foundation
import NFCTestSupport
import Testing

/// The tests' pcscd is private: its own socket (PCSCLITE_CSOCK_NAME), its own mount
/// namespace. The operator's pcscd, recorded by scripts/test.sh before anything started
/// (a stand-in on machines without one), keeps running beside it and never sees the
/// virtual readers; scripts/test.sh checks after the whole run that it is still the
/// same process.
@Suite(
    "Private pcscd beside the operator's",
    .enabled(
        if: ProcessInfo.processInfo.environment["NFCBENCH_TEST_OPERATOR_PCSCD"] != nil && SharedVirtualReader.isAvailable,
        "run through scripts/test.sh"))
struct PrivatePCSCDTests {
    let environment = ProcessInfo.processInfo.environment

    @Test func theOperatorsPcscdRunsAndServesNoVirtualReader() async throws {
        let identities = try #require(environment["NFCBENCH_TEST_OPERATOR_PCSCD"]).split(separator: " ")
        for identity in identities {
            let pid = identity.split(separator: ":")[0]
            let name = try String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8).trimmingCharacters(
                in: .whitespacesAndNewlines)
            #expect(name == "pcscd", "process \(pid) is \(name)")
        }
        var systemEnvironment = environment
        systemEnvironment.removeValue(forKey: "PCSCLITE_CSOCK_NAME")
        let system = try await ChildProcess.run(
            "/usr/bin/timeout", ["5", "/usr/bin/pcsc_scan", "-r"],
            environment: systemEnvironment, mergeErrors: true)
        #expect(!system.stdout.contains("nfcbench virtual"), "the operator's pcscd lists the virtual readers: \(system.stdout)")
        let own = try await ChildProcess.run(
            "/usr/bin/timeout", ["5", "/usr/bin/pcsc_scan", "-r"], environment: environment,
            mergeErrors: true)
        #expect(own.stdout.contains(SharedVirtualReader.readerName), "\(own.stdout)")
    }
}
