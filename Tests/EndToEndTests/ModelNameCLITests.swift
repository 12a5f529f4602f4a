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

    /// Issue 52: the commands that select stored sessions take the same names as `run`. A
    /// name the seed knows selects its entry's sessions; a name only a catalog given at run
    /// time knew still finds the sessions that stored it.
    @Test func storedSessionsAreFoundByTheNameTheyWereRecordedWith() async throws {
        let db = scratch.database()
        let run = ["run", "--reader", "sim", "--auto", "--tap-timeout", "0.1", "--db", db, "--json", "--no-report"]
        let s24 = try await BuiltBinary.run(run + ["--model", "Galaxy S24"])
        let pixel = try await BuiltBinary.run(run + ["--model", "Pixel 8"])
        #expect(s24.status == 0 && pixel.status == 0, "\(s24.stderr) \(pixel.stderr)")
        let s24ID = try #require(try jsonObject(s24.stdout)["sessionId"] as? String)
        let pixelID = try #require(try jsonObject(pixel.stdout)["sessionId"] as? String)

        for typed in ["Galaxy S24", "samsung galaxy-s24", "SM-S921B"] {
            let listed = try await BuiltBinary.run(["sessions", "--model", typed, "--db", db, "--json"])
            #expect(listed.status == 0, "\(typed): \(listed.stderr)")
            #expect(listed.stdout.contains(s24ID) && !listed.stdout.contains(pixelID), "\(typed): \(listed.stdout)")
        }
        let named = try await BuiltBinary.run(["sessions", "--model", "Galaxy S24", "--db", db])
        #expect(named.stderr.contains("Model: Galaxy S24 (SM-S921B), matched by name"), "\(named.stderr)")
        let export = try await BuiltBinary.run(["export", "--model", "Galaxy S24", "--db", db])
        #expect(export.status == 0 && export.stdout.contains(s24ID) && !export.stdout.contains(pixelID), "\(export.stderr)")
        let report = try await BuiltBinary.run([
            "report", "--model", "Galaxy S24", "--format", "csv-sessions", "--include-simulated", "--db", db,
        ])
        #expect(report.status == 0 && report.stdout.contains(s24ID) && !report.stdout.contains(pixelID), "\(report.stderr)")
        let unknownName = try await BuiltBinary.run(["sessions", "--model", "Nokia 3310", "--db", db, "--json"])
        #expect(unknownName.status == 0 && !unknownName.stdout.contains("S-"), "\(unknownName.stdout)")

        // An entry only a catalog given at run time had: its name still finds the session.
        let catalogFile = scratch.file("lab-catalog.json")
        try """
        {"version": "lab-1", "entries": [{"modelIdentifier": "SM-X100A", "manufacturer": "Samsung",
         "displayName": "Galaxy Bench Phone", "formFactor": "phone", "aspectRatio": 0.48, "zoneX": 0.1, "zoneY": 0.3,
         "zoneWidth": 0.8, "zoneHeight": 0.4, "silhouetteTemplateId": "t"}]}
        """.write(toFile: catalogFile, atomically: true, encoding: .utf8)
        let lab = try await BuiltBinary.run(run + ["--model", "Galaxy Bench Phone", "--catalog", catalogFile])
        #expect(lab.status == 0, "\(lab.stderr)")
        let labID = try #require(try jsonObject(lab.stdout)["sessionId"] as? String)
        let found = try await BuiltBinary.run(["sessions", "--model", "galaxy bench phone", "--db", db, "--json"])
        #expect(found.stdout.contains(labID) && !found.stdout.contains(s24ID), "\(found.stdout)")
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
        // At a terminal the run asks; answering N records nothing and is no usage error.
        let asked = (base.filter { $0 != "--auto" }).map { "'\($0)'" }.joined(separator: " ")
        let declined = try await BuiltBinary.run(
            ["-c", "printf 'n\\n' | /usr/bin/script -qec \"\(BuiltBinary.path) \(asked)\" /dev/null"], binary: "/bin/sh")
        #expect(declined.stdout.contains("which the catalog does not know? [y/N]"), "\(declined.stdout)")
        #expect(declined.status == 1, "\(declined.stdout)")
        #expect(declined.stdout.contains("Nothing recorded") && !declined.stdout.contains("USAGE:"), "\(declined.stdout)")
        if FileManager.default.fileExists(atPath: db) {
            let listed = try await BuiltBinary.run(["sessions", "--db", db])
            #expect(listed.stdout.contains("No sessions"), "a declined run recorded: \(listed.stdout)")
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
