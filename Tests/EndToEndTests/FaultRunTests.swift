import Foundation
import NFCBench
import NFCBenchRecords
import NFCBenchStoreSQLite
import NFCLocatorCore
import NFCTestSupport
import Testing

/// Evidence is sacred: a reader fault injected while no phone is at the position must
/// never become a MISS. The positioner script injects the fault at one position and
/// clears it a moment later (as a technician would replug); the run pauses, records
/// nothing while the reader is faulty, and taps the position again afterwards.
enum FaultScript {
    /// A position far from the S24's coil in its first grid pass: the phone is not there.
    static let faultyStep = 12

    static func positioner(ctl: String, directory: String, db: String, fault: String) -> String {
        let once = directory + "/fault-injected", cleared = directory + "/fault-cleared"
        // The clearing runs in the background with its output elsewhere, so the move itself
        // returns at once and the tap window opens while the reader is faulty. It clears the
        // fault once the run has journaled a fault at that position (as a technician replugs
        // after seeing it; a loaded machine can make other positions faulty too), never
        // after a fixed time: on a loaded machine the move, the journal write
        // and the window's first commands took longer than any timer, the window opened
        // after the fault was gone and rightly recorded a clean MISS. After a minute it
        // clears anyway, and the checks below fail.
        let journaled =
            "[ \"$(sqlite3 -readonly \(db) \"SELECT count(*) FROM session_event WHERE step = \(faultyStep) AND kind IN ('reader-fault', 'reader-lost')\" 2>/dev/null)\" -gt 0 ]"
        let clearing =
            "(i=0; until [ $i -ge 600 ] || \(journaled); do sleep 0.1; i=$((i + 1)); done;"
            + " \(ctl) fault none; date +%s.%N > \(cleared)) > /dev/null 2>&1 &"
        return "exec:if [ {index} -eq \(faultyStep) ] && [ ! -e \(once) ]; then touch \(once); \(ctl) fault \(fault) > /dev/null;"
            + " \(clearing) fi; \(ctl) {action} {x} {y} > /dev/null"
    }

    /// Checks the session: complete, one tap per position, and the faulty position's tap
    /// taken only after the fault was cleared.
    /// A mute PN532 is faulty when it went silent while libnfc waited for an answer (an
    /// abort ends that wait), lost when it went silent before acknowledging a command
    /// (libnfc cannot interrupt that wait) or while its port was being replugged; only
    /// the replug, which clearing the fault does, brings it back either way.
    static func check(db: String, directory: String, output: String, lost: Bool = false) async throws {
        if lost {
            #expect(
                output.contains("READER FAULT at position \(faultyStep + 1)") || output.contains("READER LOST: Reader"),
                "\(output)")
        } else {
            #expect(output.contains("READER FAULT at position \(faultyStep + 1)"), "\(output)")
        }
        #expect(output.contains("position \(faultyStep + 1) is tapped again"))
        let store = try await SQLiteBenchStore.open(path: db)
        let session = try #require(try await store.sessions().first)
        let taps = try await store.taps(session.id)
        #expect(session.status == .completed && Set(taps.map(\.step)).count == taps.count)
        let cleared = try #require(
            Double(
                try String(contentsOfFile: directory + "/fault-cleared", encoding: .utf8).trimmingCharacters(
                    in: .whitespacesAndNewlines)))
        let atFault = try #require(taps.first { $0.step == faultyStep })
        #expect(
            atFault.result == .miss && atFault.timestamp.timeIntervalSince1970 >= cleared, "recorded while the reader was faulty")
    }
}

@Suite("Reader faults never become misses")
struct FaultRunTests {
    let scratch: TemporaryDirectory
    init() throws { scratch = try TemporaryDirectory("faults") }

    @Test(arguments: ["garbage", "slow", "mute"])
    func throughLibnfc(fault: String) async throws {
        let bench = try TestBench(antenna: (0.1, 0.36, 0.8, 0.38))
        let db = scratch.database()
        let ctl = "\(BuiltBinary.path) sim ctl --dir \(bench.directory)"
        let r = try await BuiltBinary.run([
            "run", "--plan", "grid", "--model", "SM-S921B", "--reader", bench.spec,
            "--positioner", FaultScript.positioner(ctl: ctl, directory: bench.directory, db: db, fault: fault),
            "--auto", "--tap-timeout", "1", "--fault-timeout", "60", "--db", db,
        ])
        #expect(r.status == 0, "\(r.stderr)")
        try await FaultScript.check(db: db, directory: bench.directory, output: r.stdout, lost: fault == "mute")
    }

    /// Tag mode: the chip waits silently as a target, so the window starts by proving the
    /// link; a garbling or crawling reader pauses the run instead of recording a MISS.
    @Test(arguments: ["garbage", "slow"])
    func tagModeThroughLibnfc(fault: String) async throws {
        let bench = try TestBench(antenna: (0.1, 0.36, 0.8, 0.38))
        let db = scratch.database()
        let ctl = "\(BuiltBinary.path) sim ctl --dir \(bench.directory)"
        let r = try await BuiltBinary.run([
            "run", "--plan", "grid", "--mode", "tag", "--model", "SM-S921B", "--reader", bench.spec,
            "--positioner", FaultScript.positioner(ctl: ctl, directory: bench.directory, db: db, fault: fault),
            "--auto", "--tap-timeout", "1", "--fault-timeout", "60", "--db", db,
        ])
        #expect(r.status == 0, "\(r.stderr)")
        try await FaultScript.check(db: db, directory: bench.directory, output: r.stdout)
    }
}

@Suite(
    "Reader faults never become misses, through PC/SC", .serialized,
    .enabled(if: SharedVirtualReader.isAvailable, "needs pcscd and the virtual bench: run scripts/test.sh"))
struct PCSCFaultRunTests {
    let scratch: TemporaryDirectory
    init() throws { scratch = try TemporaryDirectory("pcsc-faults") }

    @Test(arguments: ["garbage", "slow", "mute"])
    func throughPCSC(fault: String) async throws {
        try await SharedVirtualReader.exclusive {
            let db = scratch.database()
            let bench = SharedVirtualReader.benchDirectory
            let ctl = "\(BuiltBinary.path) sim ctl --dir \(bench)"
            let marker = scratch.path
            let r = try await BuiltBinary.run([
                "run", "--plan", "grid", "--model", "SM-S921B", "--reader", "pcsc:\(SharedVirtualReader.readerName)",
                "--positioner", FaultScript.positioner(ctl: ctl, directory: marker, db: db, fault: fault),
                "--auto", "--tap-timeout", "1", "--fault-timeout", "60", "--db", db,
            ])
            #expect(r.status == 0, "\(r.stderr)")
            try await FaultScript.check(db: db, directory: marker, output: r.stdout)
        }
    }
}
