import Foundation
import Glibc
import NFCStore
import NFCTestSupport
import Testing

/// What nfcbench creates is private, what holds a secret is checked, and a database
/// someone altered the schema of is never written.
@Suite("Files nfcbench creates and trusts")
struct FileSafetyCLITests {
    let scratch: TemporaryDirectory
    init() throws { scratch = try TemporaryDirectory("files") }

    func mode(_ path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_mode & 0o777) : -1
    }

    @Test func theDatabaseAndItsFolderArePrivateWhateverTheUmask() async throws {
        let db = scratch.file("data/nfcbench/bench.sqlite")
        let r = try await ChildProcess.run(
            "/bin/sh",
            [
                "-c", "umask 000 && exec \"$0\" \"$@\"", BuiltBinary.path, "run", "--model", "SM-S921B", "--reader", "sim",
                "--auto",
                "--plan", "grid", "--tap-timeout", "0.1", "--db", db, "--report", scratch.file("r.html"),
            ],
            environment: ProcessInfo.processInfo.environment)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(mode(db) == 0o600, "database \(String(mode(db), radix: 8))")
        #expect(mode(scratch.file("data/nfcbench")) == 0o700 && mode(scratch.file("data")) == 0o700)
        for journal in [db + "-wal", db + "-shm"] where FileManager.default.fileExists(atPath: journal) {
            #expect(mode(journal) == 0o600, "\(journal) \(String(mode(journal), radix: 8))")
        }
        // A report follows the user's umask (here 000: 0666).
        #expect(mode(scratch.file("r.html")) == 0o666)
    }

    @Test func doctorWarnsOfPasswordFilesOthersCanRead() async throws {
        let config = scratch.file("config")
        try FileManager.default.createDirectory(atPath: config + "/nfcbench", withIntermediateDirectories: true)
        let lab = config + "/nfcbench/lab.conf"
        try Data("station = bench-1\nlab-store = postgresql://bench1:hunter22@127.0.0.1:1/lab\n".utf8)
            .write(to: URL(fileURLWithPath: lab))
        chmod(lab, 0o644)
        let pgpass = scratch.file("pgpass")
        try Data("127.0.0.1:1:lab:bench1:hunter22\n".utf8).write(to: URL(fileURLWithPath: pgpass))
        chmod(pgpass, 0o640)
        let environment = ["XDG_CONFIG_HOME": config, "PGPASSFILE": pgpass, "NFCBENCH_LAB_TIMEOUT": "2"]
        let r = try await BuiltBinary.run(["doctor", "--json", "--db", scratch.database()], environment: environment)
        let checks = try #require(
            (try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])?["checks"] as? [[String: Any]],
            "\(r.stdout) \(r.stderr)")
        let secrets = try #require(checks.first { $0["id"] as? String == "lab-secrets" })
        #expect(secrets["verdict"] as? String == "WARN", "\(secrets)")
        let detail = secrets["detail"] as? String ?? ""
        #expect(detail.contains("lab.conf holds a password and is readable by others (mode 644)"), "\(detail)")
        #expect(detail.contains("pgpass is readable by others (mode 640)"), "\(detail)")
        #expect(!r.stdout.contains("hunter22"), "doctor printed the password")
        chmod(lab, 0o600)
        chmod(pgpass, 0o600)
        let fixed = try await BuiltBinary.run(["doctor", "--json", "--db", scratch.database()], environment: environment)
        #expect(fixed.stdout.contains("no password file readable by others"), "\(fixed.stdout)")
    }

    /// The planted trigger deleted other sessions' taps whenever `run` wrote: the
    /// readers refused the file, but `run` and `sync` wrote into it. Now they refuse too.
    @Test func aDatabaseWithAPlantedTriggerIsNeverWritten() async throws {
        let db = scratch.database()
        let first = try await BuiltBinary.run([
            "run", "--model", "SM-S921B", "--reader", "sim", "--auto", "--plan", "grid", "--tap-timeout", "0.1", "--db", db,
            "--no-report",
        ])
        #expect(first.status == 0, "\(first.stderr)")
        try SQLiteDatabase(path: db).execute(
            "CREATE TRIGGER wipe AFTER INSERT ON tap BEGIN DELETE FROM tap WHERE session_id <> NEW.session_id; END")
        func count() throws -> Int64 {
            let statement = try SQLiteDatabase(path: db).prepare("SELECT count(*) FROM tap")
            _ = try statement.step()
            return statement.int(0)
        }
        let taps = try count()
        for arguments in [
            [
                "run", "--model", "SM-S921B", "--reader", "sim", "--auto", "--plan", "grid", "--tap-timeout", "0.1", "--db", db,
                "--no-report",
            ],
            ["sync", "--db", db, "--lab-store", "host=127.0.0.1 port=1 dbname=x"],
        ] {
            let r = try await BuiltBinary.run(arguments)
            #expect(r.status != 0 && r.stderr.contains("trigger wipe differ"), "\(arguments[0]): \(r.status) \(r.stderr)")
        }
        #expect(try count() == taps)
    }
}
