import Foundation
import NFCBench
import NFCBenchRecords
import NFCBenchStoreSQLite
import NFCLocatorCore
import NFCTestSupport
import Testing

/// Reports through the exporter seam: the numbers they tell, and golden files of a fixed
/// session in every format (`NFCBENCH_UPDATE_GOLDEN=1` rewrites them after a reviewed change).
@Suite("Reports")
struct ReportTests {
    let scratch: TemporaryDirectory
    init() throws { scratch = try TemporaryDirectory("report") }

    func fixture() async throws -> (SQLiteBenchStore, SessionRecord) {
        let store = try await SQLiteBenchStore.open(path: scratch.file("bench.sqlite"))
        return (store, try await ReportFixture.store(ReportFixture.session(), in: store))
    }

    func render(_ exporter: any SessionExporter, _ sessions: [SessionRecord], _ store: SQLiteBenchStore) async throws -> String {
        let sink = ExportSink.memory()
        try await exporter.export(sessions, from: store, to: sink)
        return sink.text
    }

    @Test(arguments: ["session.html", "session.svg", "session.junit.xml", "sessions.csv"])
    func goldenFile(_ name: String) async throws {
        let (store, session) = try await fixture()
        let exporter: any SessionExporter =
            switch name {
            case "session.html": HTMLReportExporter(options: ReportFixture.options)
            case "session.svg": SVGReportExporter(summary: false, clock: ReportFixture.options.clock)
            case "session.junit.xml": JUnitReportExporter(options: ReportFixture.options)
            default: CSVSessionExporter()
            }
        let text = try await render(exporter, [session], store)
        let golden = Checkout.fixtures.appendingPathComponent("reports/" + name)
        if ProcessInfo.processInfo.environment["NFCBENCH_UPDATE_GOLDEN"] == "1" {
            try text.write(to: golden, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOf: golden, encoding: .utf8)
        let firstDifference = zip(text.split(separator: "\n"), expected.split(separator: "\n")).enumerated()
            .first { $0.element.0 != $0.element.1 }
        let same = text == expected
        #expect(same, "\(name) differs from its golden file at line \((firstDifference?.offset ?? -1) + 1)")
    }

    /// The fixed session's antenna sits lower than predicted; the report says so in
    /// millimetres and keeps the skipped position apart from hits and misses.
    @Test func theSessionsNumbersInWordsAndMillimetres() async throws {
        let (store, session) = try await fixture()
        let report = ReportedSession(session, taps: try await store.taps(session.id))
        #expect(report.positions.count == report.score.taps + report.score.skipped)
        #expect(report.positions.filter { $0.outcome == .skipped }.count == 1 && report.score.skipped == 1)
        #expect(report.positions.map(\.number) == Array(1...report.positions.count))
        let body = try #require(report.body)
        #expect(abs(body.height - 147) < 1e-9 && abs(body.width - 147 * 0.4803) < 1e-9)
        let first = report.positions[0]
        let mm = body.position(first.probe)
        #expect(abs(mm.fromLeft - first.probe.x * 147 * 0.4803) < 1e-9 && abs(mm.fromTop - first.probe.y * 147) < 1e-9)
        let measured = try #require(report.score.measured)
        #expect(measured.midY > ReportFixture.predicted.midY)
        if report.score.verdict == .shifted { #expect(report.verdictSentence.contains("mm lower")) }
        let html = try await render(HTMLReportExporter(options: ReportFixture.options), [session], store)
        #expect(html.contains(report.score.verdict.rawValue) && html.contains("from left (mm)"))
        #expect(html.contains(FixedPoint.format(mm.fromLeft, 1)) && html.contains(FixedPoint.format(mm.fromTop, 1)))
    }

    /// JUnit fails exactly the positions that contradict the prediction, and the verdict
    /// unless CONFIRMED; skipped positions are skipped, not passed.
    @Test func junitFailsWhatContradictsThePrediction() async throws {
        let (store, session) = try await fixture()
        let report = ReportedSession(session, taps: try await store.taps(session.id))
        let xml = try await render(JUnitReportExporter(options: ReportFixture.options), [session], store)
        let contradictions = report.positions.filter(report.contradicts).count
        let verdictFails = report.score.verdict == .confirmed ? 0 : 1
        #expect(contradictions > 0, "the fixture's shifted antenna leaves core misses")
        #expect(xml.components(separatedBy: "<failure ").count - 1 == contradictions + verdictFails)
        #expect(xml.contains("failures=\"\(contradictions + verdictFails)\"") && xml.contains("skipped=\"1\""))
        #expect(xml.contains("<skipped message=\"skipped by the operator\"/>"))
        #expect(xml.contains("SM-S921B position 1 (") && xml.contains("mm below the top edge"))
        #expect(xml.contains("session verdict: \(report.score.verdict.rawValue)"))
        // Each position's time is what it cost: a read, its time to detect; a MISS, every
        // window it waited out (the fixture's 2 s, once per attempt); a skip, nothing.
        var times: [Int: String] = [:]
        for match in xml.matches(of: /name="[^"]* position (\d+) \([^"]*" time="([^"]*)"/) {
            times[Int(match.1)!] = String(match.2)
        }
        #expect(times.count == report.positions.count)
        #expect(report.positions.contains { $0.outcome == .miss })
        for p in report.positions {
            let expected: Double =
                switch p.outcome {
                case .hit: p.latencyMs! / 1000
                case .miss: Double(p.attempts) * 2
                default: 0
                }
            #expect(times[p.number] == FixedPoint.format(expected, 3), "position \(p.number) \(p.outcome)")
        }
    }

    /// A lab files suites from several benches: the station, the unit and the mode are in
    /// the suite's name (CI servers drop what they do not know), `hostname` is the station.
    @Test func junitNamesTheStationUnitAndMode() async throws {
        let store = try await SQLiteBenchStore.open(path: scratch.file("junit-station.sqlite"))
        var session = ReportFixture.session(id: "S-station")
        session.station = "bench-3"
        session.mode = .tag
        let stored = try await ReportFixture.store(session, in: store)
        let xml = try await render(JUnitReportExporter(options: ReportFixture.options), [stored], store)
        #expect(xml.contains("session S-station on bench-3, unit unit-7 [tag mode] [simulated]\""), "\(xml.prefix(400))")
        #expect(xml.contains("hostname=\"bench-3\""))
        #expect(xml.contains("<property name=\"nfcbench.station\" value=\"bench-3\"/>"))
        #expect(xml.contains("<property name=\"nfcbench.mode\" value=\"tag\"/>"))
        #expect(xml.contains("<property name=\"nfcbench.unit\" value=\"unit-7\"/>"))
    }

    /// Names from operators and catalogs cannot break a document or reach a terminal
    /// raw: markup is escaped, control codes are dropped, CSV cells are neutralised.
    @Test func hostileTextIsEscapedInEveryFormat() async throws {
        let store = try await SQLiteBenchStore.open(path: scratch.file("hostile.sqlite"))
        var session = ReportFixture.session(id: "S-hostile")
        session.displayName = "<script>alert(1)</script>\u{1B}]0;owned\u{07}"
        session.unit = "=HYPERLINK(\"http://x\")"
        session.operatorName = "O'Brien & \"Sons\""
        let stored = try await ReportFixture.store(session, in: store)
        let html = try await render(HTMLReportExporter(options: ReportFixture.options), [stored], store)
        let xml = try await render(JUnitReportExporter(options: ReportFixture.options), [stored], store)
        let csv = try await render(CSVSessionExporter(), [stored], store)
        for text in [html, xml] {
            #expect(!text.contains("<script") && text.contains("&lt;script&gt;"))
            #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" && $0 != "\t" && $0 != "\r" })
        }
        #expect(html.contains("O&#39;Brien &amp; &quot;Sons&quot;"))
        #expect(csv.contains(",\"'=HYPERLINK(\"\"http://x\"\")\","))
    }

    /// Summaries count what they are given; the caller (the CLI's flags) decides whether
    /// void and simulated sessions are among them, and the report says which are simulated.
    @Test func aModelSummaryPoolsItsSessions() async throws {
        let store = try await SQLiteBenchStore.open(path: scratch.file("summary.sqlite"))
        let a = try await ReportFixture.store(ReportFixture.session(id: "S-a"), in: store)
        var second = ReportFixture.session(id: "S-b", simulated: false)
        second.unit = "unit-8"
        let b = try await ReportFixture.store(second, in: store)
        let summaries = try await ModelSummary.build([a, b], from: store)
        let s = try #require(summaries.first)
        #expect(summaries.count == 1 && s.sessions == 2 && s.simulatedSessions == 1 && s.units == ["unit-7", "unit-8"])
        let taps = try await store.taps("S-a").filter { $0.result != .skipped }
        #expect(s.taps == 2 * taps.count && s.hits == 2 * taps.filter { $0.result == .hit }.count)
        #expect(s.heat.reduce(0) { $0 + $1.taps } == s.taps)
        var options = ReportFixture.options
        options.summary = .model
        let html = try await render(HTMLReportExporter(options: options), [a, b], store)
        #expect(html.contains("Model summary: Galaxy S24 (SM-S921B)") && html.contains("2 (1 simulated)"))
        #expect(html.components(separatedBy: "<section class=\"session\"").count == 3)
    }

    /// Sessions are rendered several at a time but written in the order given, each
    /// model's summary right before its first session, in HTML and JUnit alike.
    @Test func concurrentRenderingKeepsTheOrder() async throws {
        let store = try await SQLiteBenchStore.open(path: scratch.file("order.sqlite"))
        var sessions: [SessionRecord] = []
        for i in (0..<15).reversed() {
            sessions.append(try await ReportFixture.store(ReportFixture.session(id: "S-order-\(i)"), in: store))
        }
        var options = ReportFixture.options
        options.summary = .all
        let html = try await render(HTMLReportExporter(options: options), sessions, store)
        let xml = try await render(JUnitReportExporter(options: options), sessions, store)
        func order(_ text: String, _ marker: String) -> [String] {
            text.components(separatedBy: marker).dropFirst().map { String($0.prefix { $0 != ":" && $0 != " " }) }
        }
        let ids = sessions.map(\.id)
        #expect(order(html, "<h2>Session ") == ids)
        #expect(order(xml, "<property name=\"nfcbench.session\" value=\"").map { String($0.prefix { $0 != "\"" }) } == ids)
        let summary = try #require(html.range(of: "Model summary: Galaxy S24"))
        #expect(summary.upperBound < html.range(of: "<h2>Session ")!.lowerBound)
    }
}

/// Whole-store listings read the store a page at a time.
@Suite("Paged session listings")
struct PagedSessionTests {
    let scratch: TemporaryDirectory
    init() throws { scratch = try TemporaryDirectory("pages") }

    /// Pages of 4 over 11 sessions (two models, one void, one simulated, two sharing a
    /// start time): every session once, in start order, filtered as asked.
    @Test func pagesCoverEverySessionOnceInOrder() async throws {
        let store = try await SQLiteBenchStore.open(path: scratch.file("pages.sqlite"))
        var expected: [SessionRecord] = []
        for i in 0..<11 {
            var s = ReportFixture.session(id: String(format: "S-page-%02d", 10 - i), simulated: i == 3)
            s.startedAt = ReportFixture.start.addingTimeInterval(Double(i == 6 ? 5 : i))  // 5 and 6 start together
            if i % 2 == 1 {
                s.modelInput = "SM-S926B"
                s.lookupKey = "sm_s926b"
            }
            try await store.insert(s)
            if i == 8 {
                try await store.void(s.id, reason: "wrong phone", at: ReportFixture.generatedAt)
                s.voidReason = "wrong phone"
            }
            expected.append(s)
        }
        expected.sort { ($0.startedAt, $0.id) < ($1.startedAt, $1.id) }
        func listed(_ source: SessionSource, keys: Set<String>? = nil) async throws -> [String] {
            var ids: [String] = []
            try await source.forEach(in: store, lookupKeys: keys) { ids.append($0.id) }
            return ids
        }
        let all = SessionSource(.stored(model: nil, includeVoid: true, includeSimulated: true), pageSize: 4)
        #expect(try await listed(all) == expected.map(\.id))
        let bench = SessionSource(.stored(model: nil, includeVoid: false, includeSimulated: false), pageSize: 4)
        #expect(try await listed(bench) == expected.filter { !$0.isVoid && !$0.simulated }.map(\.id))
        let s24 = SessionSource(.stored(model: "SM-S921B", includeVoid: true, includeSimulated: true), pageSize: 3)
        #expect(try await listed(s24) == expected.filter { $0.lookupKey == "sm_s921b" }.map(\.id))
        #expect(try await listed(all, keys: ["sm_s926b"]) == expected.filter { $0.lookupKey == "sm_s926b" }.map(\.id))
        #expect(try await listed(all, keys: []).isEmpty)
        let csv = ExportSink.memory()
        try await CSVTapExporter().export(all, from: store, to: csv)
        #expect(csv.text.hasPrefix(CSVFormat.header))
    }
}
