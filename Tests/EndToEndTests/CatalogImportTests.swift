import Foundation
import NFCLocatorCore
import NFCTestSupport
import Testing

/// The reference data: the committed gematik fixture (Tests/Fixtures/gematik, EUPL-1.2).
let gematikReference = Checkout.gematikPositions

@Suite("Third-party imports and catalog diff")
struct CatalogImportTests {
    let scratch: TemporaryDirectory
    init() throws { scratch = try TemporaryDirectory("import") }

    @Test func gematikReferenceImportsWithReasonsForTheDegenerateRows() async throws {
        let patch = scratch.url.appendingPathComponent("gematik.json")
        let r = try await BuiltBinary.run(["catalog", "import", "--format", "gematik", gematikReference.path, "-o", patch.path])
        #expect(r.status == 0, "\(r.stderr)")
        let rows = try JSONSerialization.jsonObject(with: Data(contentsOf: gematikReference)) as! [[String: Any]]
        let degenerate = rows.filter { row in
            let p = row["nfcPos"] as! [String: Double]
            return p["x0"]! >= p["x1"]! || p["y0"]! >= p["y1"]!
        }
        #expect(degenerate.count == 3)
        for row in degenerate {
            let line = try #require(
                r.stderr.split(separator: "\n").first { $0.contains("(\(row["marketingName"] as! String)): line ") })
            #expect(line.contains("degenerate rectangle"))
        }
        let listed = rows.filter { !degenerate.map { $0["marketingName"] as! String }.contains($0["marketingName"] as! String) }
            .flatMap { $0["modelNames"] as! [String] }.map(CatalogKey.normalize)
        let models = Set(listed)
        // A model listed again (in its own row or a later one) is skipped with the row it came from.
        let repeats = listed.count - models.count
        #expect(r.stderr.contains("imported \(models.count) model(s), skipped \(3 + repeats) row(s)"), "\(r.stderr)")
        let document = try CatalogDocumentDecoder.load(contentsOf: patch)
        let catalog = Catalog(document: document)
        #expect(catalog.skippedRows.isEmpty && catalog.profiles.count == models.count)
        #expect(catalog.profiles.allSatisfy { !$0.verified && $0.lastVerifiedAt == nil && $0.zone.area > 0 })
        #expect(document.entries.allSatisfy { $0.zoneProvenance?.hasPrefix("imported: gematik") == true })
        // A published ratio where the seed has one; inferred and said so elsewhere.
        let s24 = try #require(document.entries.first { $0.modelIdentifier == "SM-S921B" })
        #expect(s24.aspectRatio == 0.4803 && !(s24.zoneProvenance ?? "").contains("inferred"))
        // The patch serves resolve right away, laid over the seed.
        let resolved = try await BuiltBinary.run(["resolve", "--model", "SM-S921U1", "--catalog", patch.path, "--json"])
        let o = try JSONSerialization.jsonObject(with: Data(resolved.stdout.utf8)) as! [String: Any]
        #expect(o["source"] as? String == "remoteCatalog" && ((o["zone"] as? [String: Double])?["y"] ?? 1) < 0.1)
        let iphone =
            try JSONSerialization.jsonObject(
                with: Data(
                    try await BuiltBinary.run(
                        ["resolve", "--model", "iPhone15,2", "--catalog", patch.path, "--json"]).stdout.utf8)) as! [String: Any]
        #expect(iphone["source"] as? String == "seedCatalog")
    }

    @Test(arguments: [CatalogImport.AndroidOrigin.topLeft, .bottomLeft])
    func androidPointsMirrorToTheBackAndRoundTrip(origin: CatalogImport.AndroidOrigin) {
        let device = CatalogImport.AndroidAntennaInfo(
            model: "Pixel 8", manufacturer: "Google", deviceWidthMm: 70.8,
            deviceHeightMm: 150.5, foldable: false, antennas: [.init(xMm: 20, yMm: 40)])
        let back = CatalogImport.backView(device.antennas[0], device: device, origin: origin)
        // Facing the screen 20 mm from the left is 50.8 mm from the left seen from the back.
        #expect(abs(back.x - 50.8 / 70.8) < 1e-12)
        #expect(abs(back.y - (origin == .topLeft ? 40 : 110.5) / 150.5) < 1e-12)
        let again = CatalogImport.screenView(x: back.x, y: back.y, device: device, origin: origin)
        #expect(abs(again.xMm - 20) < 1e-9 && abs(again.yMm - 40) < 1e-9)
    }

    @Test func androidImportMakesAStatedSizeZone() async throws {
        let file = scratch.url.appendingPathComponent("aai.json")
        try Data(
            """
            {"devices":[{"model":"Pixel 8","manufacturer":"Google","deviceWidthMm":70.8,"deviceHeightMm":150.5,"foldable":false,
              "antennas":[{"xMm":35.4,"yMm":40}]},
             {"model":"Broken","manufacturer":"X","deviceWidthMm":70,"deviceHeightMm":150,"foldable":false,"antennas":[]}]}
            """.utf8
        ).write(to: file)
        let r = try await BuiltBinary.run([
            "catalog", "import", "--format", "android-antenna-info", file.path, "--point-size-mm", "15",
        ])
        #expect(r.status == 0 && r.stderr.contains("skipped row 2 (Broken): line 3: no antenna point"))
        let doc = try CatalogDocumentDecoder.decode(Data(r.stdout.utf8), origin: "import")
        let e = try #require(doc.entries.first)
        #expect(abs(e.zoneWidth - 15 / 70.8) < 1e-9 && abs(e.zoneHeight - 15 / 150.5) < 1e-9)
        #expect(abs((e.zoneX + e.zoneWidth / 2) - 0.5) < 1e-9 && abs((e.zoneY + e.zoneHeight / 2) - 40 / 150.5) < 1e-9)
        #expect(e.verified == nil && e.aspectRatio == 0.4704 && e.zoneProvenance?.contains("origin top-left") == true)
        let bad = try await BuiltBinary.run(["catalog", "import", "--format", "android-antenna-info", gematikReference.path])
        #expect(
            bad.status == 1
                && bad.stderr.contains(
                    "is not an android-antenna-info file (line 1, column 1: expected an object with \"devices\")")
        )
    }

    @Test func diffOnAKnownPair() async throws {
        let dir = scratch.url
        func write(_ name: String, _ zones: [(String, Double, Double, Double, Double)]) throws -> String {
            let entries = zones.map { z in
                "{\"modelIdentifier\":\"\(z.0)\",\"manufacturer\":\"m\",\"displayName\":\"d\",\"formFactor\":\"phone\",\"aspectRatio\":0.5,"
                    + "\"zoneX\":\(z.1),\"zoneY\":\(z.2),\"zoneWidth\":\(z.3),\"zoneHeight\":\(z.4),\"silhouetteTemplateId\":\"t\"}"
            }
            let url = dir.appendingPathComponent(name)
            try Data("{\"version\":\"\(name)\",\"entries\":[\(entries.joined(separator: ","))]}".utf8).write(to: url)
            return url.path
        }
        let a = try write("a.json", [("Same", 0.1, 0.1, 0.4, 0.4), ("Half", 0, 0, 0.5, 0.5), ("OnlyA", 0.1, 0.1, 0.1, 0.1)])
        let b = try write("b.json", [("Same", 0.1, 0.1, 0.4, 0.4), ("Half", 0.25, 0, 0.5, 0.5), ("OnlyB", 0.1, 0.1, 0.1, 0.1)])
        let r = try await BuiltBinary.run(["catalog", "diff", a, b, "--json"])
        let o = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [String: Any]
        let models = Dictionary(uniqueKeysWithValues: (o["models"] as! [[String: Any]]).map { ($0["key"] as! String, $0) })
        #expect(models["same"]?["iou"] as? Double == 1 && models["same"]?["centreShift"] as? Double == 0)
        #expect(models["half"]?["iou"] as? Double == 0.333 && models["half"]?["centreShift"] as? Double == 0.125)
        #expect(o["onlyInA"] as? [String] == ["onlya"] && o["onlyInB"] as? [String] == ["onlyb"])
    }

    /// Hostile rows are skipped with their row, line and reason; the rest imports, and
    /// the patch passes `catalog validate`.
    @Test func badRowsAreSkippedWithTheirLineAndTheRestImports() async throws {
        let file = scratch.url.appendingPathComponent("gematik-bad.json")
        let good =
            #"{"manufacturer":"Samsung","marketingName":"Galaxy S24","modelNames":["SM-S921B"],"nfcPos":{"x0":0.03,"y0":0.07,"x1":0.7,"y1":0.34}}"#
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let rows = [
            good,
            #"{"manufacturer":"X","marketingName":"Text zone","modelNames":["A1"],"nfcPos":{"x0":"a","y0":0,"x1":0.5,"y1":0.5}}"#,
            #"{"manufacturer":"X","marketingName":"Huge","modelNames":["A2"],"nfcPos":{"x0":0,"y0":0,"x1":1e309,"y1":0.5}}"#,
            #"{"manufacturer":"X","marketingName":"Empty model","modelNames":["  "],"nfcPos":{"x0":0,"y0":0,"x1":0.5,"y1":0.5}}"#,
            #"{"manufacturer":"Samsung","marketingName":"Galaxy S24 again","modelNames":["sm-s921b "],"nfcPos":{"x0":0,"y0":0,"x1":0.5,"y1":0.5}}"#,
            deep,
            #"{"manufacturer":"X","marketingName":"\u001b]0;pwned\u0007","modelNames":["A3"],"nfcPos":{"x0":0,"y0":0,"x1":0.5,"y1":0.5}}"#,
        ]
        try Data(("[\n" + rows.joined(separator: ",\n") + "\n]").utf8).write(to: file)
        let patch = scratch.url.appendingPathComponent("patch.json").path
        let r = try await BuiltBinary.run(["catalog", "import", "--format", "gematik", file.path, "-o", patch])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("skipped row 2 (?): line 3: field 'nfcPos.x0' is not a number"), "\(r.stderr)")
        #expect(r.stderr.contains("skipped row 3 (?): line 4: the number 1e309 is out of range"))
        #expect(r.stderr.contains("skipped row 4 (Empty model): line 5: an empty model name"))
        #expect(r.stderr.contains("model 'sm-s921b' was already imported from row 1"))
        #expect(r.stderr.contains("skipped row 6 (?): line 7: values nested 100000 levels deep (the limit is 512)"))
        #expect(!r.stderr.contains("\u{1b}"), "escape sequences are shown, not sent")
        #expect(r.stderr.contains("imported 2 model(s), skipped 5 row(s)"))
        let validated = try await BuiltBinary.run(["catalog", "validate", patch])
        #expect(validated.status == 0, "\(validated.stdout)")
        let syntax = scratch.url.appendingPathComponent("broken.json")
        try Data("[\n  {\"manufacturer\": \"X\",,\n]".utf8).write(to: syntax)
        let broken = try await BuiltBinary.run(["catalog", "import", "--format", "gematik", syntax.path])
        #expect(broken.status == 1 && broken.stderr.contains("line 2, column 24: expected a member name"), "\(broken.stderr)")
    }

    /// An Android point outside the device is an error in the data, not a corner zone.
    @Test func androidPointsOutsideTheDeviceAreSkippedNotClamped() async throws {
        let file = scratch.url.appendingPathComponent("aai-outside.json")
        try Data(
            """
            {"devices":[
              {"model":"Inside","manufacturer":"G","deviceWidthMm":70,"deviceHeightMm":150,"foldable":false,"antennas":[{"xMm":35,"yMm":40}]},
              {"model":"Outside","manufacturer":"G","deviceWidthMm":70,"deviceHeightMm":150,"foldable":false,"antennas":[{"xMm":-5,"yMm":400}]},
              {"model":"Giant","manufacturer":"G","deviceWidthMm":1e19,"deviceHeightMm":150,"foldable":false,"antennas":[{"xMm":1,"yMm":1}]}
            ]}
            """.utf8
        ).write(to: file)
        let r = try await BuiltBinary.run(["catalog", "import", "--format", "android-antenna-info", file.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("skipped row 2 (Outside): line 3: antenna point (-5.0, 400.0) mm lies outside"), "\(r.stderr)")
        #expect(r.stderr.contains("skipped row 3 (Giant): line 4: device size"))
        let doc = try CatalogDocumentDecoder.decode(Data(r.stdout.utf8), origin: "import")
        #expect(doc.entries.map(\.modelIdentifier) == ["Inside"])
    }

    /// Invalid JSON is located by line and column, in words, never as a Foundation dump.
    @Test func invalidCatalogJSONSaysWhere() async throws {
        let file = scratch.url.appendingPathComponent("broken-catalog.json")
        try Data("{\"version\": \"1\",\n \"entries\": [ {,] }".utf8).write(to: file)
        let r = try await BuiltBinary.run(["catalog", "validate", file.path])
        #expect(r.status == 2 && r.stderr.contains("line 2, column 16: expected a member name in double quotes"), "\(r.stderr)")
        #expect(!r.stderr.contains("NSCocoaErrorDomain") && !r.stderr.contains("Swift"))
        let shape = scratch.url.appendingPathComponent("shape.json")
        try Data("{\"version\": \"1\", \"entries\": {}}".utf8).write(to: shape)
        let wrong = try await BuiltBinary.run(["catalog", "validate", shape.path])
        #expect(wrong.stderr.contains("field 'entries' is not a list") && !wrong.stderr.contains("Array<"), "\(wrong.stderr)")
    }
}
