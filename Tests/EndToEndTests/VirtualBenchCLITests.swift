import Foundation
import NFCTestSupport
import Testing

/// `nfcbench sim serve --dir DIR`, once it says it is ready (up to 20 s).
func serveBench(in directory: String, environment: [String: String], arguments: [String] = []) async throws -> Process {
    let serve = Process()
    serve.executableURL = URL(fileURLWithPath: BuiltBinary.path)
    serve.arguments = ["sim", "serve", "--dir", directory] + arguments
    serve.environment = environment
    serve.standardOutput = FileHandle.nullDevice
    serve.standardError = FileHandle.nullDevice
    try serve.run()
    let deadline = Date().addingTimeInterval(20)
    while !FileManager.default.fileExists(atPath: directory + "/ready"), Date() < deadline {
        try await Task.sleep(for: .milliseconds(50))
    }
    if !FileManager.default.fileExists(atPath: directory + "/ready") { kill(serve.processIdentifier, SIGKILL) }
    try #require(FileManager.default.fileExists(atPath: directory + "/ready"), "the bench never became ready")
    return serve
}

/// A virtual bench served for one test: a short folder of its own (the pty and socket
/// live there) and a bench registry in `scratch`, so only this test's commands see it.
struct ServedBench {
    let directory: String
    /// The test's environment with the private registry; commands run with it find the bench.
    let environment: [String: String]
    let process: Process

    static func start(registryIn scratch: TemporaryDirectory, arguments: [String] = []) async throws -> ServedBench {
        var environment = ProcessInfo.processInfo.environment
        environment["NFCBENCH_STATE_DIR"] = scratch.file("state")
        return try await start(environment: environment, arguments: arguments)
    }

    /// With the registry wherever `environment` puts it; `arguments` go to `sim serve`.
    static func start(environment: [String: String], arguments: [String] = []) async throws -> ServedBench {
        let directory = "/tmp/nfcb-" + String(UUID().uuidString.prefix(8))
        do {
            return ServedBench(
                directory: directory, environment: environment,
                process: try await serveBench(in: directory, environment: environment, arguments: arguments))
        } catch {
            try? FileManager.default.removeItem(atPath: directory)
            throw error
        }
    }

    /// Stops the bench as a lab would (SIGTERM) and waits for it to exit.
    func stop() async {
        kill(process.processIdentifier, SIGTERM)
        await ChildProcess.exit(of: process)
    }

    /// For every way out of a test: a bench still running is killed, its folder removed.
    func discard() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        try? FileManager.default.removeItem(atPath: directory)
    }
}

/// `nfcbench sim serve` as a lab runs it, and `nfcbench readers` finding it.
@Suite("Virtual bench through the CLI")
struct VirtualBenchCLITests {
    let scratch: TemporaryDirectory
    init() throws { scratch = try TemporaryDirectory("vbench") }

    /// `readers` lists a running bench's emulated PN532 (which libnfc's autoscan never
    /// finds) with its firmware and whether it is in use; a second bench on the same
    /// folder is refused and leaves the first one working; a stopped bench is no longer listed.
    @Test func readersFindARunningBenchAndASecondOneIsRefused() async throws {
        let bench = try await ServedBench.start(registryIn: scratch)
        defer { bench.discard() }
        let (directory, environment, serve) = (bench.directory, bench.environment, bench.process)

        let listed = try await BuiltBinary.run(["readers", "--json"], environment: environment)
        let rows = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as! [[String: Any]]
        let row = try #require(rows.first { $0["virtualBench"] as? String == directory }, "\(listed.stdout)")
        #expect(row["spec"] as? String == "libnfc:pn532_uart:\(directory)/pn532")
        #expect(row["firmware"] as? String == "PN532 v1.6" && row["inUse"] as? Bool == false)
        let text = try await BuiltBinary.run(["readers"], environment: environment)
        #expect(text.stdout.contains("Virtual bench running in \(directory) (pid \(serve.processIdentifier))"), "\(text.stdout)")

        let second = try await BuiltBinary.run(["sim", "serve", "--dir", directory], environment: environment)
        #expect(second.status == 1 && second.stderr.contains("another virtual bench already serves"), "\(second.stderr)")
        let status = try await BuiltBinary.run(["sim", "ctl", "--dir", directory, "status"], environment: environment)
        #expect(status.status == 0 && FileManager.default.fileExists(atPath: directory + "/pn532"), "\(status.stderr)")

        await bench.stop()
        let after = try await BuiltBinary.run(["readers", "--json"], environment: environment)
        #expect(!after.stdout.contains(directory), "\(after.stdout)")
    }
}

/// libnfc's own log lines stay off the operator's screen, kept in the state folder.
@Suite("Library log")
struct LibraryLogCLITests {
    let scratch: TemporaryDirectory
    init() throws { scratch = try TemporaryDirectory("liblog") }

    /// On a machine without USB, libnfc's usbbus reports "Unable to find USB busses" on
    /// standard error; nfcbench's own error says what matters. The library's line goes
    /// to library.log, or to standard error with --verbose.
    @Test func libnfcLinesGoToTheLogUnlessVerbose() async throws {
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "LIBNFC_LOG_LEVEL")
        environment["NFCBENCH_STATE_DIR"] = scratch.file("state")
        let quiet = try await BuiltBinary.run(
            ["poll", "--reader", "libnfc:pn532_uart:/dev/null", "--timeout", "0.1"], environment: environment)
        #expect(quiet.status == 1 && quiet.stderr.contains("did not complete libnfc's PN53x handshake"), "\(quiet.stderr)")
        #expect(!quiet.stderr.contains("libnfc.driver"), "\(quiet.stderr)")
        let log = try String(contentsOfFile: scratch.file("state/library.log"), encoding: .utf8)
        #expect(log.contains("error\tlibnfc.driver.pn532_uart\tInvalid serial port: /dev/null"), "\(log)")
        let verbose = try await BuiltBinary.run(
            ["--verbose", "poll", "--reader", "libnfc:pn532_uart:/dev/null", "--timeout", "0.1"], environment: environment)
        #expect(verbose.status == 1 && verbose.stderr.contains("libnfc.driver.pn532_uart"), "\(verbose.stderr)")
    }

    /// The registry's fallback folder in the shared temporary folder: created 0700 by the
    /// first bench, and refused (nothing listed, a warning) when it is another user's or
    /// others may write it, so a planted entry is never listed.
    @Test func theSharedRegistryFolderIsPrivateAndAPlantedOneIsRefused() async throws {
        let tmp = scratch.file("tmp")
        try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: false)
        var environment = ProcessInfo.processInfo.environment
        // Empty, not removed: BuiltBinary.run lays these over the test process's own
        // environment, where scripts/test.sh sets NFCBENCH_STATE_DIR.
        environment["NFCBENCH_STATE_DIR"] = ""
        environment["XDG_RUNTIME_DIR"] = ""
        environment["TMPDIR"] = tmp
        let bench = try await ServedBench.start(environment: environment)
        defer { bench.discard() }
        let directory = bench.directory
        let folder = tmp + "/nfcbench-\(getuid())"
        for path in [folder, folder + "/benches"] {
            var info = stat()
            #expect(
                lstat(path, &info) == 0 && info.st_mode & 0o777 == 0o700, "\(path) mode \(String(info.st_mode & 0o777, radix: 8))"
            )
        }
        let listed = try await BuiltBinary.run(["readers", "--json"], environment: environment)
        #expect(listed.stdout.contains(directory), "\(listed.stdout) \(listed.stderr)")

        // Others may write the folder: a planted entry could be there, so none is listed.
        chmod(folder, 0o777)
        let opened = try await BuiltBinary.run(["readers", "--json"], environment: environment)
        #expect(!opened.stdout.contains(directory), "\(opened.stdout)")
        #expect(opened.stderr.contains("can be written by other users"), "\(opened.stderr)")
        chmod(folder, 0o700)
        if getuid() == 0 {
            // Another user's folder.
            #expect(chown(folder, 65534, 65534) == 0)
            let foreign = try await BuiltBinary.run(["readers", "--json"], environment: environment)
            #expect(!foreign.stdout.contains(directory) && foreign.stderr.contains("belongs to user 65534"), "\(foreign.stderr)")
            #expect(chown(folder, 0, 0) == 0)
        }
    }
}
