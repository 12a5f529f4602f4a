import Foundation
import NFCBenchRecords
import NFCLocatorCore

/// JUnit XML for automated rigs (an `exec:` gantry running sessions in CI): one test
/// suite per session, one test case per position and one for the verdict.
///
/// CI servers drop attributes and properties they do not know, so every fact a reviewer
/// needs (model, station, unit, mode, position number, millimetres, result, why it
/// failed) is in the test names and failure messages; `hostname` is the station. The shape satisfies the Ant and Jenkins schemas alike
/// (`Tests/Fixtures/junit/junit.xsd`): counts and times on every suite, a properties block,
/// `system-out` and `system-err`, timestamps without a zone (they are UTC).
public struct JUnitReportExporter: SessionExporter {
    public let options: ReportOptions

    public init(options: ReportOptions) { self.options = options }

    public func export(_ sessions: SessionSource, from store: any BenchReading, to sink: ExportSink) async throws {
        try sink.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        // The root carries no totals (Ant's schema allows none; CI servers add up the
        // suites), so each session's suite is written as soon as it is read.
        try sink.append("<testsuites>\n")
        let exporter = self
        var pager = sessions.pager(in: store)
        try await OrderedRendering.run(
            next: { try await pager.next() },
            render: { index, session in
                let suite = ExportSink.memory()
                // A damaged session is left out (the store notes it; the command says so).
                guard let taps = try await store.intactTaps(of: session) else { return [] }
                try exporter.write(ReportedSession(session, taps: taps), id: index, to: suite)
                return suite.bytes
            },
            write: { _, _, bytes in try sink.append(bytes) })
        try sink.append("</testsuites>\n")
        try sink.flush()
    }

    private func write(_ r: ReportedSession, id: Int, to sink: ExportSink) throws {
        let s = r.session, x = XMLText.escape
        let model = s.modelInput.isEmpty ? s.lookupKey : s.modelInput
        let className = "nfcbench." + Self.identifier(s.lookupKey) + ".session-" + Self.identifier(s.id)
        var cases: [String] = []
        var failures = 0, skipped = 0
        for p in r.positions {
            let band =
                !p.probe.isAtTapHeight
                ? "operating volume, not compared with the prediction" : p.evidence?.words ?? "no prediction to compare"
            let name = "\(model) position \(p.number) (\(r.placeWords(p))): \(p.outcome.rawValue), \(band)"
            var body = ""
            if p.outcome == .skipped {
                skipped += 1
                body = "<skipped message=\"skipped by the operator\"/>"
            } else if p.outcome == .foreign {
                skipped += 1
                body =
                    "<skipped message=\"only something other than the phone answered here (\(p.foreignAnswers)x FOREIGN): no evidence\"/>"
            } else if p.outcome == .partial {
                // A read that stopped early is not a pass: the phone found the tag and gave up.
                failures += 1
                let why =
                    "PARTIAL read: the phone began reading the tag and stopped after "
                    + (p.partialProgress.map(PartialReadWords.stage) ?? "activating it")
                body = "<failure message=\"\(x(why))\" type=\"partial-read\">\(x(name))</failure>"
            } else if r.toleratedByVerdict(p) {
                // The verdict is the check; a miss it allowed is reported, not failed, so a
                // CONFIRMED session is green in CI as it is everywhere else.
                let why =
                    p.outcome == .miss
                    ? "MISS in the middle of the predicted zone, within the misses a CONFIRMED verdict allows"
                    : "HIT well outside the predicted zone, which the coil's tests of a CONFIRMED verdict allow"
                body = "<system-out>\(x(why + " (docs/refine.md)"))</system-out>"
            } else if r.contradicts(p) {
                failures += 1
                let why =
                    p.outcome == .miss
                    ? "MISS in the middle of the predicted zone: a right prediction reads here"
                    : "HIT well outside the predicted zone: a right prediction stays silent here"
                body = "<failure message=\"\(x(why))\" type=\"contradicts-prediction\">\(x(name))</failure>"
            }
            // What the position cost at the bench: a read, its time to detect; a MISS, every
            // window it waited out in full (it had been 0, as if a miss were free).
            let spent: Double =
                switch p.outcome {
                case .hit: (p.latencyMs ?? 0) / 1000
                case .miss, .partial: Double(p.attempts) * (p.windowSeconds ?? s.tapTimeout)
                case .skipped, .foreign: 0
                }
            let seconds = FixedPoint.format(spent, 3)
            cases.append("<testcase classname=\"\(x(className))\" name=\"\(x(name))\" time=\"\(seconds)\">\(body)</testcase>")
        }
        let verdict = s.status == .completed ? r.score.verdict.rawValue : "not finished"
        let verdictName = "\(model) session verdict: \(verdict)" + (s.simulated ? " (simulated reader, not bench evidence)" : "")
        var verdictBody = ""
        if s.status != .completed || r.score.verdict != .confirmed {
            failures += 1
            let message = s.status == .completed ? r.verdictSentence : "the session is \(s.status.rawValue): \(r.verdictSentence)"
            verdictBody = "<failure message=\"\(x(message))\" type=\"\(x(verdict))\">\(x(message))</failure>"
        }
        cases.append("<testcase classname=\"\(x(className))\" name=\"\(x(verdictName))\" time=\"0\">\(verdictBody)</testcase>")
        let duration = max(0, (s.endedAt ?? r.positions.last?.firstTappedAt ?? s.startedAt).timeIntervalSince(s.startedAt))
        // Which bench and which phone: a lab files suites from several stations, and two
        // stations may reuse a session id, so both are in the name CI servers keep.
        let suiteName =
            "\(r.name) session \(s.id)" + (s.station.map { " on \($0)" } ?? "") + (s.unit.map { ", unit \($0)" } ?? "")
            + (s.mode == .tag ? " [tag mode]" : "") + (s.simulated ? " [simulated]" : "") + (s.isVoid ? " [void]" : "")
        let timestamp = String(CSVFormat.iso8601(s.startedAt).dropLast())
        try sink.append(
            "<testsuite name=\"\(x(suiteName))\" tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"0\" skipped=\"\(skipped)\" time=\"\(FixedPoint.format(duration, 3))\" timestamp=\"\(timestamp)\" hostname=\"\(x(s.station ?? "unrecorded-station"))\" id=\"\(id)\" package=\"nfcbench.\(x(Self.identifier(s.lookupKey)))\">\n"
        )
        let counted = r.tapSummary
        let properties: [(String, String)] = [
            ("session", s.id), ("station", s.station ?? ""), ("unit", s.unit ?? ""), ("mode", s.mode.rawValue),
            ("reader", s.reader.description), ("simulated", String(s.simulated)), ("version", options.toolVersion),
            ("taps", String(counted.taps)), ("hits", String(counted.hits)),
            ("layers", counted.layers.map(\.words).joined(separator: "; ")),
            ("conditions", s.conditions.words ?? ""),
        ]
        try sink.append(
            "<properties>"
                + properties.map { "<property name=\"nfcbench.\($0.0)\" value=\"\(x($0.1))\"/>" }.joined()
                + "</properties>\n")
        for c in cases { try sink.append(c + "\n") }
        try sink.append(
            "<system-out>\(x(verdictName + ". " + r.verdictSentence))</system-out>\n<system-err></system-err>\n</testsuite>\n")
    }

    /// A dotted class name's part: letters, digits, `_` and `-` only.
    static func identifier(_ s: String) -> String {
        let kept = s.unicodeScalars.map {
            CharacterSet.alphanumerics.contains($0) && $0.isASCII || $0 == "-" ? Character($0) : "_"
        }
        return kept.isEmpty ? "_" : String(kept)
    }
}
