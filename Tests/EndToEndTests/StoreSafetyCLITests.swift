import Foundation
import Glibc
import NFCStore
import NFCTestSupport
import Testing

/// Reading commands on archived and damaged stores, through the built binary.
@Suite("Archived and damaged session databases")
struct StoreSafetyCLITests {
    let scratch: TemporaryDirectory
    init() throws { scratch = try TemporaryDirectory("store-safety") }

    func simulatedSessions(_ db: String, count: Int) async throws {
        for _ in 0..<count {
            let r = try await BuiltBinary.run([
                "run", "--model", "SM-S921B", "--reader", "sim", "--auto", "--plan", "grid", "--tap-timeout", "0.1",
                "--db", db,
            ])
            #expect(r.status == 0, "\(r.stderr)")
        }
    }

    /// Runs the binary as a user who cannot write the archive: `nobody` when the tests run
    /// as root (root writes anywhere), else the current user. `nobody` may not reach the
    /// checkout (a clone under a 0700 folder), so it runs a copy of the binary and its
    /// resources in a folder anyone can read.
    func runAsReader(_ arguments: [String]) async throws -> BuiltBinary.Result {
        guard getuid() == 0 else { return try await BuiltBinary.run(arguments) }
        let reachable = "/tmp/nfcbench-reachable-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: reachable) }
        let fm = FileManager.default
        try fm.createDirectory(atPath: reachable, withIntermediateDirectories: false)
        try fm.copyItem(atPath: BuiltBinary.path, toPath: reachable + "/nfcbench")
        try fm.copyItem(atPath: Checkout.resources.path, toPath: reachable + "/Resources")
        for path in [reachable, reachable + "/Resources"]
            + (try fm.subpathsOfDirectory(atPath: reachable + "/Resources")).map({
                reachable + "/Resources/" + $0
            })
        {
            var isFolder: ObjCBool = false
            _ = fm.fileExists(atPath: path, isDirectory: &isFolder)
            chmod(path, isFolder.boolValue ? 0o755 : 0o644)
        }
        chmod(reachable + "/nfcbench", 0o755)
        return try await BuiltBinary.run(
            ["-u", "nobody", "--", reachable + "/nfcbench"] + arguments, binary: "/usr/sbin/runuser")
    }

    @Test func anArchivedCopyInAReadOnlyFolderIsReadAndNeverWritten() async throws {
        let db = scratch.database()
        try await simulatedSessions(db, count: 2)
        let archive = "/tmp/nfcbench-archive-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: archive, withIntermediateDirectories: false)
        defer {
            chmod(archive, 0o755)
            try? FileManager.default.removeItem(atPath: archive)
        }
        let copy = archive + "/bench.sqlite"
        try FileManager.default.copyItem(atPath: db, toPath: copy)
        chmod(copy, 0o444)
        chmod(archive, 0o555)
        let before = try Data(contentsOf: URL(fileURLWithPath: copy))
        let listed = try await runAsReader(["sessions", "--db", copy])
        #expect(listed.status == 0 && listed.stdout.components(separatedBy: "completed").count == 3, "\(listed.stderr)")
        // The first line is the column headers.
        let id = try #require(
            listed.stdout.split(separator: "\n").dropFirst().first?.split(separator: " ").first.map(String.init))
        let shown = try await runAsReader(["show", id, "--db", copy])
        #expect(shown.status == 0 && shown.stdout.contains(id), "\(shown.stderr)")
        let exported = try await runAsReader(["export", "--all", "--db", copy])
        #expect(
            exported.status == 0 && exported.stdout.components(separatedBy: ",completed,").count > 20,
            "\(exported.stdout) \(exported.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: copy)) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: archive) == ["bench.sqlite"], "no journal files left")
    }

    /// The issue's study: damaged files exported with exit 0 and altered rows. Now the
    /// check refuses them, exit 65, with nothing on standard output. Issue 49, F6: every
    /// reader and writer of the file says the same, for flipped bits and for a zeroed page
    /// alike (before, `sessions` exited 0 or 1 with a raw SELECT, `void` wrote into the
    /// file and `sync` blamed the lab store).
    @Test(arguments: ["flipped", "zeroed"])
    func aDamagedStoreIsRefusedWithARecoveryHint(damage: String) async throws {
        let db = scratch.database()
        try await simulatedSessions(db, count: 6)
        let listed = try await BuiltBinary.run(["sessions", "--db", db, "--json"])
        let id = try #require(listed.stdout.firstMatch(of: /"sessionId" *: *"([^"]+)"/)?.1).description
        var data = try Data(contentsOf: URL(fileURLWithPath: db))
        let pageSize = 4096
        let pages = data.count / pageSize
        #expect(pages >= 4, "a store of \(data.count) bytes")
        let page = damage == "flipped" ? pages - 2 : 3
        for i in (page * pageSize)..<((page + 1) * pageSize) { data[i] = damage == "flipped" ? data[i] ^ 0xA5 : 0 }
        try data.write(to: URL(fileURLWithPath: db))
        for command in [
            ["export", "--all"], ["export", "--all", "-o", scratch.file("out-\(damage).csv")],
            ["refine", "--model", "SM-S921B", "--include-simulated"], ["sessions"], ["sessions", "--json"], ["show", id],
            ["report", "--all", "--include-simulated", "--format", "csv-sessions"],
            ["void", id, "--reason", "test"],
            ["sync", "--lab-store", "host=127.0.0.1 port=1 dbname=x connect_timeout=1", "--station", "bench-d"],
        ] {
            let r = try await BuiltBinary.run(command + ["--db", db])
            #expect(r.status == 65, "\(command): \(r.status) \(r.stderr)")
            #expect(r.stdout.isEmpty, "\(command) printed \(r.stdout.prefix(200))")
            #expect(r.stderr.contains("is damaged") && r.stderr.contains(".recover"), "\(command): \(r.stderr)")
            #expect(!r.stderr.contains("SELECT") && !r.stderr.contains("lab store"), "\(command): \(r.stderr)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == data, "nothing was written into the damaged file")
    }

    /// Issue 49, F12: a FIFO, a folder or a device given as the database is refused before
    /// SQLite opens it, saying what it is: `open` of a FIFO blocked for ever, deaf to
    /// SIGTERM, and a folder read as "damaged".
    @Test func aFIFOAFolderOrADeviceIsNoDatabase() async throws {
        let fifo = scratch.file("db.fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        let folder = scratch.file("db-folder")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        for (path, what) in [(fifo, "a FIFO (named pipe)"), (folder, "a folder"), ("/dev/null", "a device")] {
            for command in [
                ["sessions"], ["export", "--all"], ["void", "S-x", "--reason", "r"],
                ["run", "--model", "SM-S921B", "--reader", "sim", "--auto"],
            ] {
                let r = try await ChildProcess.run(
                    BuiltBinary.path, command + ["--db", path], environment: ProcessInfo.processInfo.environment, timeout: 20)
                #expect(r.status == 1, "\(command) \(path): \(r.status) \(r.stderr)")
                #expect(r.stderr.contains("it is \(what), not a session database"), "\(command) \(path): \(r.stderr)")
                #expect(!r.stderr.contains("damaged"), "\(r.stderr)")
            }
        }
    }

    /// An export to a file runs the integrity check beside the export, not before it: a
    /// damaged store is still refused (exit 65), and the file it was to replace keeps its
    /// old content, with no half-written copy left beside it.
    @Test func aDamagedStoreLeavesAnExportFileAsItWas() async throws {
        let db = scratch.database()
        try await simulatedSessions(db, count: 6)
        let folder = scratch.path + "/exports-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let target = folder + "/taps.csv"
        let sound = try await BuiltBinary.run(["export", "--all", "--db", db, "--output", target])
        #expect(sound.status == 0, "\(sound.stderr)")
        let before = try Data(contentsOf: URL(fileURLWithPath: target))
        #expect(String(decoding: before, as: UTF8.self).components(separatedBy: ",completed,").count > 20)
        var data = try Data(contentsOf: URL(fileURLWithPath: db))
        let pageSize = 4096
        let pages = data.count / pageSize
        for i in ((pages - 2) * pageSize)..<((pages - 1) * pageSize) { data[i] ^= 0xA5 }
        try data.write(to: URL(fileURLWithPath: db))
        let r = try await BuiltBinary.run(["export", "--all", "--db", db, "--output", target])
        #expect(r.status == 65, "\(r.status) \(r.stderr)")
        #expect(r.stderr.contains("is damaged") && r.stderr.contains(".recover"), "\(r.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["taps.csv"], "no half-written copy left")
    }

    /// The issue's case: one out-of-range value (a 5 m body) and one NaN tap used to make
    /// every reading command exit 65. Now each is one damaged session: listed with the
    /// reason, left out of exports, reports and refine with a count, still voidable.
    @Test func aDamagedRowIsOneSessionNeverTheWholeDatabase() async throws {
        let db = scratch.database()
        try await simulatedSessions(db, count: 3)
        let listed = try await BuiltBinary.run(["sessions", "--db", db, "--json"])
        let ids = listed.stdout.matches(of: /"sessionId" *: *"([^"]+)"/).map { String($0.1) }
        #expect(ids.count == 3, "\(listed.stdout)")
        let sqlite = try SQLiteDatabase(path: db)
        try sqlite.execute("UPDATE session SET body_height_mm = 5000 WHERE id = '\(ids[0])'")
        try sqlite.execute("UPDATE tap SET probe_x = 'NaN' WHERE session_id = '\(ids[1])' AND step = 2")

        // Issue 49, F14: each reader that leaves damaged sessions out exits 4 (partial), and
        // --allow-partial makes that 0 for a script that accepts it.
        let sessions = try await BuiltBinary.run(["sessions", "--db", db])
        #expect(sessions.status == 4, "\(sessions.stderr)")
        #expect(try await BuiltBinary.run(["sessions", "--db", db, "--allow-partial"]).status == 0)
        #expect(sessions.stdout.contains("\(ids[0])") && sessions.stdout.contains("DAMAGED: session.body_height_mm"))
        #expect(sessions.stdout.contains("DAMAGED: tap.probe_x"), "\(sessions.stdout)")
        #expect(sessions.stdout.components(separatedBy: "completed").count == 2, "one intact session listed as usual")

        let export = try await BuiltBinary.run(["export", "--all", "--db", db])
        #expect(export.status == 4 && export.stderr.contains("2 damaged session(s) left out of the export"), "\(export.stderr)")
        let allowed = try await BuiltBinary.run(["export", "--all", "--db", db, "--allow-partial"])
        #expect(allowed.status == 0 && allowed.stdout == export.stdout, "\(allowed.stderr)")
        #expect(!export.stdout.contains(ids[0]) && !export.stdout.contains(ids[1]) && export.stdout.contains(ids[2]))

        let refine = try await BuiltBinary.run(["refine", "--all", "--include-simulated", "--db", db])
        #expect(refine.status == 4 && refine.stderr.contains("left out of the evidence"), "\(refine.stderr)")
        let report = try await BuiltBinary.run([
            "report", "--all", "--include-simulated", "--format", "csv-sessions", "--db", db,
        ])
        #expect(report.status == 4 && report.stdout.contains(ids[2]) && !report.stdout.contains(ids[1]), "\(report.stderr)")

        // The one session asked for by id still says what is wrong with it.
        let shown = try await BuiltBinary.run(["show", ids[0], "--db", db])
        #expect(
            shown.status == 65 && shown.stderr.contains("body_height_mm") && shown.stderr.contains("Void it"), "\(shown.stderr)")
        let voided = try await BuiltBinary.run(["void", ids[0], "--reason", "a catalog typo", "--db", db])
        #expect(voided.status == 0 && voided.stdout.contains("is void"), "\(voided.stderr)")
        let after = try await BuiltBinary.run(["export", "--all", "--db", db])
        #expect(after.status == 4 && after.stderr.contains("1 damaged session(s)"), "void ones go unmentioned: \(after.stderr)")
    }
}
