import Foundation
import NFCTestSupport
import Testing

@Suite("nfcbench resolve, through the built binary")
struct ResolveEndToEndTests {
    func object(_ text: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(text.utf8)) as! [String: Any]
    }

    /// A catalog's names and the operator's own input are shown, never run by the
    /// terminal: clear-screen, window-title and C1 sequences come out in caret notation.
    @Test func escapeSequencesInNamesAreShownNotActedOn() async throws {
        let scratch = try TemporaryDirectory("escapes")
        let hostile = "Evil\u{1B}[2J\u{1B}]0;pwned\u{07}\u{9B}31mPhone"
        let entry: [String: Any] = [
            "modelIdentifier": "EVIL-1", "manufacturer": "m", "displayName": hostile, "formFactor": "phone",
            "aspectRatio": 0.5, "zoneX": 0.1, "zoneY": 0.1, "zoneWidth": 0.4, "zoneHeight": 0.4,
            "silhouetteTemplateId": "t",
        ]
        let catalog = scratch.file("evil.json")
        try JSONSerialization.data(withJSONObject: ["version": "evil", "entries": [entry]]).write(
            to: URL(fileURLWithPath: catalog))
        let r = try await BuiltBinary.run(["resolve", "--model", "EVIL-1", "--catalog", catalog])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!r.stdout.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" || $0 == "\u{9B}" }, "\(r.stdout)")
        #expect(r.stdout.contains("Evil^[[2J^[]0;pwned^G^[[31mPhone"), "\(r.stdout)")
        let typed = try await BuiltBinary.run(["resolve", "--model", "X\u{1B}[2J"])
        #expect(!typed.stdout.contains("\u{1B}") && !typed.stderr.contains("\u{1B}"))
        // JSON keeps the value exactly, escaped as JSON does.
        let json = try object(try await BuiltBinary.run(["resolve", "--model", "EVIL-1", "--catalog", catalog, "--json"]).stdout)
        #expect(json["displayName"] as? String == hostile)
    }

    @Test func resolveJSONForARegionalVariant() async throws {
        let r = try await BuiltBinary.run(
            ["resolve", "--model", "SM-S921U1", "--json"],
            currentDirectory: FileManager.default.temporaryDirectory)
        #expect(r.status == 0, "\(r.stderr)")
        let o = try object(r.stdout)
        #expect(o["input"] as? String == "SM-S921U1")
        #expect(o["lookupKey"] as? String == "sm_s921u1")
        #expect(o["matchedKey"] as? String == "sm_s921b")
        #expect(o["matchedBy"] as? String == "family")
        #expect(o["source"] as? String == "seedCatalog")
        #expect(o["confidence"] as? String == "approximate")
        #expect(o["stale"] as? Bool == true)
        #expect(o["displayName"] as? String == "Galaxy S24")
        #expect(o["aspectRatio"] as? Double == 0.4803)
        let zone = o["zone"] as! [String: Double]
        #expect(zone == ["x": 0.1, "y": 0.36, "width": 0.8, "height": 0.38])
    }

    @Test func verifiedEntryIsExactAndFresh() async throws {
        let o = try object(await BuiltBinary.run(["resolve", "--model", "iPhone15,2", "--json"]).stdout)
        #expect(o["confidence"] as? String == "exact" && o["stale"] as? Bool == false)
        #expect(o["matchedBy"] as? String == "exact" && o["lookupKey"] as? String == "iphone15_2")
    }

    @Test func unknownModelGetsHeuristicAndExit0() async throws {
        let r = try await BuiltBinary.run(["resolve", "--model", "Nokia 3310", "--json"])
        #expect(r.status == 0)
        let o = try object(r.stdout)
        #expect(o["source"] as? String == "heuristic" && o["confidence"] as? String == "unknown")
        #expect(o["matchedBy"] as? String == "none")
        #expect(o["zone"] is NSNull && o["matchedKey"] is NSNull)
        let flip = try object(
            await BuiltBinary.run([
                "resolve", "--model", "Nokia 3310", "--form-factor", "foldFlip",
                "--fold-state", "unfolded", "--json",
            ]).stdout)
        #expect(flip["confidence"] as? String == "generic")
        #expect((flip["sweepRegion"] as! [String: Double])["y"]! > 0.5)
    }

    @Test func usageErrorExits64() async throws {
        let r = try await BuiltBinary.run(["resolve", "--modle", "x"])
        #expect(r.status == 64 && r.stdout.isEmpty)
        #expect(r.stderr.contains("Did you mean '--model'?"))
    }

    @Test func versionAndHelp() async throws {
        // The release, then the commit this checkout is at (built from it, as the test
        // run just did) and the build date: what a filed report needs to name the build.
        let version = try await BuiltBinary.run(["--version"]).stdout
        let head = try await ChildProcess.run(
            "/usr/bin/git", ["-C", Checkout.root.path, "rev-parse", "--short=12", "HEAD"],
            environment: ProcessInfo.processInfo.environment, timeout: 30)
        let commit = head.0 == 0 ? head.1.trimmingCharacters(in: .whitespacesAndNewlines) : "unknown"
        let day = try #require(version.split(separator: "built ").last?.prefix(10))
        #expect(version.hasPrefix("0.1.0 (commit \(commit)") && version.hasSuffix(", built \(day))\n"), "\(version)")
        #expect(day.count == 10 && (try? Date(String(day) + "T00:00:00Z", strategy: .iso8601)) != nil, "\(version)")
        let help = try await BuiltBinary.run(["resolve", "--help"])
        #expect(help.status == 0 && help.stdout.contains("USAGE: nfcbench resolve"))
    }

    @Test func resourcesFoundThroughASymlinkFromAnotherDirectory() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("nfcbench-link-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let link = dir.appendingPathComponent("nfcbench")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: BuiltBinary.path)
        let r = try await BuiltBinary.run(["resolve", "-m", "Pixel 8", "--json"], currentDirectory: dir, binary: link.path)
        #expect(try object(r.stdout)["source"] as? String == "seedCatalog", "\(r.stderr)")
    }

    /// Issue 49, F8: a catalog from a device or a pipe has no size to ask for; the bound
    /// counts the bytes read, so `/dev/zero` and `/dev/urandom` are refused at 64 MiB
    /// (before, they read 2.1 GB until "Bad address").
    @Test(arguments: [
        ["resolve", "--model", "SM-S921B", "--catalog", "/dev/zero"], ["catalog", "validate", "/dev/urandom"],
        ["catalog", "list", "--catalog", "/dev/zero"], ["refine", "--all", "--catalog", "/dev/zero", "-o", "/dev/null"],
    ])
    func aCatalogFromADeviceIsBoundedByTheBytesRead(arguments: [String]) async throws {
        let r = try await BuiltBinary.run(arguments)
        // resolve and list fall back to the seed catalog with a warning, as for any bad --catalog.
        #expect(r.status != 0 || ["resolve", "list"].contains(arguments[arguments[0] == "catalog" ? 1 : 0]), "\(arguments)")
        #expect(r.stderr.contains("larger than 64 MiB"), "\(arguments): \(r.stderr)")
    }
}
