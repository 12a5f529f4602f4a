import Foundation
import NFCBenchStoreSQLite
import NFCLabTestSupport
import NFCTestSupport
import Testing

/// Issue 49, F1 through the built binary: an over-long text is refused where it is typed
/// (exit 64), and a session the lab store refuses never blocks the others' sync.
@Suite("Stored text bounds and refused sessions through the CLI")
struct StoredTextCLITests {
    let scratch = try! TemporaryDirectory("bounds")

    @Test(arguments: ["--phone-build", "--phone-os", "--case", "--unit", "--operator"])
    func anOverLongTextIsAUsageError(option: String) async throws {
        let db = scratch.database()
        let r = try await BuiltBinary.run([
            "run", "--model", "SM-S921B", "--reader", "sim", "--auto", "--db", db, "--no-report", option,
            String(repeating: "x", count: 1001),
        ])
        #expect(r.status == 64, "\(option): \(r.stderr)")
        #expect(r.stderr.contains("1001 characters long; at most 1000"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: db), "nothing was recorded")
        let fits = try await BuiltBinary.run([
            "run", "--model", "SM-S921B", "--reader", "sim", "--auto", "--plan", "grid", "--tap-timeout", "0.1", "--db", db,
            "--no-report", option, String(repeating: "x", count: 1000), "--json",
        ])
        #expect(fits.status == 0, "\(fits.stderr)")
        let id = try #require(fits.stdout.firstMatch(of: /"sessionId" *: *"([^"]+)"/)?.1)
        let void = try await BuiltBinary.run(["void", String(id), "--db", db, "--reason", String(repeating: "y", count: 1001)])
        #expect(void.status == 64 && void.stderr.contains("at most 1000"), "\(void.stderr)")
    }

    @Test(.enabled(if: LabStoreServer.isAvailable, "needs the private PostgreSQL: run scripts/test.sh"))
    func syncPushesEverySessionTheLabTakesAndNamesTheOneItRefused() async throws {
        let lab = try await LabFixture(stations: ["bench-r"])
        let db = scratch.database()
        let local = try await SQLiteBenchStore.open(path: db)
        let refused = try await LabFixture.session(
            "S-20261206-090000-long", station: "bench-r", in: local, start: Date(timeIntervalSince1970: 1_790_000_000))
        try await local.setReaderDetails(refused.id, firmware: String?.none, serial: String(repeating: "9", count: 1500))
        let fine = try await LabFixture.session(
            "S-20261206-100000-fine", station: "bench-r", in: local, start: Date(timeIntervalSince1970: 1_790_000_100))
        let sync = ["sync", "--db", db, "--lab-store", lab.benches["bench-r"]!, "--station", "bench-r"]
        let r = try await BuiltBinary.run(sync)
        #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("Pushed 1 session"), "\(r.stdout)")
        #expect(r.stderr.contains("\(refused.id): ") && r.stderr.contains("reader_serial"), "\(r.stderr)")
        #expect(!r.stderr.contains("when the lab store is back"), "\(r.stderr)")
        let json = try await BuiltBinary.run(sync + ["--json"])
        #expect(json.status == 1 && json.stdout.contains("\"setAside\"") && json.stdout.contains(refused.id))
        let reader = try await BuiltBinary.run(["sessions", "--store", lab.reader, "--json"])
        #expect(reader.stdout.contains(fine.id) && !reader.stdout.contains(refused.id), "\(reader.stdout)")
        let doctor = try await BuiltBinary.run(
            ["doctor", "--db", db, "--lab-store", lab.benches["bench-r"]!, "--station", "bench-r", "--json"])
        #expect(doctor.stdout.contains("lab-refused") && doctor.stdout.contains(refused.id), "\(doctor.stdout)")

        // The lab will never take it: held back by decision, the sync succeeds and names it.
        let halfGiven = try await BuiltBinary.run(sync + ["--hold", refused.id])
        #expect(halfGiven.status == 64 && halfGiven.stderr.contains("--hold needs --reason"), "\(halfGiven.stderr)")
        let notRefused = try await BuiltBinary.run(sync + ["--hold", fine.id, "--reason", "tidy"])
        #expect(notRefused.status == 1 && notRefused.stderr.contains("not one this lab store refused"), "\(notRefused.stderr)")
        let held = try await BuiltBinary.run(sync + ["--hold", refused.id, "--reason", "serial garbled by the reader"])
        #expect(held.status == 0, "\(held.stdout)\(held.stderr)")
        #expect(
            held.stderr.contains("Held back from") && held.stderr.contains("\(refused.id) since")
                && held.stderr.contains("serial garbled by the reader") && held.stderr.contains("reader_serial"),
            "\(held.stderr)")
        let heldJSON = try await BuiltBinary.run(sync + ["--json"])
        #expect(heldJSON.status == 0 && heldJSON.stdout.contains("\"held\"") && heldJSON.stdout.contains(refused.id))
        let heldDoctor = try await BuiltBinary.run(
            ["doctor", "--db", db, "--lab-store", lab.benches["bench-r"]!, "--station", "bench-r", "--json"])
        #expect(heldDoctor.stdout.contains("lab-held") && !heldDoctor.stdout.contains("lab-refused"), "\(heldDoctor.stdout)")
        // Released, it is refused again and the sync fails again.
        let released = try await BuiltBinary.run(sync + ["--release", refused.id])
        #expect(released.status == 1 && released.stderr.contains("Released \(refused.id)"), "\(released.stderr)")
    }
}
