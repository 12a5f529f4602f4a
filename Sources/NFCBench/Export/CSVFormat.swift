import Foundation
import NFCBenchRecords

/// The export's columns and cell rules.
public enum CSVFormat {
    public static let columns = [
        "session_id", "session_status", "model_input", "lookup_key", "display_name", "unit", "operator",
        "reader", "reader_firmware", "plan", "verdict", "predicted_x", "predicted_y", "predicted_width", "predicted_height",
        "confidence", "source", "stale", "catalog_version", "session_started_at", "session_ended_at",
        "probe_index", "attempt", "probe_x", "probe_y", "inside_predicted", "result", "latency_ms",
        "technology", "uid", "atqa", "sak", "ats", "atr", "timestamp", "simulated", "void_reason", "station", "mode",
        "tag_progress", "placement", "window_s", "platform_probe",
    ]

    public static var header: String { columns.joined(separator: ",") + "\r\n" }

    /// The first 21 cells, ending with a comma.
    static func sessionCells(_ s: SessionRecord) -> String {
        let cells: [String] = [
            text(s.id), s.status.rawValue, text(s.modelInput), text(s.lookupKey), text(s.displayName), text(s.unit),
            text(s.operatorName), text(s.reader.description), text(s.readerFirmware), s.plan.rawValue,
            s.verdict?.rawValue ?? "", fixed(s.predicted?.x, 4), fixed(s.predicted?.y, 4), fixed(s.predicted?.width, 4),
            fixed(s.predicted?.height, 4), s.confidence.rawValue, s.source.rawValue, s.stale ? "true" : "false",
            text(s.catalogVersion), iso8601(s.startedAt), iso8601(s.endedAt),
        ]
        return cells.map(quote).joined(separator: ",") + ","
    }

    /// The session cells after the tap's (appended columns keep older columns in place),
    /// starting with a comma.
    static func sessionSuffix(_ s: SessionRecord) -> String {
        ","
            + [s.simulated ? "true" : "false", text(s.voidReason), text(s.station), s.mode.rawValue].map(quote).joined(
                separator: ",")
    }

    public static func row(_ s: SessionRecord, _ t: TapRecord) -> String {
        let sink = ExportSink.memory()
        try? appendRow(prefix: Array(sessionCells(s).utf8), t, suffix: Array(sessionSuffix(s).utf8), to: sink)
        return sink.text
    }

    /// One row, appended as bytes: the hot loop of a million-row export.
    static func appendRow(prefix: [UInt8], _ t: TapRecord, suffix: [UInt8], to sink: ExportSink) throws {
        try sink.append(prefix)
        let cells: [String] = [
            String(t.step), String(t.attempt), fixed(t.probeX, 4), fixed(t.probeY, 4), t.insidePredicted ? "true" : "false",
            t.result.rawValue, fixed(t.latencyMs, 1), t.technology ?? "", text(t.uid), text(t.atqa), text(t.sak),
            text(t.ats), text(t.atr), iso8601Milliseconds(t.timestamp),
        ]
        for (i, cell) in cells.enumerated() {
            if i > 0 { sink.append(UInt8(ascii: ",")) }
            try sink.append(quote(cell))
        }
        try sink.append(suffix)
        sink.append(UInt8(ascii: ","))
        if let progress = t.tagProgress { try sink.append(progress.rawValue) }
        sink.append(UInt8(ascii: ","))
        if let placement = t.placement { try sink.append(placement.rawValue) }
        sink.append(UInt8(ascii: ","))
        if let window = t.windowSeconds { try sink.append(FixedPoint.format(window, 3)) }
        sink.append(UInt8(ascii: ","))
        if let probe = t.platformProbe { try sink.append(probe.rawValue) }
        sink.append(UInt8(ascii: "\r"))
        sink.append(UInt8(ascii: "\n"))
    }

    static func fixed(_ value: Double?, _ digits: Int) -> String { FixedPoint.format(value, digits) }

    /// `2026-11-29T16:20:20Z` from the epoch with integer arithmetic (UTC; Howard
    /// Hinnant's civil-from-days), far faster than a date formatter per cell.
    static func iso8601(_ date: Date?) -> String {
        guard let date else { return "" }
        // Out of Int's range (a damaged record) is no instant to print, and must not trap.
        guard let seconds = Int(exactly: date.timeIntervalSince1970.rounded(.down)), abs(seconds) < 1 << 50 else { return "" }
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : String(v) }
        return
            "\(year)-\(two(month))-\(two(day))T\(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60))Z"
    }

    /// `2026-11-29T16:20:20.123Z`: the same to the nearest millisecond.
    public static func iso8601Milliseconds(_ date: Date?) -> String {
        guard let date else { return "" }
        let scaled = (date.timeIntervalSince1970 * 1000).rounded()
        guard scaled.isFinite, abs(scaled) < Double(1 << 52) else { return "" }
        let total = Int(scaled)
        let millis = ((total % 1000) + 1000) % 1000
        let whole = iso8601(Date(timeIntervalSince1970: Double((total - millis) / 1000)))
        guard whole.hasSuffix("Z") else { return whole }
        let three = millis < 10 ? "00\(millis)" : millis < 100 ? "0\(millis)" : String(millis)
        return String(whole.dropLast()) + "." + three + "Z"
    }

    /// Free text from operators and catalogs: neutralised against spreadsheet formulas.
    /// Spreadsheets skip leading blanks and line breaks before deciding a cell is a
    /// formula, so those are looked past too; a cell starting with a tab, CR or LF is
    /// neutralised whatever follows.
    /// One text cell as the export writes it: neutralised, then quoted.
    public static func cell(_ value: String?) -> String { quote(text(value)) }

    /// What a text cell holds once read back: the value, neutralised.
    public static func neutralised(_ value: String?) -> String { text(value) }

    static func text(_ value: String?) -> String {
        guard let value, let first = value.unicodeScalars.first else { return "" }
        if "\t\r\n".unicodeScalars.contains(first) { return "'" + value }
        let leading = value.unicodeScalars.first { !" \t\r\n".unicodeScalars.contains($0) }
        return leading.map { "=+-@".unicodeScalars.contains($0) } == true ? "'" + value : value
    }

    /// RFC 4180: quote cells containing a comma, quote, CR or LF; double inner quotes.
    /// Quotes are doubled scalar by scalar: a quote followed by a combining mark is one
    /// Character to Swift, and Character-level replacement left it single (found by
    /// fuzzing), which let a cell end its quoting early.
    static func quote(_ cell: String) -> String {
        guard cell.utf8.contains(where: { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }) else { return cell }
        var out = String.UnicodeScalarView()
        out.append("\"")
        for scalar in cell.unicodeScalars {
            if scalar == "\"" { out.append("\"") }
            out.append(scalar)
        }
        out.append("\"")
        return String(out)
    }
}
