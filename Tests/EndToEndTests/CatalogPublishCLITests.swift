import Foundation
import NFCTestSupport
import Testing

/// `catalog keygen` and `catalog publish` through the binary: a signed catalog version from
/// bench evidence, checked by minisign itself (Debian's, a client nfcbench did not write).
@Suite("Publishing a signed catalog")
struct CatalogPublishCLITests {
    let scratch: TemporaryDirectory
    init() throws { scratch = try TemporaryDirectory("publish") }

    static let minisign = "/usr/bin/minisign"

    func json(_ text: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// Two units, two readers of 20 and 40 mm, two sessions each.
    static let lab = [
        BenchEvidenceFixture.Bench(unit: "unit-A", antennaMm: 20), BenchEvidenceFixture.Bench(unit: "unit-B", antennaMm: 40),
        BenchEvidenceFixture.Bench(unit: "unit-A", antennaMm: 40), BenchEvidenceFixture.Bench(unit: "unit-B", antennaMm: 20),
    ]

    /// The key's path, and what keygen printed.
    func keygen() async throws -> String { try await keygenPrinting().key }

    func keygenPrinting() async throws -> (key: String, printed: String) {
        let key = scratch.file("lab.key")
        let made = try await BuiltBinary.run(["catalog", "keygen", "-o", key])
        #expect(made.status == 0, "\(made.stderr)")
        return (key, made.stdout + made.stderr)
    }

    /// One session is enough where the coil's figures are not what is tested: one fit, not five.
    static let oneSession = ["--min-sessions", "1", "--min-units", "1"]

    @Test func keygenWritesASecretOnlyItsOwnerReadsAndNeverPrintsIt() async throws {
        let (key, printed) = try await keygenPrinting()
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: key)[.posixPermissions] as? Int)
        #expect(mode == 0o600)
        let secretLine = try String(contentsOfFile: key, encoding: .utf8).split(separator: "\n")[1]
        let again = try await BuiltBinary.run(["catalog", "keygen", "-o", key])
        #expect(again.status == 1 && again.stderr.contains("exists already"), "\(again.stderr)")
        #expect(try String(contentsOfFile: key, encoding: .utf8).contains(secretLine), "a key is never replaced")
        // minisign signs with the key nfcbench made (its format, unencrypted).
        try Data("some bytes\n".utf8).write(to: URL(fileURLWithPath: scratch.file("note.txt")))
        let signed = try await ChildProcess.run(
            Self.minisign, ["-S", "-s", key, "-m", scratch.file("note.txt")], environment: [:])
        #expect(signed.status == 0, "\(signed.stderr)")
        let verified = try await ChildProcess.run(
            Self.minisign, ["-V", "-p", key + ".pub", "-m", scratch.file("note.txt")], environment: [:])
        #expect(verified.status == 0, "\(verified.stderr)")
        // A secret others may read is refused, as ssh refuses one.
        chmod(key, 0o644)
        let exposed = try await BuiltBinary.run([
            "catalog", "publish", "--db", scratch.file("none.sqlite"), "--key", key, "--reviewer", "Ana", "-o",
            scratch.file("www"),
        ])
        #expect(exposed.status == 1 && exposed.stderr.contains("chmod 600"), "\(exposed.stderr)")
        for output in [printed, exposed.stdout + exposed.stderr, again.stdout + again.stderr] {
            #expect(!output.contains(secretLine))
        }
    }

    /// A key minisign itself made with a password (its default, scrypt at 1 GiB): opened
    /// with the password from the environment, refused without it or with a wrong one, and
    /// the password never printed.
    @Test func aMinisignKeyWithAPasswordOpensWithItsPasswordOnly() async throws {
        let (pub, secret) = (scratch.file("m.pub"), scratch.file("m.key"))
        let made = try await ChildProcess.run(
            "/bin/sh", ["-c", "printf 'bench-pass\\nbench-pass\\n' | \(Self.minisign) -G -p '\(pub)' -s '\(secret)'"],
            environment: [:])
        #expect(made.status == 0, "\(made.stderr)")
        #expect(try String(contentsOfFile: secret, encoding: .utf8).contains("encrypted secret key"))
        let db = scratch.file("bench.sqlite")
        try await BenchEvidenceFixture.record([Self.lab[0]], into: db)
        let www = scratch.file("www")
        let publish = ["catalog", "publish", "--db", db, "--key", secret, "-o", www, "--reviewer", "Ana"] + Self.oneSession
        let opened = try await BuiltBinary.run(publish, environment: ["NFCBENCH_CATALOG_KEY_PASSWORD": "bench-pass"])
        #expect(opened.status == 0, "\(opened.stderr)")
        // Signed with the opened key: minisign verifies it with the public half it made.
        let verified = try await ChildProcess.run(
            Self.minisign, ["-V", "-p", pub, "-m", www + "/v1/catalog", "-x", www + "/v1/catalog.minisig"], environment: [:])
        #expect(verified.status == 0, "\(verified.stdout)\(verified.stderr)")
        // No terminal, no password: refused, saying how to give one.
        let locked = try await BuiltBinary.run(publish)
        #expect(locked.status == 1 && locked.stderr.contains("is locked"), "\(locked.stderr)")
        #expect(locked.stderr.contains("NFCBENCH_CATALOG_KEY_PASSWORD"), "\(locked.stderr)")
        let wrong = try await BuiltBinary.run(publish, environment: ["NFCBENCH_CATALOG_KEY_PASSWORD": "bench-pasS"])
        #expect(wrong.status == 1 && wrong.stderr.contains("the password does not open it"), "\(wrong.stderr)")
        for output in [opened, locked, wrong].map({ $0.stdout + $0.stderr }) { #expect(!output.contains("bench-pas")) }
    }

    @Test func publishingNeedsAReviewerAndADryRunWritesNothing() async throws {
        let key = try await keygen()
        let db = scratch.file("bench.sqlite")
        try await BenchEvidenceFixture.record([Self.lab[0]], into: db)
        let www = scratch.file("www")
        let refused = try await BuiltBinary.run(["catalog", "publish", "--db", db, "--key", key, "-o", www])
        #expect(refused.status == 64 && refused.stderr.contains("--reviewer"), "\(refused.stderr)")
        let dry = try await BuiltBinary.run(
            ["catalog", "publish", "--db", db, "--key", key, "-o", www, "--dry-run"] + Self.oneSession)
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stdout.contains("Would publish catalog version 1") && dry.stdout.contains("sm_s921b"), "\(dry.stdout)")
        #expect(dry.stdout.contains("Dry run: nothing was written."))
        #expect(!FileManager.default.fileExists(atPath: www), "a dry run made \(www)")
    }

    @Test func publishesTheCoilFromBenchSessionsAndMinisignVerifiesIt() async throws {
        let key = try await keygen()
        let db = scratch.file("bench.sqlite")
        try await BenchEvidenceFixture.record(Self.lab, into: db)
        // The same evidence, simulated, for another model: never published.
        try await BenchEvidenceFixture.record(Self.lab, into: db, model: "Pixel 8", simulated: true, idPrefix: "S")
        // A fifth S24 session, voided: kept in the store, never evidence.
        let voided = try await BenchEvidenceFixture.record(
            [Self.lab[0]], into: db, idPrefix: "V", start: Date(timeIntervalSince1970: 1_795_000_000))
        let void = try await BuiltBinary.run(["void", voided[0], "--reason", "phone case left on", "--db", db])
        #expect(void.status == 0, "\(void.stderr)")
        let www = scratch.file("www")
        let published = try await BuiltBinary.run([
            "catalog", "publish", "--db", db, "--key", key, "--reviewer", "Dr. Ana Ruiz", "-o", www, "--json",
        ])
        #expect(published.status == 0, "\(published.stderr)")
        let outcome = try json(published.stdout)
        #expect(outcome["version"] as? Int == 1 && outcome["leftOutSimulated"] as? Int == 4, "\(outcome)")
        #expect(outcome["leftOutVoid"] as? Int == 1, "\(outcome)")
        let document = try json(String(contentsOfFile: www + "/v1/catalog", encoding: .utf8))
        #expect(document["catalogVersion"] as? Int == 1)
        let publication = try #require(document["publication"] as? [String: Any])
        #expect(publication["reviewer"] as? String == "Dr. Ana Ruiz" && publication["source"] as? String == db)
        let entries = try #require(document["entries"] as? [[String: Any]])
        let s24 = try #require(entries.first { $0["modelIdentifier"] as? String == "SM-S921B" })
        let pixel = try #require(entries.first { $0["modelIdentifier"] as? String == "Pixel 8" })
        #expect(s24["verified"] as? Bool == true)
        let provenance = try #require(s24["provenance"] as? [String: Any])
        #expect(provenance["method"] as? String == "bench-refined" && provenance["sessions"] as? Int == 4)
        #expect(provenance["units"] as? Int == 2 && (provenance["readerAntennas"] as? [Any])?.count == 2)
        let coil = try #require(provenance["coil"] as? [String: [String: Double]])
        let truth = BenchEvidenceFixture.coil
        for (name, value) in [
            ("centreXMm", truth.centreX), ("centreYMm", truth.centreY), ("widthMm", truth.widthMm), ("heightMm", truth.heightMm),
        ] {
            let figure = try #require(coil[name])
            #expect(abs(figure["value"]! - value) < (name.hasPrefix("centre") ? 2 : 3), "\(name): \(figure) against \(value)")
            #expect(figure["low"]! <= figure["value"]! && figure["value"]! <= figure["high"]!)
        }
        // The zone is the coil, in fractions of the published body.
        let zoneX = try #require(s24["zoneX"] as? Double), zoneWidth = try #require(s24["zoneWidth"] as? Double)
        #expect(abs((zoneX + zoneWidth / 2) * BenchEvidenceFixture.bodyWidth - truth.centreX) < 2)
        #expect(abs(zoneWidth * BenchEvidenceFixture.bodyWidth - truth.widthMm) < 3)
        #expect((pixel["provenance"] as? [String: Any])?["method"] as? String == "inferred", "simulated evidence published")
        #expect(pixel["verified"] as? Bool != true)
        // Minisign verifies the document, the kept version too, and nfcbench's own validation takes it.
        for file in [www + "/v1/catalog", www + "/v1/versions/1/catalog"] {
            let checked = try await ChildProcess.run(Self.minisign, ["-V", "-p", key + ".pub", "-m", file], environment: [:])
            #expect(checked.status == 0 && checked.stdout.contains("reviewer:Dr. Ana Ruiz"), "\(checked.stdout)\(checked.stderr)")
        }
        let valid = try await BuiltBinary.run(["catalog", "validate", www + "/v1/catalog"])
        #expect(valid.status == 0, "\(valid.stdout)\(valid.stderr)")
        // Nothing new: no new version.
        let again = try await BuiltBinary.run(["catalog", "publish", "--db", db, "--key", key, "--reviewer", "Ana", "-o", www])
        #expect(again.status == 0 && again.stdout.contains("Nothing to publish"), "\(again.stdout)")
        #expect(!FileManager.default.fileExists(atPath: www + "/v1/versions/2"))
    }

    /// The stability rule: a unit whose coil sits 15 mm lower than the other units' (a
    /// mislabelled phone) is named, session and axis, farthest from the pooled centre, and the
    /// entry is withheld, although the pooled fit alone would bound the coil.
    @Test func aSessionWhoseCoilLiesElsewhereWithholdsTheEntryAndIsNamed() async throws {
        let key = try await keygen()
        let db = scratch.file("bench.sqlite")
        let elsewhere = BenchEvidenceFixture.Bench(unit: "unit-C", antennaMm: 40, coilLowerByMm: 15)
        let ids = try await BenchEvidenceFixture.record(Array(Self.lab.prefix(2)) + [elsewhere], into: db)
        let publish = ["catalog", "publish", "--db", db, "--key", key, "-o", scratch.file("www"), "--dry-run", "--json"]
        let withheld = try json(try await BuiltBinary.run(publish + ["--min-sessions", "3"]).stdout)
        #expect(withheld["version"] as? Int == 1 && (withheld["changes"] as? [Any])?.isEmpty == true, "\(withheld)")
        let reasons = try #require((withheld["withheld"] as? [[String: Any]])?.first?["reasons"] as? [String])
        let named = reasons.filter { $0.contains("puts the coil's centre") }
        #expect(named.contains { $0.contains("session \(ids[2])") && $0.contains("along y") }, "\(reasons)")
        // The pooled centre lies between the units, so every unit may be named along y, but the
        // odd one out farthest; along x, where all the coils agree, none is.
        #expect(!named.contains { $0.contains("along x") }, "\(reasons)")
        func distance(_ id: String) -> Double {
            named.first { $0.contains("session \(id) ") }.flatMap {
                Double($0.split(separator: " ").drop { $0 != "centre" }.dropFirst().first ?? "")
            } ?? 0
        }
        #expect(distance(ids[2]) > 10 && distance(ids[2]) > 1.5 * max(distance(ids[0]), distance(ids[1])), "\(reasons)")
    }

    @Test func aFolderAnotherKeySignedOrSomeoneEditedIsNotBuiltUpon() async throws {
        let key = try await keygen()
        let db = scratch.file("bench.sqlite")
        try await BenchEvidenceFixture.record([Self.lab[0]], into: db)
        let www = scratch.file("www")
        let first = try await BuiltBinary.run(
            ["catalog", "publish", "--db", db, "--key", key, "--reviewer", "Ana", "-o", www] + Self.oneSession)
        #expect(first.status == 0, "\(first.stderr)")
        let other = scratch.file("other.key")
        #expect(try await BuiltBinary.run(["catalog", "keygen", "-o", other]).status == 0)
        try await BenchEvidenceFixture.record(
            [Self.lab[0]], into: db, idPrefix: "N", start: Date(timeIntervalSince1970: 1_800_000_000))
        let verified = try await BuiltBinary.run(["catalog", "verify", www + "/v1/catalog", "--catalog-key", key + ".pub"])
        #expect(
            verified.status == 0 && verified.stdout.contains("signature verified") && verified.stdout.contains("approved by Ana"))
        let wrongKey = try await BuiltBinary.run(["catalog", "verify", www + "/v1/catalog", "--catalog-key", other + ".pub"])
        #expect(wrongKey.status == 1 && wrongKey.stderr.contains("not by the trusted key"), "\(wrongKey.stderr)")
        let foreign = try await BuiltBinary.run(
            ["catalog", "publish", "--db", db, "--key", other, "--reviewer", "Ana", "-o", www] + Self.oneSession)
        #expect(foreign.status == 1 && foreign.stderr.contains("not by the trusted key"), "\(foreign.stderr)")
        var document = try String(contentsOfFile: www + "/v1/catalog", encoding: .utf8)
        document = document.replacingOccurrences(of: "Galaxy S24", with: "Galaxy S25")
        try document.write(toFile: www + "/v1/catalog", atomically: true, encoding: .utf8)
        let edited = try await BuiltBinary.run(
            ["catalog", "publish", "--db", db, "--key", key, "--reviewer", "Ana", "-o", www] + Self.oneSession)
        #expect(edited.status == 1 && edited.stderr.contains("does not match its bytes"), "\(edited.stderr)")
        let editedVerify = try await BuiltBinary.run(["catalog", "verify", www + "/v1/catalog", "--catalog-key", key + ".pub"])
        #expect(editedVerify.status == 1 && editedVerify.stderr.contains("does not match its bytes"))
        #expect(!FileManager.default.fileExists(atPath: www + "/v1/versions/2"))
    }

    /// The lab's own catalog: the seed's Galaxy S24 entry as the phone SM-T000042 only it
    /// knows, with `change` made to the row; its path.
    func ownCatalog(_ change: (inout [String: Any]) -> Void) throws -> String {
        var seed = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: Checkout.seedCatalog)) as? [String: Any])
        var row = try #require((seed["entries"] as? [[String: Any]])?.first { $0["modelIdentifier"] as? String == "SM-S921B" })
        row["modelIdentifier"] = "SM-T000042"
        change(&row)
        seed["entries"] = [row]
        let own = scratch.file("own.json")
        try JSONSerialization.data(withJSONObject: seed).write(to: URL(fileURLWithPath: own))
        return own
    }

    /// A first version starts from the seed, or from the lab's own catalog laid over it
    /// (`--catalog`): a phone only that catalog knows is published from it.
    @Test func aFirstVersionStartsFromTheLabsOwnCatalogWhenGiven() async throws {
        let key = try await keygen()
        let db = scratch.file("bench.sqlite")
        try await BenchEvidenceFixture.record([Self.lab[0]], into: db, model: "SM-T000042")
        let own = try ownCatalog { $0["displayName"] = "Lab test phone" }
        let www = scratch.file("www")
        let fromSeed = try await BuiltBinary.run(
            ["catalog", "publish", "--db", db, "--key", key, "-o", www, "--dry-run", "--json"] + Self.oneSession)
        #expect(fromSeed.status == 0, "\(fromSeed.stderr)")
        #expect((try json(fromSeed.stdout)["changes"] as? [Any])?.isEmpty == true, "the seed knows no SM-T000042")
        let fromOwn = try await BuiltBinary.run(
            ["catalog", "publish", "--db", db, "--key", key, "-o", www, "--dry-run", "--json", "--catalog", own]
                + Self.oneSession)
        let changes = try #require(try json(fromOwn.stdout)["changes"] as? [[String: Any]], "\(fromOwn.stderr)")
        #expect(changes.map { $0["displayName"] as? String } == ["Lab test phone"], "\(changes)")
    }

    /// A catalog whose `bodyWidthMm` (75) disagrees with its `aspectRatio` (0.4803 of 147 mm,
    /// 70.6): `refine` and `catalog publish` read the same taps at the same millimetres, so
    /// one session tells one coil (publish used to read them at 75 mm wide, 2 mm to the right).
    @Test func refineAndPublishTellOneCoilWhereTheCatalogsWidthDisagrees() async throws {
        let key = try await keygen()
        let db = scratch.file("bench.sqlite")
        try await BenchEvidenceFixture.record([Self.lab[0]], into: db, model: "SM-T000042")
        let own = try ownCatalog { $0["bodyWidthMm"] = 75.0 }
        let published = try await BuiltBinary.run(
            ["catalog", "publish", "--db", db, "--key", key, "-o", scratch.file("www"), "--dry-run", "--json", "--catalog", own]
                + Self.oneSession)
        #expect(published.status == 0, "\(published.stderr)")
        let change = try #require((try json(published.stdout)["changes"] as? [[String: Any]])?.first, "\(published.stdout)")
        let refined = try await BuiltBinary.run(
            ["refine", "--model", "SM-T000042", "--db", db, "--catalog", own, "--json", "-o", scratch.file("patch.json")])
        #expect(refined.status == 0, "\(refined.stderr)")
        let entry = try #require((try json(refined.stdout)["entries"] as? [[String: Any]])?.first, "\(refined.stdout)")
        func centre(_ o: [String: Any]?, _ axis: String) -> Double? {
            ((o?["coil"] as? [String: Any])?[axis] as? [String: Any])?["value"] as? Double
        }
        for axis in ["centreXMm", "centreYMm"] {
            let p = try #require(centre(change, axis)), r = try #require(centre(entry, axis), "\(entry)")
            #expect(abs(p - r) < 0.11, "\(axis): publish \(p), refine \(r)")
        }
        #expect(abs((centre(change, "centreXMm") ?? 0) - BenchEvidenceFixture.coil.centreX) < 2)
    }
}
