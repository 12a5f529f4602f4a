import Foundation
import Glibc
import NFCReaders
import NFCTestSupport
import NFCVirtualBench
import Testing

/// `nfcbench poll` and `readers` through the built binary, on private virtual benches.
@Suite("Reader commands through the CLI")
struct ReaderCLITests {
    @Test func pollPrintsJSONLinesAndExits0() async throws {
        let bench = try TestBench()
        try bench.placeOverCoil()
        let r = try await BuiltBinary.run(["poll", "--reader", bench.spec, "--timeout", "5", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [String: Any]
        #expect(object["technology"] as? String == "ISO14443A")
        #expect(object["uid"] as? String == Hex.string(bench.bench.bench.snapshot.target!.uid))
        #expect(object["atqa"] as? String == "0004" && object["sak"] as? String == "20" && object["ats"] as? String == "78807002")
        #expect(object["kind"] as? String == "phone (card emulation)" && object["atr"] is NSNull)
        #expect((object["latencyMs"] as? Double ?? -1) >= 0 && (object["reader"] as? String)?.contains("pn532_uart") == true)
    }

    @Test func pollWithNoTargetExits3() async throws {
        let bench = try TestBench()
        let r = try await BuiltBinary.run(["poll", "--reader", bench.spec, "--timeout", "0.5"])
        #expect(r.status == 3 && r.stdout.isEmpty && r.stderr.contains("No target within 0.5 s."))
    }

    @Test func noReaderThroughTheCLI() async throws {
        let r = try await BuiltBinary.run(["poll", "--reader", "libnfc:pn532_uart:/tmp/nfcbench-absent", "--timeout", "1"])
        #expect(r.status == 1)
        #expect(
            r.stderr.contains("Error: No serial reader at '/tmp/nfcbench-absent'.")
                && r.stderr.contains("Hint: Plug the reader in"))
    }

    @Test func busyThroughTheCLI() async throws {
        let bench = try TestBench()
        // The holder outlives the test by far (it is stopped at the end): on a loaded
        // machine a 10 s poll once ended before the second process even started.
        let holder = try BuiltBinary.start(["poll", "--reader", bench.spec, "--timeout", "120"])
        defer { holder.terminate() }
        // The holder says it waits only once it has the reader open.
        #expect(await ChildProcess.waitForText(holder.standardError as! Pipe, "Waiting for a target"))
        let r = try await BuiltBinary.run(["poll", "--reader", bench.spec, "--timeout", "1"])
        #expect(r.status == 1 && r.stderr.contains("is in use by another process"), "exit \(r.status): \(r.stderr)")
        #expect(holder.isRunning, "the holder let go of the reader before the second poll")
    }

    @Test func unplugDuringAPollThroughTheCLI() async throws {
        let bench = try TestBench()
        let process = try BuiltBinary.start(["poll", "--reader", bench.spec, "--timeout", "20"])
        #expect(await ChildProcess.waitForText(process.standardError as! Pipe, "Waiting for a target"))
        bench.fault(.unplug)
        DispatchQueue.global().asyncAfter(deadline: .now() + 5) { if process.isRunning { process.terminate() } }
        let stderr = String(decoding: await ChildProcess.drain(process.standardError as! Pipe), as: UTF8.self)
        await ChildProcess.exit(of: process)
        #expect(process.terminationReason == .exit, "poll hung after the reader vanished")
        #expect(process.terminationStatus == 1 && stderr.contains("disappeared (unplugged or powered off)"), "\(stderr)")
    }

    @Test func garbageThroughTheCLI() async throws {
        let bench = try TestBench()
        bench.fault(.garbage)
        let r = try await BuiltBinary.run(["poll", "--reader", bench.spec, "--timeout", "1"])
        #expect(
            r.status == 1
                && r.stderr.contains("did not complete libnfc's PN53x handshake (it gave no answer, or not a valid one)"),
            "\(r.stderr)")
    }

    @Test func permissionDeniedAndKernelClaimThroughTheCLI() async throws {
        let scratch = try TemporaryDirectory("fake")
        defer { scratch.remove() }
        let root = scratch.path
        let device = root + "/sys/bus/usb/devices/1-1"
        try FileManager.default.createDirectory(atPath: device + "/1-1:1.0", withIntermediateDirectories: true)
        for (name, value) in [("idVendor", "072f"), ("idProduct", "2200"), ("busnum", "1"), ("devnum", "7")] {
            try value.write(toFile: device + "/" + name, atomically: true, encoding: .utf8)
        }
        try FileManager.default.createDirectory(atPath: root + "/dev/bus/usb/001", withIntermediateDirectories: true)
        #expect(
            FileManager.default.createFile(
                atPath: root + "/dev/bus/usb/001/007", contents: nil,
                attributes: [.posixPermissions: 0o660]))
        let env = [
            "NFCBENCH_SYSFS_ROOT": root + "/sys", "NFCBENCH_DEV_ROOT": root + "/dev",
            "NFCBENCH_IDENTITY": "1000:1000", "LIBNFC_LOG_LEVEL": "0",
        ]
        let denied = try await BuiltBinary.run(["poll", "--reader", "libnfc:acr122_usb:", "--timeout", "1"], environment: env)
        #expect(denied.status == 1 && denied.stderr.contains("Permission denied on ACS ACR122U"))
        #expect(denied.stderr.contains("udev/70-nfcbench.rules"))

        try FileManager.default.createDirectory(
            atPath: root + "/sys/bus/usb/drivers/pn533_usb", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: device + "/1-1:1.0/driver", withDestinationPath: root + "/sys/bus/usb/drivers/pn533_usb")
        let claimed = try await BuiltBinary.run(["poll", "--reader", "libnfc:acr122_usb:", "--timeout", "1"], environment: env)
        #expect(claimed.status == 1 && claimed.stderr.contains("claimed by the kernel's 'pn533_usb' driver"))
        #expect(claimed.stderr.contains("blacklist"))
    }

    @Test(arguments: [
        (["poll", "--reader", "usb"], "'usb' is not a reader spec."),
        (["poll", "--reader", "libnfc:acr122_pcsc:"], "without the acr122_pcsc driver"),
        (["poll", "--timeout", "-1"], "Invalid value '-1' for '--timeout'"),
        (["poll", "--count", "0"], "Invalid value '0' for '--count'"),
    ])
    func badOptionsAreUsageErrors(args: [String], message: String) async throws {
        let r = try await BuiltBinary.run(args)
        #expect(r.status == 64 && r.stderr.contains(message), "\(r.stderr)")
    }

    @Test func readersListsTheEmulatedPN532() async throws {
        let bench = try TestBench()
        let r = try await BuiltBinary.run(["readers", "--json"], environment: libnfcEnvironment(bench.connstring))
        #expect(r.status == 0)
        let list = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [[String: Any]]
        #expect(list.contains { $0["spec"] as? String == bench.spec && $0["backend"] as? String == "libnfc" })
        // A PN532 polls for cards and emulates tags.
        #expect(list.first { $0["spec"] as? String == bench.spec }?["modes"] as? [String] == ["card", "tag"])
    }
}

extension BuiltBinary {
    /// Starts the binary and returns at once; stdout and stderr are pipes.
    static func start(_ arguments: [String], environment: [String: String] = [:]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = Pipe()
        process.standardError = Pipe()
        try process.run()
        return process
    }
}

extension Process {
    /// Waits up to `timeout` seconds; whether it exited. It sleeps, never blocks: a test
    /// that held one of the cooperative pool's two threads here for a minute delayed every
    /// other test of the pass by as much (a 20 s wait for output seen to time out so).
    ///
    /// Exited means the kernel says so (the process is a zombie or gone), not only that
    /// Foundation reaped it: on a loaded machine Foundation's reaping came seconds late,
    /// and a process killed with SIGKILL was reported still running after 10 s.
    func exits(within timeout: TimeInterval) async -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
        while isRunning && !hasEnded && ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(10)) }
        let ended = !isRunning || hasEnded
        // Then Foundation's own reaping, however late, so `terminationStatus` may be read.
        if ended { await ChildProcess.exit(of: self) }
        return ended
    }

    /// `exits(within:)`, and a process still running then is killed (SIGKILL) and reaped,
    /// so that a test which found it too slow can still read its status and output instead
    /// of crashing the whole pass on `terminationStatus` of a running process.
    func endsOrIsKilled(within timeout: TimeInterval) async -> Bool {
        if await exits(within: timeout) { return true }
        kill(processIdentifier, SIGKILL)
        await ChildProcess.exit(of: self)
        return false
    }

    /// Whether the process has ended, whoever reaps it: `/proc/PID/stat` says zombie (Z)
    /// or dead (X), or is gone.
    var hasEnded: Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(processIdentifier)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return true }
        let state = stat[stat.index(after: close)...].drop { $0 == " " }.first
        return state == "Z" || state == "X"
    }

    /// A serial port where nothing answers: the message says the handshake failed, not "answered with
    /// data that is not a valid reply" (the issue's self-contradicting wording).
    @Test func aSilentSerialPortFailsTheHandshakeWithoutContradiction() async throws {
        var controller: Int32 = -1, device: Int32 = -1
        var name = [CChar](repeating: 0, count: 4096)
        #expect(openpty(&controller, &device, &name, nil, nil) == 0)
        defer {
            close(controller)
            close(device)
        }
        let path = String(cString: name)
        let r = try await BuiltBinary.run(["poll", "--reader", "libnfc:pn532_uart:\(path)", "--timeout", "1"])
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.contains("The device at '\(path)' did not complete libnfc's PN53x handshake"), "\(r.stderr)")
        #expect(!r.stderr.contains("answered with data"))
    }
}
