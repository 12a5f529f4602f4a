import Foundation
import NFCBenchStoreSQLite
import NFCLabTestSupport
import NFCTestSupport
import Testing

/// Issue 49, F4: a command whose standard output could not take what it wrote (here
/// `/dev/full`, a full disk) has not succeeded. The README tells users to make replay
/// files with `show --json > FILE`: before, every command below exited 0 with no message.
@Suite("Failed writes to standard output through the CLI")
struct OutputFailureCLITests {
    let scratch = try! TemporaryDirectory("full")

    /// `arguments` with standard output sent to `/dev/full`.
    func runIntoFullDisk(_ arguments: [String]) async throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: BuiltBinary.path)
        process.arguments = arguments
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/full"))
        let errors = Pipe()
        process.standardError = errors
        var environment = ProcessInfo.processInfo.environment
        environment["NFCBENCH_STATE_DIR"] = scratch.file("state")
        environment["XDG_CACHE_HOME"] = scratch.file("cache")
        process.environment = environment
        try process.run()
        // Off the cooperative pool, as every child of the tests is awaited (ChildProcess).
        let text = String(decoding: await ChildProcess.drain(errors), as: UTF8.self)
        await ChildProcess.exit(of: process)
        return (process.terminationStatus, text)
    }

    @Test func everyCommandThatCouldNotWriteItsOutputExitsOne() async throws {
        let db = scratch.database()
        let store = try await SQLiteBenchStore.open(path: db)
        let session = try await LabFixture.session("S-20261206-100000-full", station: nil, in: store)
        let catalog = scratch.file("catalog.json")
        try FileManager.default.copyItem(at: Checkout.seedCatalog, to: URL(fileURLWithPath: catalog))
        let commands: [[String]] = [
            ["show", session.id, "--db", db, "--json"], ["show", session.id, "--db", db],
            ["show", session.id, "--db", db, "--events"], ["sessions", "--db", db], ["sessions", "--db", db, "--json"],
            ["template", "--model", "SM-S921B"], ["resolve", "--model", "SM-S921B", "--json"],
            ["resolve", "--model", "SM-S921B"], ["catalog", "list"], ["refine", "--model", "SM-S921B", "--db", db, "--json"],
            ["plan", "--model", "SM-S921B", "--json"], ["catalog", "validate", catalog, "--json"], ["--version"],
            ["run", "--help"],
        ]
        for arguments in commands {
            let r = try await runIntoFullDisk(arguments)
            #expect(r.status == 1, "\(arguments) exited \(r.status): \(r.stderr)")
            #expect(r.stderr.contains("Could not write to standard output: "), "\(arguments): \(r.stderr)")
        }
    }
}
