import Foundation
import NFCTestSupport
import Testing

/// `nfcbench rig init` against the emulated GRBL and Marlin machines (issue 52: rig setup
/// was circular, `rig calibrate` refused without the rig file it was meant to write).
/// Each test serves its own bench and its own fake `/dev` (`NFCBENCH_DEV_ROOT`).
@Suite("Rig set-up from nothing through the CLI")
struct RigInitCLITests {
    let scratch: TemporaryDirectory
    init() throws { scratch = try TemporaryDirectory("riginit") }

    func served(_ dialect: String, zHome: String = "up") async throws -> ServedBench {
        try await ServedBench.start(
            registryIn: scratch,
            arguments: [
                "--gantry", dialect, "--gantry-speed", "50", "--gantry-z-home", zHome, "--miss-rate", "0", "--antenna",
                "0.2,0.5,0.6,0.3",
            ])
    }

    /// A `/dev` as udev lays one out: the machine under a stable by-id name and as ttyUSB0,
    /// and the bench's PN532 reader as ttyACM0 (it must not answer as a machine, and must
    /// still read afterwards).
    func fakeDev(_ bench: ServedBench) throws -> String {
        let dev = scratch.file("dev")
        try FileManager.default.createDirectory(atPath: dev + "/serial/by-id", withIntermediateDirectories: true)
        let gantry = try FileManager.default.destinationOfSymbolicLink(atPath: bench.directory + "/gantry")
        let reader = try FileManager.default.destinationOfSymbolicLink(atPath: bench.directory + "/pn532")
        try FileManager.default.createSymbolicLink(
            atPath: dev + "/serial/by-id/usb-1a86_USB_Serial-if00-port0", withDestinationPath: gantry)
        try FileManager.default.createSymbolicLink(atPath: dev + "/ttyUSB0", withDestinationPath: gantry)
        try FileManager.default.createSymbolicLink(atPath: dev + "/ttyACM0", withDestinationPath: reader)
        return dev
    }

    /// From nothing to a session: `rig init` finds the machine among the ports and writes
    /// its keys under the stable name; a run refuses the file until `rig calibrate` has
    /// marked the jig from it; then the run completes on the same reader init asked.
    @Test func initFindsTheMachineAndCalibrateCompletesTheFile() async throws {
        let bench = try await served("grbl")
        defer { bench.discard() }
        var environment = bench.environment
        environment["NFCBENCH_DEV_ROOT"] = try fakeDev(bench)
        let rig = scratch.file("rig.conf")
        let initialised = try await BuiltBinary.run(["rig", "init", "-o", rig], environment: environment)
        #expect(initialised.status == 0, "\(initialised.stdout)\(initialised.stderr)")
        #expect(initialised.stdout.contains("Asked 2 serial port(s)"), "ttyUSB0 is the by-id port: \(initialised.stdout)")
        #expect(initialised.stdout.contains("ttyACM0 (") && initialised.stdout.contains("nothing G-code answered"))
        let written = try String(contentsOfFile: rig, encoding: .utf8)
        for line in [
            "device = \(environment["NFCBENCH_DEV_ROOT"]!)/serial/by-id/usb-1a86_USB_Serial-if00-port0\n", "dialect = grbl\n",
            "travel-x = 200\n", "travel-y = 250\n", "travel-z = 60\n", "homes = yes\n", "feed-xy = 3000\n",
        ] {
            #expect(written.contains(line), "\(line) missing:\n\(written)")
        }
        #expect(!written.contains("origin-x"), "no jig before calibration")

        let again = try await BuiltBinary.run(["rig", "init", "-o", rig], environment: environment)
        #expect(again.status == 1 && again.stderr.contains("--force"), "\(again.stderr)")
        #expect(try String(contentsOfFile: rig, encoding: .utf8) == written)

        let arguments = [
            "run", "--model", "SM-S921B", "--reader", "libnfc:pn532_uart:\(bench.directory)/pn532", "--positioner", "gcode",
            "--rig", rig, "--auto", "--plan", "grid", "--tap-timeout", "0.3", "--db", scratch.file("bench.sqlite"), "--no-report",
        ]
        let early = try await BuiltBinary.run(arguments, environment: environment)
        #expect(early.status == 64 && early.stderr.contains("has no jig yet"), "\(early.stderr)")
        #expect(early.stderr.contains("rig calibrate"), "\(early.stderr)")

        // The calibration test's keys: from home to the corners of a 70.6 x 147 mm back at X 40, Y 30, Z 2.
        let (right, up, down) = ("\u{1B}[C", "\u{1B}[A", "\u{1B}[6~")
        let keys =
            "3" + String(repeating: right, count: 4) + String(repeating: up, count: 3) + String(repeating: down, count: 5)
            + "2" + String(repeating: down, count: 8) + "ta3" + String(repeating: right, count: 7) + "1"
            + String(repeating: right, count: 6) + "3" + String(repeating: up, count: 14) + "2"
            + String(repeating: up, count: 7) + "bs"
        try keys.write(toFile: scratch.file("keys"), atomically: true, encoding: .utf8)
        let calibrated = try await ChildProcess.run(
            "/bin/sh",
            [
                "-c", "exec \"$0\" rig calibrate --model SM-S921B --rig \"$1\" < \"$2\"", BuiltBinary.path, rig,
                scratch.file("keys"),
            ],
            environment: environment)
        #expect(calibrated.status == 0, "\(calibrated.stdout)\(calibrated.stderr)")
        let complete = try String(contentsOfFile: rig, encoding: .utf8)
        #expect(complete.contains("origin-x = 40\n") && complete.contains("tap-z = 2\n") && complete.contains("safe-z = 32\n"))
        #expect(complete.contains("device = \(environment["NFCBENCH_DEV_ROOT"]!)/serial/by-id/"), "\(complete)")

        let run = try await BuiltBinary.run(arguments + ["--json"], environment: environment)
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
        #expect(run.stdout.contains("\"verdict\""), "\(run.stdout.prefix(400))")
    }

    /// Homing is written as safe only where the cycle lifts Z first: a GRBL whose `$23`
    /// sets Z's bit, or a Marlin with a `z_min` endstop (a printer homing to its bed), gets
    /// `homes = no` with the reason, in the file and on the screen.
    @Test(arguments: [("grbl", "up", true), ("grbl", "down", false), ("marlin", "up", true), ("marlin", "down", false)])
    func homingIsWrittenOnlyWhereItLiftsZ(_ dialect: String, _ zHome: String, _ homes: Bool) async throws {
        let bench = try await served(dialect, zHome: zHome)
        defer { bench.discard() }
        let rig = scratch.file("rig.conf")
        let r = try await BuiltBinary.run(
            ["rig", "init", "--device", bench.directory + "/gantry", "-o", rig], environment: bench.environment)
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        let written = try String(contentsOfFile: rig, encoding: .utf8)
        #expect(written.contains("dialect = \(dialect)\n") && written.contains("homes = \(homes ? "yes" : "no")\n"), "\(written)")
        #expect(r.stdout.contains(dialect == "grbl" ? "Found GRBL 1.1" : "Found Marlin 2"), "\(r.stdout)")
        if !homes {
            let why = dialect == "grbl" ? "GRBL homes Z downwards ($23=4" : "Marlin homes Z to its z_min endstop"
            #expect(written.contains("# homes = no: " + why) && r.stdout.contains(why), "\(written)\n\(r.stdout)")
            #expect(r.stdout.contains("the run will not home (homes = no)"), "\(r.stdout)")
        }
    }

    /// A port with no machine: the reader alone answers nothing G-code, and nothing is written.
    @Test func noMachineIsSaidAndNothingWritten() async throws {
        let bench = try await served("grbl")
        defer { bench.discard() }
        let rig = scratch.file("none.conf")
        let r = try await BuiltBinary.run(
            ["rig", "init", "--device", bench.directory + "/pn532", "-o", rig], environment: bench.environment)
        #expect(r.status == 1 && r.stderr.contains("No G-code machine answered"), "\(r.stdout)\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: rig))
    }
}
