import Foundation
import NFCLabTestSupport
import NFCTestSupport
import Testing

/// `catalog publish --store`: the lab publishes from the lab store what no bench has alone.
/// A suite of its own, run in the publication pass (scripts/test.sh): the coil fits keep
/// both cores busy for seconds, which starved other suites' emulated readers.
@Suite(
    "Publishing from the lab store",
    .enabled(if: LabStoreServer.isAvailable, "needs the private PostgreSQL: run scripts/test.sh"))
struct LabStorePublishCLITests {
    let scratch = try! TemporaryDirectory()

    /// Two benches push; the lab publishes from the lab store what neither bench has alone
    /// (two units, two readers), and the version names the store without its password.
    @Test func theLabPublishesFromTheLabStore() async throws {
        let lab = try await LabFixture(stations: ["bench-p1", "bench-p2"])
        for (station, benches) in [
            ("bench-p1", [BenchEvidenceFixture.Bench(unit: "unit-A", antennaMm: 40)]),
            ("bench-p2", [BenchEvidenceFixture.Bench(unit: "unit-B", antennaMm: 20)]),
        ] {
            let db = scratch.file(station + ".sqlite")
            try await BenchEvidenceFixture.record(benches, into: db, idPrefix: station)
            let pushed = try await BuiltBinary.run([
                "sync", "--db", db, "--lab-store", lab.benches[station]!, "--station", station,
            ])
            #expect(pushed.status == 0, "\(pushed.stderr)")
        }
        let key = scratch.file("lab.key")
        #expect(try await BuiltBinary.run(["catalog", "keygen", "-o", key]).status == 0)
        let www = scratch.file("www")
        let published = try await BuiltBinary.run([
            "catalog", "publish", "--store", lab.reader, "--key", key, "--reviewer", "Ana", "-o", www, "--min-sessions", "2",
            "--json",
        ])
        #expect(published.status == 0, "\(published.stderr)")
        let outcome = try jsonObject(published.stdout)
        let changes = try #require(outcome["changes"] as? [[String: Any]])
        #expect(changes.count == 1 && changes[0]["sessions"] as? Int == 2 && changes[0]["units"] as? Int == 2, "\(outcome)")
        let document = try String(contentsOfFile: www + "/v1/catalog", encoding: .utf8)
        let password = try #require(lab.reader.components(separatedBy: "password=").last?.split(separator: " ").first)
        #expect(!document.contains(String(password)) && !published.stdout.contains(String(password)))
        #expect(document.contains("\"source\" : \""), "the store is named: \(document.prefix(400))")
    }

}
