import Foundation
import NFCTestSupport
import Testing

/// `report --format pdf`: the record a lab files, printed by headless Chromium and read
/// back by poppler (`pdfinfo`, `pdftotext`) and checked by `qpdf`, tools nfcbench did not write.
@Suite("The PDF report")
struct PDFReportTests {
    let scratch: TemporaryDirectory
    init() throws { scratch = try TemporaryDirectory("report-pdf") }

    /// One finished grid session of the S24 by a named operator.
    func session() async throws -> (db: String, id: String) {
        let db = scratch.database()
        let r = try await BuiltBinary.run([
            "run", "--model", "SM-S921B", "--reader", "sim", "--auto", "--tap-timeout", "0.1", "--plan", "grid",
            "--unit", "unit-7", "--operator", "A. Technician", "--sim-antenna", "0.1,0.5,0.8,0.3", "--db", db, "--json",
            "--no-report",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let o = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [String: Any]
        return (db, o["sessionId"] as! String)
    }

    func tool(_ name: String, _ arguments: [String]) async throws -> (status: Int32, out: String, err: String) {
        let path = "/usr/bin/" + name
        #expect(FileManager.default.isExecutableFile(atPath: path), "\(path) missing: scripts/test.sh installs it")
        let r = try await ChildProcess.run(path, arguments, environment: [:], timeout: 60)
        return (r.status, r.stdout, r.stderr)
    }

    func pages(_ pdf: String) async throws -> (count: Int, size: String) {
        let info = try await tool("pdfinfo", [pdf])
        #expect(info.status == 0, "pdfinfo: \(info.err)")
        func field(_ name: String) -> String {
            info.out.split(separator: "\n").first { $0.hasPrefix(name + ":") }
                .map { $0.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces) } ?? ""
        }
        return (Int(field("Pages")) ?? 0, field("Page size"))
    }

    /// Page 1 holds the summary, the drawing and the verdict, in the lab's local time; the
    /// criteria and the sign-off with both names follow; nothing is wasted: at most three
    /// A4 pages for an 18-position grid with its timeline, and the file is sound.
    @Test func aSessionPrintsAsAFileableRecord() async throws {
        let (db, id) = try await session()
        let pdf = scratch.file("session.pdf")
        let r = try await BuiltBinary.run(
            ["report", "--session", id, "--format", "pdf", "--reviewer", "R. Reviewer", "--db", db, "-o", pdf],
            environment: ["TZ": "Europe/Berlin"])
        #expect(r.status == 0 && r.stderr.contains("Report written to \(pdf)"), "\(r.stderr)")
        let (count, size) = try await pages(pdf)
        #expect(count >= 2 && count <= 3, "\(count) pages")
        #expect(size.hasSuffix("(A4)"), "\(size)")
        let check = try await tool("qpdf", ["--check", pdf])
        #expect(check.status == 0 && check.out.contains("No syntax or stream encoding errors"), "\(check.out) \(check.err)")

        let first = try await tool("pdftotext", ["-f", "1", "-l", "1", "-layout", pdf, "-"]).out
        for expected in ["Session \(id): Galaxy S24", "Verdict:", "back of the phone, top edge up", "Started", "unit-7"] {
            #expect(first.contains(expected), "page 1 lacks \(expected):\n\(first)")
        }
        // Local time with its offset, in December: Berlin is UTC+1.
        #expect(first.range(of: #"2\d{3}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} \+01:00"#, options: .regularExpression) != nil, "\(first)")
        let last = try await tool("pdftotext", ["-f", String(count), "-l", String(count), "-layout", pdf, "-"]).out
        for expected in ["Sign-off", "A. Technician", "R. Reviewer", "signature", "Europe/Berlin, UTC+01:00"] {
            #expect(last.contains(expected), "the last page lacks \(expected):\n\(last)")
        }
        let all = try await tool("pdftotext", ["-layout", pdf, "-"]).out
        #expect(all.contains("How the verdict was reached") && all.contains("CONFIRMED needs all of"))
        #expect(all.contains("commit "), "the build that wrote it is named")
    }

    /// Issue 52: the PDF of a session with height layers holds every layer's map, as the
    /// HTML does (a print row that did not wrap left all but the first two off the page,
    /// and shrank the rest of the record to fit).
    @Test func aLayeredSessionPrintsEveryMap() async throws {
        let db = scratch.database()
        let ran = try await BuiltBinary.run([
            "run", "--model", "SM-S921B", "--reader", "sim", "--positioner", "sim", "--auto", "--tap-timeout", "0.1",
            "--plan", "raster", "--step-mm", "14", "--heights", "0,5,10,15", "--db", db, "--json", "--no-report",
        ])
        #expect(ran.status == 0, "\(ran.stderr)")
        let id = try #require(
            (try JSONSerialization.jsonObject(with: Data(ran.stdout.utf8)) as? [String: Any])?["sessionId"] as? String)
        let pdf = scratch.file("layers.pdf")
        let r = try await BuiltBinary.run(
            ["report", "--session", id, "--include-simulated", "--format", "pdf", "--db", db, "-o", pdf])
        #expect(r.status == 0, "\(r.stderr)")
        let all = try await tool("pdftotext", ["-layout", pdf, "-"]).out
        for height in ["0.0", "5.0", "10.0", "15.0"] {
            #expect(all.contains("Taps \(height) mm above the back."), "the PDF lacks the \(height) mm map")
        }
        #expect(all.contains("Greatest height read at each position"))
    }

    @Test func letterPaperOnRequest() async throws {
        let (db, id) = try await session()
        let pdf = scratch.file("letter.pdf")
        let r = try await BuiltBinary.run(
            ["report", "--session", id, "--format", "pdf", "--paper", "letter", "--db", db, "-o", pdf])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try await pages(pdf).size.hasSuffix("(letter)"))
    }

    /// Without Chromium the command says what to install, before touching the store, and
    /// writes nothing; `--paper` without PDF is a usage error.
    @Test func noPrinterNoFileAndTheFixSaid() async throws {
        let (db, id) = try await session()
        let pdf = scratch.file("none.pdf")
        let missing = try await BuiltBinary.run(
            ["report", "--session", id, "--format", "pdf", "--db", db, "-o", pdf],
            environment: ["NFCBENCH_CHROMIUM": scratch.file("no-such-chromium")])
        #expect(missing.status == 1 && missing.stderr.contains("is not an executable file"), "\(missing.stderr)")
        let none = try await BuiltBinary.run(
            ["report", "--session", id, "--format", "pdf", "--db", db, "-o", pdf], environment: ["PATH": scratch.path])
        #expect(none.status == 1 && none.stderr.contains("apt-get install chromium"), "\(none.stderr)")
        #expect(!FileManager.default.fileExists(atPath: pdf))
        let paper = try await BuiltBinary.run(["report", "--session", id, "--paper", "a4", "--db", db])
        #expect(paper.status == 64 && paper.stderr.contains("--paper applies to --format pdf only"), "\(paper.stderr)")
        let reviewer = try await BuiltBinary.run(["report", "--session", id, "--format", "junit", "--reviewer", "R", "--db", db])
        #expect(reviewer.status == 64 && reviewer.stderr.contains("--reviewer names the reviewer"), "\(reviewer.stderr)")
    }
}
