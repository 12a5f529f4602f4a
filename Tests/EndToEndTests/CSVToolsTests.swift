import Foundation
import NFCTestSupport
import Testing

/// The tap CSV read by pandas exactly as docs/csv.md tells a lab to: the hex columns come
/// back as the text the reader sent (`0004` stays `0004`), cell for cell.
@Suite("The CSV in the tools labs use")
struct CSVToolsTests {
    let scratch: TemporaryDirectory
    init() throws { scratch = try TemporaryDirectory("csv-tools") }

    @Test func pandasReadsTheHexColumnsAsTextWithTheDocumentedLine() async throws {
        let db = scratch.database()
        let run = try await BuiltBinary.run([
            "run", "--model", "SM-S921B", "--reader", "sim", "--auto", "--tap-timeout", "0.1", "--plan", "grid",
            "--sim-antenna", "0.1,0.5,0.8,0.3", "--db", db, "--no-report",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let csv = scratch.file("taps.csv")
        let export = try await BuiltBinary.run([
            "export", "--all", "--format", "csv", "--db", db, "-o", csv,
        ])
        #expect(export.status == 0, "\(export.stderr)")
        let doc = try String(contentsOf: Checkout.root.appendingPathComponent("docs/csv.md"), encoding: .utf8)
        let line = try #require(
            doc.split(separator: "\n").first { $0.hasPrefix("taps = pd.read_csv(\"taps.csv\"") },
            "docs/csv.md lost its pandas line")
        let script = """
            import csv, sys
            import pandas as pd
            \(line.replacingOccurrences(of: "\"taps.csv\"", with: "sys.argv[1]"))
            raw = list(csv.DictReader(open(sys.argv[1], newline="", encoding="utf-8")))
            assert len(raw) == len(taps) > 0, (len(raw), len(taps))
            for column in ["uid", "atqa", "sak", "ats", "atr", "session_id"]:
                got = taps[column].fillna("").tolist()
                want = [row[column] for row in raw]
                assert got == want, (column, got[:3], want[:3])
                assert all(isinstance(v, str) for v in got), column
            assert "0004" in set(taps["atqa"].dropna()), set(taps["atqa"].dropna())
            print(len(taps))
            """
        let (status, out, errors) = try await ChildProcess.run(
            "/usr/bin/python3", ["-c", script, csv], environment: ProcessInfo.processInfo.environment, timeout: 120)
        #expect(status == 0, "pandas: \(errors)")
        #expect(Int(out.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0 >= 13, "\(out)")
    }
}
