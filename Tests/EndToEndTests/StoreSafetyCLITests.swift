import Foundation
import Glibc
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
    /// as root (root writes anywhere), else the current user.
    func runAsReader(_ arguments: [String]) async throws -> BuiltBinary.Result {
        guard getuid() == 0 else { return try await BuiltBinary.run(arguments) }
        return try await BuiltBinary.run(["-u", "nobody", "--", BuiltBinary.path] + arguments, binary: "/usr/sbin/runuser")
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

    /// The study: damaged files exported with exit 0 and altered rows. Now the
    /// check refuses them, exit 65, with nothing on standard output.
    @Test func aDamagedStoreIsRefusedWithARecoveryHint() async throws {
        let db = scratch.database()
        try await simulatedSessions(db, count: 6)
        var data = try Data(contentsOf: URL(fileURLWithPath: db))
        let pageSize = 4096
        let pages = data.count / pageSize
        #expect(pages >= 4, "a store of \(data.count) bytes")
        for i in ((pages - 2) * pageSize)..<((pages - 1) * pageSize) { data[i] ^= 0xA5 }
        try data.write(to: URL(fileURLWithPath: db))
        for command in [["export", "--all"], ["refine", "--model", "SM-S921B", "--include-simulated"]] {
            let r = try await BuiltBinary.run(command + ["--db", db])
            #expect(r.status == 65, "\(command): \(r.status) \(r.stderr)")
            #expect(r.stdout.isEmpty, "\(command) printed \(r.stdout.prefix(200))")
            #expect(r.stderr.contains("is damaged") && r.stderr.contains(".recover"), "\(r.stderr)")
        }
    }
}
