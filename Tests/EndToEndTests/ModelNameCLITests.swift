import Foundation
import NFCTestSupport
import Testing

/// `--model` takes the names people use, through the commands that take it.
@Suite("Model names through the CLI")
struct ModelNameCLITests {
    let scratch: TemporaryDirectory
    init() throws { scratch = try TemporaryDirectory("names") }

    /// A session typed as "galaxy s24" is stored under the S24's identifier and key, so
    /// refine and reports find it with the others; the run says which entry and why.
    @Test func aMarketingNameRecordsUnderTheIdentifier() async throws {
        let db = scratch.database()
        let r = try await BuiltBinary.run([
            "run", "--model", " galaxy s24 ", "--reader", "sim", "--auto", "--tap-timeout", "0.1", "--db", db, "--json",
            "--no-report",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("Catalog entry: Galaxy S24 (SM-S921B), matched by name 'galaxy s24'"), "\(r.stderr)")
        let o = try jsonObject(r.stdout)
        #expect(o["model"] as? String == "SM-S921B" && o["lookupKey"] as? String == "sm_s921b")
        for command in [["plan", "--model", "pixel8"], ["resolve", "--model", "Samsung Galaxy S24"]] {
            let out = try await BuiltBinary.run(command)
            #expect(out.status == 0 && out.stderr.contains("Catalog entry: "), "\(command): \(out.stderr)")
        }
        let refine = try await BuiltBinary.run(["refine", "--model", "Galaxy S24", "--include-simulated", "--db", db])
        #expect(refine.status == 0 && refine.stderr.contains("matched by name"), "\(refine.stdout) \(refine.stderr)")
    }

    /// A model the catalog does not know: a script must say `--allow-unknown`; the
    /// message suggests the closest entries.
    @Test func anUnknownModelNeedsConfirmation() async throws {
        let db = scratch.database()
        let base = [
            "run", "--model", "Galxy S24", "--reader", "sim", "--auto", "--tap-timeout", "0.1", "--db", db, "--no-report",
        ]
        let refused = try await BuiltBinary.run(base)
        #expect(refused.status == 64 && refused.stderr.contains("--allow-unknown"), "\(refused.stderr)")
        #expect(refused.stderr.contains("Did you mean Galaxy S24 (SM-S921B)"))
        if FileManager.default.fileExists(atPath: db) {
            let listed = try await BuiltBinary.run(["sessions", "--db", db])
            #expect(listed.stdout.contains("No sessions"), "a refused run recorded: \(listed.stdout)")
        }
        let allowed = try await BuiltBinary.run(base + ["--allow-unknown", "--json"])
        #expect(allowed.status == 0, "\(allowed.stderr)")
        #expect(try jsonObject(allowed.stdout)["source"] as? String == "heuristic")
    }

    /// A name two entries share is a usage error listing both.
    @Test func aSharedNameIsAUsageErrorListingTheEntries() async throws {
        let catalogFile = scratch.file("catalog.json")
        let rows = [("SM-X100A", "Galaxy Test"), ("SM-Y200B", "Galaxy Test (folded)")].map { id, name in
            """
            {"modelIdentifier": "\(id)", "manufacturer": "Samsung", "displayName": "\(name)", "formFactor": "phone",
             "aspectRatio": 0.48, "zoneX": 0.1, "zoneY": 0.3, "zoneWidth": 0.8, "zoneHeight": 0.4, "silhouetteTemplateId": "t"}
            """
        }
        try "{\"version\": \"t\", \"entries\": [\(rows.joined(separator: ","))]}".write(
            toFile: catalogFile, atomically: true, encoding: .utf8)
        let r = try await BuiltBinary.run(["resolve", "--model", "galaxy test", "--catalog", catalogFile])
        #expect(r.status == 64 && r.stderr.contains("names 2 catalog entries") && r.stderr.contains("SM-Y200B"), "\(r.stderr)")
        let search = try await BuiltBinary.run(["catalog", "search", "galaxy-test", "--catalog", catalogFile])
        #expect(search.status == 0 && search.stdout.contains("SM-X100A") && search.stdout.contains("Galaxy Test (folded)"))
    }
}
