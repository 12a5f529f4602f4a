import Foundation
import NFCTestSupport
import Testing

/// Issue 52: amendments keep who, when and why, and never overwrite an earlier reason
/// (ISO/IEC 17025 §7.5.2): `annotate SESSION --note TEXT` and `void` append to the audit
/// trail, which `show --events`, `show --json` and the HTML timeline give whole.
@Suite("Amending a record through the CLI")
struct AmendmentCLITests {
    let scratch: TemporaryDirectory
    init() throws { scratch = try TemporaryDirectory("amend-cli") }

    func session(_ db: String) async throws -> String {
        let ran = try await BuiltBinary.run([
            "run", "--model", "SM-S921B", "--reader", "sim", "--positioner", "sim", "--auto", "--plan", "grid",
            "--tap-timeout", "0.1", "--db", db, "--json", "--no-report",
        ])
        #expect(ran.status == 0, "\(ran.stderr)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(ran.stdout.utf8)) as? [String: Any])
        return try #require(summary["sessionId"] as? String)
    }

    @Test func notesAndEveryVoidReasonStayInTheTrailWithWhoAndWhen() async throws {
        let db = scratch.database()
        let id = try await session(db)
        let first = try await BuiltBinary.run(
            ["annotate", id, "--note", "phone warm from charging; retested next day", "--by", "Ana Ruiz", "--db", db])
        #expect(first.status == 0 && first.stdout.contains("Note added to session \(id) by Ana Ruiz"), "\(first.stderr)")
        // Without --by, the login name the environment gives.
        let second = try await BuiltBinary.run(
            ["annotate", id, "--note", "reader cover replaced", "--db", db], environment: ["LOGNAME": "tech7", "USER": "x"])
        #expect(second.status == 0, "\(second.stderr)")
        let voided = try await BuiltBinary.run(["void", id, "--reason", "wrong unit", "--by", "Ana Ruiz", "--db", db])
        #expect(voided.status == 0, "\(voided.stderr)")
        let again = try await BuiltBinary.run(["void", id, "--reason", "phone case left on", "--by", "Li Wei", "--db", db])
        #expect(again.status == 0 && again.stdout.contains("kept in the audit trail"), "\(again.stdout)")

        let lines = try await BuiltBinary.run(["show", id, "--db", db, "--events"])
        #expect(lines.stdout.contains("note by Ana Ruiz: phone warm from charging; retested next day"), "\(lines.stdout)")
        #expect(lines.stdout.contains("note by tech7: reader cover replaced"))
        #expect(lines.stdout.contains("voided by Ana Ruiz: wrong unit"))
        #expect(lines.stdout.contains("voided by Li Wei: phone case left on (it was void already: wrong unit)"))
        let shown = try await BuiltBinary.run(["show", id, "--db", db, "--json"])
        let o = try #require(try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any])
        #expect(o["voidReason"] as? String == "phone case left on")
        let events = try #require(o["events"] as? [[String: Any]])
        let amendments = events.filter { ["note", "voided"].contains($0["kind"] as? String) }
        #expect(amendments.map { $0["kind"] as? String } == ["note", "note", "voided", "voided"], "\(amendments)")
        #expect(amendments.allSatisfy { ($0["at"] as? String)?.hasSuffix("Z") == true && $0["by"] != nil })
        // Every tap the run recorded is still there: an amendment changes no evidence.
        #expect((o["tapList"] as? [Any])?.count == o["taps"] as? Int)
        let html = scratch.file("r.html")
        _ = try await BuiltBinary.run(["report", "--session", id, "--include-void", "--db", db, "-o", html])
        let page = try String(contentsOfFile: html, encoding: .utf8)
        #expect(page.contains("note by Ana Ruiz") && page.contains("voided by Li Wei"))
    }

    /// No note, an empty one, one with a NUL, or an unknown session: refused, nothing written.
    @Test func anEmptyNoteOrAnUnknownSessionIsRefused() async throws {
        let db = scratch.database()
        let id = try await session(db)
        let empty = try await BuiltBinary.run(["annotate", id, "--note", "   ", "--db", db])
        #expect(empty.status == 64, "\(empty.stderr)")
        let missing = try await BuiltBinary.run(["annotate", id, "--db", db])
        #expect(missing.status == 64 && missing.stderr.contains("--note"), "\(missing.stderr)")
        let nobody = try await BuiltBinary.run(["annotate", "S-nosuch", "--note", "x", "--db", db])
        #expect(nobody.status == 1 && nobody.stderr.contains("No session 'S-nosuch'"), "\(nobody.stderr)")
        let lines = try await BuiltBinary.run(["show", id, "--db", db, "--events"])
        #expect(!lines.stdout.contains("note by"), "\(lines.stdout)")
    }
}
