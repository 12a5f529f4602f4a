import Foundation
import Glibc
import NFCBenchStoreSQLite
import NFCLabTestSupport
import NFCTestSupport
import Testing

/// Every writer against the destinations that must never be renamed over or destroyed:
/// a character device made with `mknod` (never the system's `/dev`), a FIFO, the session
/// database and its WAL (by name, through a symlink, through `..` and as a hard link),
/// and `/dev/full`, whose write errors must reach the exit code.
@Suite("Output destinations")
struct DestinationCLITests {
    let scratch: TemporaryDirectory
    init() throws { scratch = try TemporaryDirectory("dest") }

    /// The command lines of every writer, each with its destination last. The database
    /// is named by `NFCBENCH_DB` (`run`), as `template` and `resolve` take no `--db`: they
    /// protect the database the bench uses all the same.
    func writers(db: String, session: String) -> [(name: String, arguments: [String])] {
        [
            ("template", ["template", "--model", "SM-S921B", "-o"]),
            ("resolve --svg", ["resolve", "--model", "SM-S921B", "--svg"]),
            ("show --svg", ["show", session, "--svg"]),
            ("refine -o", ["refine", "--all", "--include-simulated", "-o"]),
            ("export -o", ["export", "--all", "-o"]),
            ("report -o", ["report", "--session", session, "-o"]),
        ]
    }

    func sessionDatabase() async throws -> (db: String, session: String) {
        let db = scratch.database()
        let r = try await BuiltBinary.run([
            "run", "--model", "SM-S921B", "--reader", "sim", "--auto", "--plan", "grid", "--tap-timeout", "0.1", "--db", db,
            "--json",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let id = try #require(r.stdout.firstMatch(of: /"sessionId" *: *"([^"]+)"/)?.1)
        return (db, String(id))
    }

    @Test func theSessionDatabaseAndItsJournalsAreRefusedUnderEveryName() async throws {
        let (db, session) = try await sessionDatabase()
        let before = try Data(contentsOf: URL(fileURLWithPath: db))
        let link = scratch.file("link.sqlite")
        #expect(symlink(db, link) == 0)
        let hardLink = scratch.file("hard.sqlite")
        #expect(Glibc.link(db, hardLink) == 0)
        try FileManager.default.createDirectory(atPath: scratch.file("sub"), withIntermediateDirectories: false)
        let name = URL(fileURLWithPath: db).lastPathComponent
        let targets = [db, db + "-wal", db + "-shm", db + "-journal", link, hardLink, scratch.file("sub/../" + name)]
        for (writer, arguments) in writers(db: db, session: session) {
            for target in targets {
                let r = try await BuiltBinary.run(arguments + [target], environment: ["NFCBENCH_DB": db])
                #expect(r.status == 1 && r.stderr.contains("is the session database"), "\(writer) \(target): \(r.stderr)")
            }
        }
        // A run's report path is checked before the session starts.
        for target in [db, db + "-wal", link] {
            let r = try await BuiltBinary.run(
                ["run", "--model", "SM-S921B", "--reader", "sim", "--auto", "--db", db, "--report", target])
            #expect(r.status == 1 && r.stderr.contains("is the session database"), "run --report \(target): \(r.stderr)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == before, "the database is unchanged")
        let listed = try await BuiltBinary.run(["sessions", "--db", db])
        #expect(listed.status == 0 && listed.stdout.contains(session), "\(listed.stderr)")
    }

    @Test(.enabled(if: getuid() == 0, "mknod needs root"))
    func aDeviceIsWrittenInPlaceNeverReplaced() async throws {
        let (db, session) = try await sessionDatabase()
        let device = scratch.file("null")
        // The null device's numbers, major 1 and minor 3 (glibc's makedev, a macro Swift cannot
        // see, packs small numbers as major << 8 | minor): writes succeed and vanish.
        #expect(mknod(device, S_IFCHR | 0o666, dev_t(1 << 8 | 3)) == 0, "mknod: \(String(cString: strerror(errno)))")
        for (writer, arguments) in writers(db: db, session: session) {
            let r = try await BuiltBinary.run(arguments + [device], environment: ["NFCBENCH_DB": db])
            var info = stat()
            #expect(r.status == 0, "\(writer): \(r.stderr)")
            #expect(stat(device, &info) == 0 && info.st_mode & S_IFMT == S_IFCHR, "\(writer) replaced the device")
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: scratch.path).filter { $0.hasPrefix(".") }
        #expect(left.isEmpty, "temporary files left: \(left)")
    }

    @Test func aFullDeviceIsAFailureWithItsReason() async throws {
        let (db, session) = try await sessionDatabase()
        for (writer, arguments) in writers(db: db, session: session) {
            let r = try await BuiltBinary.run(arguments + ["/dev/full"], environment: ["NFCBENCH_DB": db])
            #expect(r.status == 1 && r.stderr.contains("No space left on device"), "\(writer): \(r.status) \(r.stderr)")
        }
        var info = stat()
        #expect(stat("/dev/full", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)
    }

    /// Issue 49, F5: a run whose report was asked for and could not be written has the
    /// session saved, says how to write the report later, and exits 1 (it exited 0).
    @Test func aRunWhoseReportCannotBeWrittenIsSavedAndFails() async throws {
        let db = scratch.database()
        let r = try await BuiltBinary.run([
            "run", "--model", "SM-S921B", "--reader", "sim", "--auto", "--plan", "grid", "--tap-timeout", "0.1", "--db", db,
            "--report", "/dev/full",
        ])
        #expect(r.status == 1, "\(r.stderr)")
        #expect(
            r.stderr.contains("its report could not be written") && r.stderr.contains("No space left on device"), "\(r.stderr)")
        #expect(r.stderr.contains("nfcbench report --session S-"), "\(r.stderr)")
        let listed = try await BuiltBinary.run(["sessions", "--db", db])
        #expect(listed.stdout.contains("completed"), "\(listed.stdout)")
    }

    /// Issue 49, F5: a report in a folder that does not exist, or on a socket, is refused
    /// before the session starts: nothing is recorded (before, the whole session ran first).
    @Test func aReportThatCouldNeverBeWrittenIsRefusedBeforeTheSession() async throws {
        let db = scratch.database()
        let socketPath = scratch.file("report.sock")
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in socketPath.utf8.enumerated() where i < raw.count - 1 { raw[i] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0)
        for (target, reason) in [(scratch.file("no/such/folder/r.html"), "does not exist"), (socketPath, "it is a socket")] {
            let r = try await BuiltBinary.run(
                ["run", "--model", "SM-S921B", "--reader", "sim", "--auto", "--db", db, "--report", target])
            #expect(r.status == 1 && r.stderr.contains(reason), "run --report \(target): \(r.stderr)")
            #expect(!r.stdout.contains("Position 1"), "the session started: \(r.stdout)")
        }
        if FileManager.default.fileExists(atPath: db) {
            let listed = try await BuiltBinary.run(["sessions", "--db", db, "--json"])
            #expect(!listed.stdout.contains("S-"), "a session was recorded: \(listed.stdout)")
        }
    }

    /// Issue 49, F10 and F11: another database, or a hard link to the live write-ahead log of
    /// one, is never replaced, whichever database the command was given.
    @Test func anotherDatabaseAndAHardLinkToItsLogAreRefused() async throws {
        let (db, session) = try await sessionDatabase()
        let (other, _) = try await sessionDatabase()
        let otherBefore = try Data(contentsOf: URL(fileURLWithPath: other))
        // A third database held open with a write in its log, as a bench's own is mid-run.
        let live = scratch.database()
        let store = try await SQLiteBenchStore.open(path: live)
        _ = try await LabFixture.session("S-20261206-110000-wal1", station: nil, in: store)
        #expect(FileManager.default.fileExists(atPath: live + "-wal"))
        let walLink = scratch.file("wal-link.csv")
        #expect(Glibc.link(live + "-wal", walLink) == 0)
        let walBefore = try Data(contentsOf: URL(fileURLWithPath: walLink))
        for (writer, arguments) in writers(db: db, session: session) {
            for (target, what) in [(other, "an SQLite database"), (walLink, "write-ahead log")] {
                let r = try await BuiltBinary.run(arguments + [target], environment: ["NFCBENCH_DB": db])
                #expect(r.status == 1 && r.stderr.contains(what), "\(writer) \(target): \(r.stderr)")
            }
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: other)) == otherBefore)
        #expect(try Data(contentsOf: URL(fileURLWithPath: live + "-wal")) == walBefore)
        _ = store
    }

    @Test func aFIFOIsWrittenInPlace() async throws {
        let (db, session) = try await sessionDatabase()
        let fifo = scratch.file("pipe")
        #expect(mkfifo(fifo, 0o600) == 0)
        for (writer, arguments) in writers(db: db, session: session) {
            // The read end is opened first, non-blocking, so the writer's open never waits and
            // a writer that never opens cannot hang the test; every output here fits in the
            // pipe's 64 KiB buffer, read once the writer is done.
            let reader = open(fifo, O_RDONLY | O_NONBLOCK)
            #expect(reader >= 0)
            defer { close(reader) }
            let r = try await BuiltBinary.run(arguments + [fifo], environment: ["NFCBENCH_DB": db])
            var buffer = [UInt8](repeating: 0, count: 65_536)
            let read = Glibc.read(reader, &buffer, buffer.count)
            #expect(r.status == 0, "\(writer): \(r.stderr)")
            #expect(read > 0, "\(writer) wrote nothing into the pipe")
            var info = stat()
            #expect(stat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO, "\(writer) replaced the pipe")
        }
    }

    @Test func aFolderIsRefusedAndANewFileFollowsTheUmask() async throws {
        let (db, session) = try await sessionDatabase()
        let folder = scratch.file("folder")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        for (writer, arguments) in writers(db: db, session: session) {
            let r = try await BuiltBinary.run(arguments + [folder], environment: ["NFCBENCH_DB": db])
            #expect(r.status == 1 && r.stderr.contains("it is a folder"), "\(writer): \(r.stderr)")
        }
        // A new report is created as the user's umask says (here 027: group may read).
        let report = scratch.file("new.csv")
        let r = try await ChildProcess.run(
            "/bin/sh",
            [
                "-c", "umask 027 && exec \"$0\" \"$@\"", BuiltBinary.path, "export", "--all",
                "--db", db, "-o", report,
            ],
            environment: ProcessInfo.processInfo.environment)
        #expect(r.status == 0, "\(r.stderr)")
        let mode = try FileManager.default.attributesOfItem(atPath: report)[.posixPermissions] as? Int
        #expect(mode == 0o640, "mode \(String(mode ?? 0, radix: 8))")
    }
}
