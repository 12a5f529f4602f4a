import Foundation
import NFCBenchStoreSQLite
import NFCLabTestSupport
import NFCTestSupport
import Testing

/// Issue 49, F2 and F13 through the built binary: a password planted in a lab store's
/// connection string, written the ways a lab gets it wrong, reaches no output of any
/// command, given on the command line, in the environment or in lab.conf; a refused login
/// exits 1, and only an unreachable store exits 75 ("try again later").
@Suite("Lab store secrets and exit codes through the CLI")
struct SecretsCLITests {
    let scratch = try! TemporaryDirectory("secrets")

    static let forms = [
        "postgresql://u:SE@CRETPW@127.0.0.1:1/db",
        "dbname=postgresql://u:SECRETPW@[::1/db",
        "postgresql://u:SECR/ETPW@127.0.0.1:1/db",
        "host=127.0.0.1 port=1 user=u password='SECRETPW dbname=db",
    ]

    static func leaks(_ text: String) -> Bool {
        let password = Array("SECRETPW")
        return (0...(password.count - 4)).contains { text.contains(String(password[$0..<($0 + 4)])) }
    }

    /// Every surface that names the lab store: `sessions --store`, `sync` (text and JSON),
    /// `doctor` (text and JSON), each from the option, the environment and lab.conf.
    @Test(arguments: forms)
    func aPlantedPasswordReachesNoOutput(form: String) async throws {
        let db = scratch.database()
        _ = try await SQLiteBenchStore.open(path: db)  // sync and doctor reach the lab store only from a bench database
        let config = scratch.file("config-\(abs(form.hashValue))")
        try FileManager.default.createDirectory(atPath: config + "/nfcbench", withIntermediateDirectories: true)
        try "station = bench-s\nlab-store = \(form)\n".write(
            toFile: config + "/nfcbench/lab.conf", atomically: true, encoding: .utf8)
        let quick = ["NFCBENCH_LAB_TIMEOUT": "2", "PGCONNECT_TIMEOUT": "2"]
        let runs: [([String], [String: String])] = [
            (["sessions", "--store", form, "--db", db], quick),
            (["sessions", "--store", form, "--json"], quick),
            (["sync", "--db", db, "--lab-store", form, "--station", "bench-s"], quick),
            (["sync", "--db", db, "--lab-store", form, "--station", "bench-s", "--json"], quick),
            (["sync", "--db", db, "--station", "bench-s", "--json"], quick.merging(["NFCBENCH_LAB_STORE": form]) { $1 }),
            (["sync", "--db", db, "--json"], quick.merging(["XDG_CONFIG_HOME": config]) { $1 }),
            (["doctor", "--db", db, "--lab-store", form, "--station", "bench-s"], quick),
            (["doctor", "--db", db, "--lab-store", form, "--station", "bench-s", "--json"], quick),
            (["doctor", "--db", db, "--json"], quick.merging(["XDG_CONFIG_HOME": config]) { $1 }),
        ]
        for (arguments, environment) in runs {
            let r = try await BuiltBinary.run(arguments, environment: environment)
            #expect(!Self.leaks(r.stdout + r.stderr), "\(arguments) -> \(r.stdout)\(r.stderr)")
            #expect((r.stdout + r.stderr).contains("lab store"), "\(arguments) never reached the lab store: \(r.stderr)")
            #expect(r.status != 0 || arguments.first == "doctor", "\(arguments) exited 0")
        }
    }

    /// A wrong password on a live store is a refused login: exit 1 with what to check, not
    /// 75; a store that does not answer stays 75.
    @Test(.enabled(if: LabStoreServer.isAvailable, "needs the private PostgreSQL: run scripts/test.sh"))
    func aRefusedLoginExitsOneAndAnUnreachableStoreExits75() async throws {
        let lab = try await LabFixture(stations: ["bench-w"])
        let wrong = lab.benches["bench-w"]!.replacingOccurrences(
            of: #"password=\S+"#, with: "password=SECRETPW", options: .regularExpression)
        #expect(wrong.contains("password=SECRETPW"))
        let refused = try await BuiltBinary.run(["sessions", "--store", wrong])
        #expect(refused.status == 1, "\(refused.stderr)")
        #expect(refused.stderr.contains("refused the login") && refused.stderr.contains("~/.pgpass"), "\(refused.stderr)")
        #expect(!Self.leaks(refused.stdout + refused.stderr))
        let down = try await BuiltBinary.run(
            ["sessions", "--store", "host=127.0.0.1 port=1 dbname=db user=u password=SECRETPW"],
            environment: ["NFCBENCH_LAB_TIMEOUT": "2"])
        #expect(down.status == 75, "\(down.stderr)")
        #expect(!Self.leaks(down.stdout + down.stderr))
    }
}
