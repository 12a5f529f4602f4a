import Foundation
import NFCLocatorCore
import NFCTestSupport
import Testing

/// `nfcbench report` and the report `run` writes, checked by the programs a lab opens
/// them with: an HTML5 parser, librsvg, headless Chromium and Firefox, and an XSD validator.
@Suite("Reports through the CLI")
struct ReportCLITests {
    let scratch: TemporaryDirectory
    init() throws { scratch = try TemporaryDirectory("report-cli") }

    static let hit = (r: 0x00, g: 0x72, b: 0xB2), miss = (r: 0xD5, g: 0x5E, b: 0x00)

    /// Two simulated sessions of the S24 (a grid and an adaptive one) in a fresh store.
    func store() async throws -> (db: String, ids: [String]) {
        let db = scratch.database()
        var ids: [String] = []
        for (plan, unit) in [("grid", "unit-1"), ("adaptive", "unit-2")] {
            let r = try await BuiltBinary.run([
                "run", "--model", "SM-S921B", "--reader", "sim", "--auto", "--tap-timeout", "0.1", "--plan", plan,
                "--unit", unit, "--sim-antenna", "0.1,0.5,0.8,0.3", "--db", db, "--json", "--no-report",
            ])
            #expect(r.status == 0, "\(r.stderr)")
            let o = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [String: Any]
            ids.append(o["sessionId"] as! String)
        }
        return (db, ids)
    }

    func tool(_ path: String, _ arguments: [String], timeout: TimeInterval = 120) async throws -> (Int32, String, String) {
        #expect(FileManager.default.isExecutableFile(atPath: path), "\(path) missing: scripts/test.sh installs it")
        return try await ChildProcess.run(path, arguments, environment: ProcessInfo.processInfo.environment, timeout: timeout)
    }

    /// The HTML parses without a single HTML5 parse error, and nothing in it points
    /// outside the file: no script, no stylesheet or image link, no `url()` but to its
    /// own patterns; the only `http` is the SVG namespace name.
    @Test func theHTMLIsValidAndSelfContained() async throws {
        let (db, _) = try await store()
        let file = scratch.file("all.html")
        let r = try await BuiltBinary.run(["report", "--all", "--include-simulated", "--db", db, "-o", file])
        #expect(r.status == 0 && r.stderr.contains("Report written to \(file)"), "\(r.stderr)")
        let (status, _, errors) = try await tool(
            "/usr/bin/python3",
            ["-c", "import html5lib, sys; html5lib.HTMLParser(strict=True).parse(open(sys.argv[1], 'rb'))", file])
        #expect(status == 0, "html5lib: \(errors)")
        let html = try String(contentsOfFile: file, encoding: .utf8)
        #expect(!html.contains("<script") && !html.contains("<link") && !html.contains("<img") && !html.contains("@import"))
        #expect(
            html.components(separatedBy: "http").count - 1 == html.components(separatedBy: "http://www.w3.org/2000/svg").count - 1
        )
        #expect(html.components(separatedBy: "url(").count == html.components(separatedBy: "url(#").count)
        #expect(!html.contains("src=") && !html.contains("var(--"))
        #expect(html.contains("<section class=\"overview\">") && html.contains("Model summary: Galaxy S24 (SM-S921B)"))
        #expect(html.components(separatedBy: "<section class=\"session\"").count == 3)
        // A model's report words its catalog entry for a record, in mm of the published body,
        // never by its wire names (issue 52: the PDF model summary printed zoneX...).
        let modelFile = scratch.file("model.html")
        let byModel = try await BuiltBinary.run([
            "report", "--model", "Galaxy S24", "--include-simulated", "--db", db, "-o", modelFile,
        ])
        #expect(byModel.status == 0, "\(byModel.stderr)")
        let modelPage = try String(contentsOfFile: modelFile, encoding: .utf8)
        #expect(modelPage.contains("Catalog entry as it stands") && modelPage.contains("(seed catalog)"))
        let zone = try #require(
            modelPage.range(of: "<dt>Zone</dt><dd>").map { modelPage[$0.upperBound...].prefix { $0 != "<" } })
        #expect(zone.contains("from the left edge") && zone.contains(" mm from the top edge"), "\(zone)")
        for wireName in ["zoneX", "zoneY", "zoneWidth", "zoneHeight", "tooFewSessions", "noReads", "seedCatalog"] {
            #expect(!modelPage.contains(wireName), "\(wireName) printed in the report")
        }
    }

    /// librsvg draws the session's SVG (`show --svg` writes the same) with the outline where the layout puts it and
    /// every hit and miss in its own colour at its position (within a pixel or two).
    @Test func theSessionSVGRendersInLibrsvgWithEveryMarkInPlace() async throws {
        let (db, ids) = try await store()
        let svg = scratch.file("s.svg"), png = scratch.file("s.png")
        let r = try await BuiltBinary.run(["report", "--session", ids[0], "--format", "svg", "--db", db, "-o", svg])
        #expect(r.status == 0, "\(r.stderr)")
        let (status, _, errors) = try await tool("/usr/bin/rsvg-convert", ["--zoom", "2", svg, "-o", png])
        try #require(status == 0, "rsvg-convert: \(errors)")
        let shown = scratch.file("shown.svg")
        let showSVG = try await BuiltBinary.run(["show", ids[0], "--svg", shown, "--db", db])
        #expect(
            showSVG.status == 0
                && (try? String(contentsOfFile: shown, encoding: .utf8)) == (try? String(contentsOfFile: svg, encoding: .utf8)))
        try await checkMarks(in: png, scale: 2, session: ids[0], db: db)
    }

    /// Firefox draws the same SVG the same way: outline and every mark in place.
    @Test func theSessionSVGRendersInFirefoxWithEveryMarkInPlace() async throws {
        let (db, ids) = try await store()
        let svg = scratch.file("f.svg"), png = scratch.file("f.png")
        let r = try await BuiltBinary.run(["report", "--session", ids[0], "--format", "svg", "--db", db, "-o", svg])
        #expect(r.status == 0, "\(r.stderr)")
        try FileManager.default.createDirectory(atPath: scratch.file("firefox"), withIntermediateDirectories: true)
        let (status, _, errors) = try await tool(
            "/usr/bin/firefox-esr",
            ["--headless", "--no-remote", "--profile", scratch.file("firefox"), "--screenshot", png, "file://" + svg])
        try #require(status == 0 && FileManager.default.fileExists(atPath: png), "firefox: \(errors.suffix(800))")
        try await checkMarks(in: png, scale: 1, session: ids[0], db: db)
    }

    /// Reads the pixels of a rendering of session `id`'s SVG at `scale`: the outline, the
    /// empty body, and each position's mark in its colour at its place.
    func checkMarks(in png: String, scale: Double, session id: String, db: String) async throws {
        let show = try await BuiltBinary.run(["show", id, "--json", "--db", db])
        let o = try JSONSerialization.jsonObject(with: Data(show.stdout.utf8)) as! [String: Any]
        let taps = o["tapList"] as! [[String: Any]]
        let layout = SVGSilhouetteRenderer().layout(SilhouetteDrawing(aspectRatio: 0.4803))
        func pixel(_ x: Double, _ y: Double) -> String { "\(Int((x * scale).rounded())),\(Int((y * scale).rounded()))" }
        var points: [String] = [
            pixel(layout.bodyX, layout.bodyY + layout.bodyHeight * 0.9),  // the outline's left edge
            pixel(layout.bodyX + layout.bodyWidth * 0.5, layout.bodyY + layout.bodyHeight * 0.05),  // inside, empty
        ]
        for tap in taps {
            let p = layout.point(x: tap["x"] as! Double, y: tap["y"] as! Double)
            points.append(pixel(p.x, p.y))
        }
        let (ok, out, err) = try await tool(
            "/usr/bin/python3", [Checkout.fixtures.appendingPathComponent("png_pixels.py").path, png, "at"] + points)
        try #require(ok == 0, "\(err)")
        let colours = out.split(separator: "\n").map { $0.split(separator: " ").map { Int($0)! } }
        func near(_ c: [Int], _ want: (r: Int, g: Int, b: Int)) -> Bool {
            abs(c[0] - want.r) < 40 && abs(c[1] - want.g) < 40 && abs(c[2] - want.b) < 40
        }
        #expect(colours[0][0] < 0x70 && colours[0][1] < 0x70 && colours[0][2] < 0x70, "outline: \(colours[0])")
        #expect(colours[1].prefix(3) == [255, 255, 255], "inside the body: \(colours[1])")
        for (tap, colour) in zip(taps, colours.dropFirst(2)) {
            let result = tap["result"] as! String
            #expect(near(colour, result == "HIT" ? Self.hit : Self.miss), "\(result) at \(tap): \(colour)")
        }
        #expect(taps.contains { $0["result"] as? String == "HIT" } && taps.contains { $0["result"] as? String == "MISS" })
    }

    /// Headless Chromium prints the report to PDF and screenshots it to PNG; both are
    /// produced, and the marks of the session are visible in the picture.
    @Test func theHTMLRendersInChromiumToPNGAndPDF() async throws {
        let (db, ids) = try await store()
        let html = scratch.file("one.html"), png = scratch.file("one.png"), pdf = scratch.file("one.pdf")
        let r = try await BuiltBinary.run(["report", "--session", ids[0], "--db", db, "-o", html])
        #expect(r.status == 0, "\(r.stderr)")
        let common = [
            "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--user-data-dir=" + scratch.file("chromium"),
            "--disable-dev-shm-usage", "--hide-scrollbars",
        ]
        let shot = try await tool(
            "/usr/bin/chromium", common + ["--window-size=1000,1400", "--screenshot=" + png, "file://" + html])
        #expect(shot.0 == 0, "chromium: \(shot.2.suffix(800))")
        // The whole store printed: the model summary and each session start a page.
        let all = scratch.file("all.html")
        let allReport = try await BuiltBinary.run(["report", "--all", "--include-simulated", "--db", db, "-o", all])
        #expect(allReport.status == 0, "\(allReport.stderr)")
        let printed = try await tool(
            "/usr/bin/chromium", common + ["--no-pdf-header-footer", "--print-to-pdf=" + pdf, "file://" + all])
        #expect(printed.0 == 0, "chromium: \(printed.2.suffix(800))")
        let pdfData = try Data(contentsOf: URL(fileURLWithPath: pdf))
        #expect(pdfData.count > 5_000 && pdfData.starts(with: Array("%PDF-".utf8)))
        let text = String(decoding: pdfData, as: UTF8.self)
        let pages = try NSRegularExpression(pattern: #"/Type\s*/Page(?!s)"#)
            .numberOfMatches(in: text, range: NSRange(text.startIndex..., in: text))
        #expect(pages >= 4, "overview, model summary and two sessions each start a page: \(pages) pages")
        let pixels = Checkout.fixtures.appendingPathComponent("png_pixels.py").path
        let hits = try await tool("/usr/bin/python3", [pixels, png, "count", "0072B2", "24"])
        let misses = try await tool("/usr/bin/python3", [pixels, png, "count", "D55E00", "24"])
        #expect((Int(hits.1.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0) > 50, "hit marks: \(hits.1) \(hits.2)")
        #expect((Int(misses.1.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0) > 20, "miss marks: \(misses.1)")
    }

    /// JUnit for every session validates against both schemas CI servers hold it to: the
    /// Ant shape (ours) and Jenkins' published `junit-10.xsd` (pytest's copy, MIT).
    @Test func junitValidatesAgainstTheSchemas() async throws {
        let (db, _) = try await store()
        let xml = scratch.file("r.xml")
        let r = try await BuiltBinary.run(["report", "--all", "--include-simulated", "--format", "junit", "--db", db, "-o", xml])
        #expect(r.status == 0, "\(r.stderr)")
        for schemaFile in ["junit/junit.xsd", "junit/junit-10.xsd"] {
            let schema = Checkout.fixtures.appendingPathComponent(schemaFile).path
            let (status, _, errors) = try await tool("/usr/bin/xmllint", ["--noout", "--schema", schema, xml])
            #expect(status == 0 && errors.contains("validates"), "\(schemaFile): \(errors)")
        }
        let text = try String(contentsOfFile: xml, encoding: .utf8)
        #expect(text.components(separatedBy: "<testsuite ").count == 3 && text.contains("[simulated]"))
    }

    /// `--model` and `--all` leave out void and simulated sessions unless asked;
    /// `--session` reports what it names.
    @Test func voidAndSimulatedSessionsFollowTheFlags() async throws {
        let (db, ids) = try await store()
        let voided = try await BuiltBinary.run(["void", ids[1], "--reason", "wrong phone", "--db", db])
        #expect(voided.status == 0, "\(voided.stderr)")
        func rows(_ extra: [String]) async throws -> [Substring] {
            let r = try await BuiltBinary.run(["report", "--format", "csv-sessions", "--db", db] + extra)
            #expect(r.status == 0, "\(r.stderr)")
            return r.stdout.split(separator: "\r\n").dropFirst().map { $0 }
        }
        #expect(try await rows(["--model", "SM-S921B"]).isEmpty)
        // An empty report is written, and said to be empty, with the flags that keep the rest.
        let xml = scratch.file("empty.xml")
        let empty = try await BuiltBinary.run(["report", "--model", "SM-S921B", "--format", "junit", "--db", db, "-o", xml])
        #expect(empty.status == 0 && FileManager.default.fileExists(atPath: xml), "\(empty.stderr)")
        #expect(
            empty.stderr.contains("Warning: the report holds no session.")
                && empty.stderr.contains("--include-simulated, --include-void"), "\(empty.stderr)")
        let full = try await BuiltBinary.run(["report", "--all", "--include-simulated", "--format", "junit", "--db", db])
        #expect(full.status == 0 && !full.stderr.contains("holds no session"), "\(full.stderr)")
        #expect(try await rows(["--model", "SM-S921B", "--include-simulated"]).count == 1)
        let both = try await rows(["--all", "--include-simulated", "--include-void"])
        #expect(both.count == 2 && both.contains { $0.contains(",true,true,wrong phone,") })
        #expect(try await rows(["--session", ids[1]]).count == 1)
        let usage = try await BuiltBinary.run(["report", "--all", "--format", "svg", "--db", db])
        #expect(usage.status == 64 && usage.stderr.contains("An SVG holds one drawing"), "\(usage.stderr)")
    }

    /// `run` ends with the session's report beside the database, or where `--report`
    /// says, and writes none with `--no-report`.
    @Test func runWritesTheReportUnlessToldNot() async throws {
        let db = scratch.database()
        let base = ["run", "--model", "SM-S921B", "--reader", "sim", "--auto", "--tap-timeout", "0.1", "--db", db, "--json"]
        let first = try await BuiltBinary.run(base)
        let id = try #require(
            (try JSONSerialization.jsonObject(with: Data(first.stdout.utf8)) as? [String: Any])?["sessionId"] as? String)
        let beside = URL(fileURLWithPath: db).deletingLastPathComponent().appendingPathComponent(id + ".html").path
        #expect(first.stderr.contains("Report: \(beside)") && FileManager.default.fileExists(atPath: beside), "\(first.stderr)")
        #expect(try String(contentsOfFile: beside, encoding: .utf8).contains("Session \(id)"))
        let chosen = scratch.file("chosen.html")
        let second = try await BuiltBinary.run(base + ["--report", chosen])
        #expect(second.status == 0 && FileManager.default.fileExists(atPath: chosen), "\(second.stderr)")
        let third = try await BuiltBinary.run(base + ["--no-report"])
        #expect(third.status == 0 && !third.stderr.contains("Report:"))
        let htmlFiles = try FileManager.default.contentsOfDirectory(
            atPath: URL(fileURLWithPath: db).deletingLastPathComponent().path
        )
        .filter { $0.hasSuffix(".html") }
        #expect(htmlFiles.count == 2, "\(htmlFiles)")
    }
}

/// `nfcbench template`: the life-size placement template.
@Suite("Placement template")
struct TemplateCLITests {
    let scratch: TemporaryDirectory
    init() throws { scratch = try TemporaryDirectory("template") }

    /// One user unit is one millimetre, the document's size is given in millimetres, the
    /// body is drawn at the catalog's published width and height, and librsvg renders it
    /// at that physical size (96 px per inch).
    @Test func printsLifeSize() async throws {
        let file = scratch.file("s24.svg"), png = scratch.file("s24.png")
        let r = try await BuiltBinary.run(["template", "--model", "galaxy s24", "-o", file])
        #expect(r.status == 0 && r.stderr.contains("body 70.6 × 147.0 mm"), "\(r.stderr)")
        let svg = try String(contentsOfFile: file, encoding: .utf8)
        func attribute(_ name: String, in text: String) -> String? {
            guard let range = text.range(of: " \(name)=\"") else { return nil }
            return String(text[range.upperBound...].prefix { $0 != "\"" })
        }
        let width = try #require(attribute("width", in: svg)), height = try #require(attribute("height", in: svg))
        #expect(width.hasSuffix("mm") && height.hasSuffix("mm"))
        let w = try #require(Double(width.dropLast(2))), h = try #require(Double(height.dropLast(2)))
        #expect(attribute("viewBox", in: svg) == "0 0 \(width.dropLast(2)) \(height.dropLast(2))")
        let bodyTag = try #require(svg.components(separatedBy: "\n").first { $0.contains("class=\"nfc-body\"") })
        #expect(attribute("width", in: bodyTag) == "70.6" && attribute("height", in: bodyTag) == "147")
        let (status, _, errors) = try await ChildProcess.run(
            "/usr/bin/rsvg-convert", [file, "-o", png], environment: ProcessInfo.processInfo.environment, timeout: 60)
        try #require(status == 0, "\(errors)")
        let size = try await ChildProcess.run(
            "/usr/bin/python3", [Checkout.fixtures.appendingPathComponent("png_pixels.py").path, png, "size"],
            environment: ProcessInfo.processInfo.environment)
        let pixels = size.stdout.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        // librsvg sizes the picture in whole pixels at 96 dpi, rounding a fraction up.
        let expected = [w / 25.4 * 96, h / 25.4 * 96]
        #expect(pixels.count == 2 && zip(pixels, expected).allSatisfy { abs(Double($0) - $1) <= 1 }, "\(size.stdout) \(expected)")
        #expect(svg.contains("class=\"nfc-planned\"") && svg.contains("50 mm") && svg.contains("top edge up"))
    }

    @Test func aModelWithoutABodySizeIsRefused() async throws {
        let r = try await BuiltBinary.run(["template", "--model", "NoSuchPhone-1", "-o", scratch.file("x.svg")])
        #expect(r.status == 1 && r.stderr.contains("a life-size template needs one"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.file("x.svg")))
    }

    /// Issue 52: the top-level help's line for `report` names every format `--format` takes
    /// (it left out PDF), as `report --help` lists them.
    @Test func theTopLevelHelpNamesEveryReportFormat() async throws {
        let help = try await BuiltBinary.run(["--help"])
        let line = try #require(
            help.stdout.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("report ") })
        for format in ["HTML", "PDF", "SVG", "JUnit", "CSV"] {
            #expect(line.contains(format), "\(line)")
        }
        let own = try await BuiltBinary.run(["report", "--help"])
        for choice in ["html", "pdf", "svg", "junit", "csv-sessions"] {
            #expect(own.stdout.contains(choice), "report --help: \(choice)")
        }
    }

    /// Issue 52: `show --json` gives the centre as the reports do (it gave null while the
    /// HTML and the session CSV gave the offset), from the same taps.
    @Test func showAndTheSessionCSVGiveOneCentre() async throws {
        let db = scratch.database()
        let run = try await BuiltBinary.run([
            "run", "--model", "SM-S921B", "--reader", "sim", "--auto", "--plan", "grid", "--tap-timeout", "0.1", "--db", db,
            "--no-report", "--json",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let id = try #require(try jsonObject(run.stdout)["sessionId"] as? String)
        let shown = try jsonObject(try await BuiltBinary.run(["show", id, "--db", db, "--json"]).stdout)
        let offset = try #require(shown["centreOffset"] as? Double, "\(shown)")
        #expect(shown["centreHit"] is Bool)
        #expect(try jsonObject(run.stdout)["centreOffset"] as? Double == offset)
        let csv = try await BuiltBinary.run([
            "report", "--session", id, "--format", "csv-sessions", "--db", db,
        ])
        let lines = csv.stdout.split(separator: "\r\n").map(Self.fields)
        let header = try #require(lines.first), row = try #require(lines.dropFirst().first)
        let column = try #require(header.firstIndex(of: "centre_offset"))
        let csvOffset = try #require(Double(row[column]), "\(row)")
        #expect(abs(csvOffset - offset) < 0.001, "CSV \(csvOffset), show \(offset)")
    }

    /// One CSV line's fields, quotes undone (RFC 4180; the line holds no line break).
    static func fields(_ line: Substring) -> [String] {
        var fields: [String] = [], field = "", quoted = false
        var rest = line[...]
        while let c = rest.popFirst() {
            if quoted && c == "\"" {
                if rest.first == "\"" { field.append(rest.removeFirst()) } else { quoted = false }
            } else if c == "\"" {
                quoted = true
            } else if c == "," && !quoted {
                fields.append(field)
                field = ""
            } else {
                field.append(c)
            }
        }
        return fields + [field]
    }
}
