import Foundation
import NFCTestSupport
import Testing

/// What the operator says about the phone (OS, build, case) and what they typed for the
/// model reach the store and every report (a resume refuses them, as it does --unit).
@Suite("Phone details through the CLI")
struct PhoneDetailsCLITests {
    let scratch: TemporaryDirectory
    init() throws { scratch = try TemporaryDirectory("phone-details-cli") }

    @Test func detailsGoFromTheRunToTheReportsAndStayFixed() async throws {
        let db = scratch.database()
        let r = try await BuiltBinary.run([
            "run", "--model", "galaxy s24", "--reader", "sim", "--auto", "--tap-timeout", "0.1", "--plan", "grid",
            "--phone-os", "Android 15", "--phone-build", "AP3A.240905.015", "--case", "none", "--db", db, "--json",
            "--no-report",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let o = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [String: Any]
        let id = try #require(o["sessionId"] as? String)
        #expect(o["model"] as? String == "SM-S921B" && o["modelTyped"] as? String == "galaxy s24", "\(r.stdout)")
        let phone = try #require(o["phone"] as? [String: Any])
        #expect(phone["os"] as? String == "Android 15" && phone["build"] as? String == "AP3A.240905.015")
        #expect(phone["case"] as? String == "none")

        let html = scratch.file("r.html")
        let report = try await BuiltBinary.run(["report", "--session", id, "--db", db, "-o", html])
        #expect(report.status == 0, "\(report.stderr)")
        let text = try String(contentsOfFile: html, encoding: .utf8)
        #expect(text.contains("<dt>Phone</dt><dd>Android 15, build AP3A.240905.015, case: none</dd>"), "\(text.prefix(4000))")
        #expect(text.contains("(typed \u{201C}galaxy s24\u{201D})"))

        let csv = try await BuiltBinary.run(["report", "--session", id, "--format", "csv-sessions", "--db", db])
        let lines = csv.stdout.split(separator: "\r\n")
        // The new columns are appended, so older readers of the file see what they saw.
        #expect(
            lines.first?.hasSuffix(
                ",foreign_answers,model_typed,phone_os,phone_build,phone_case,reader_serial,reader_antenna_width_mm,"
                    + "reader_antenna_height_mm,reader_gap_mm,reader_geometry_source,partial_reads,layers,verdict_positions,"
                    + "verdict_positions_read,temperature_c,humidity_pct") == true,
            "\(csv.stdout)")
        // The simulated reader has no serial number and no antenna profile: those cells are empty.
        #expect(lines.last?.contains(",galaxy s24,Android 15,AP3A.240905.015,none,,,,,,0,on the back ") == true, "\(csv.stdout)")
        #expect(lines.last?.contains(",SM-S921B,sm_s921b,") == true)

        // An identifier typed as it is records no typed form.
        let plain = try await BuiltBinary.run([
            "run", "--model", "SM-S921B", "--reader", "sim", "--auto", "--tap-timeout", "0.1", "--plan", "grid", "--db", db,
            "--json", "--no-report",
        ])
        let p = try JSONSerialization.jsonObject(with: Data(plain.stdout.utf8)) as! [String: Any]
        #expect(p["modelTyped"] is NSNull, "\(plain.stdout)")
    }
}
