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
        "tag_progress", "placement", "window_s", "platform_probe", "height_mm", "coupling", "coupling_ladder",
        "temperature_c", "humidity_pct",
    ]

    public static var header: String { columns.joined(separator: ",") + "\r\n" }

    /// The first 21 cells as bytes, ending with a comma: formatted once per session.
    static func sessionPrefix(_ s: SessionRecord) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256)
        func text(_ value: String?) {
            if let value { appendQuoted(value, neutralising: true, to: &bytes) }
            bytes.append(UInt8(ascii: ","))
        }
        /// Names and numbers: never a comma or quote among them, so never quoted.
        func plain(_ value: String) {
            bytes.append(contentsOf: value.utf8)
            bytes.append(UInt8(ascii: ","))
        }
        func fixed(_ value: Double?) {
            FixedPoint.append(value, 4, to: &bytes)
            bytes.append(UInt8(ascii: ","))
        }
        text(s.id)
        plain(s.status.rawValue)
        text(s.modelInput)
        text(s.lookupKey)
        text(s.displayName)
        text(s.unit)
        text(s.operatorName)
        text(s.reader.description)
        text(s.readerFirmware)
        plain(s.plan.rawValue)
        plain(s.verdict?.rawValue ?? "")
        fixed(s.predicted?.x)
        fixed(s.predicted?.y)
        fixed(s.predicted?.width)
        fixed(s.predicted?.height)
        plain(s.confidence.rawValue)
        plain(s.source.rawValue)
        plain(s.stale ? "true" : "false")
        text(s.catalogVersion)
        plain(iso8601(s.startedAt))
        plain(iso8601(s.endedAt))
        return bytes
    }

    /// The session cells after the tap's (appended columns keep older columns in place),
    /// starting with a comma.
    static func sessionSuffix(_ s: SessionRecord) -> [UInt8] {
        var bytes = Array((s.simulated ? ",true," : ",false,").utf8)
        if let reason = s.voidReason { appendQuoted(reason, neutralising: true, to: &bytes) }
        bytes.append(UInt8(ascii: ","))
        if let station = s.station { appendQuoted(station, neutralising: true, to: &bytes) }
        bytes.append(UInt8(ascii: ","))
        bytes.append(contentsOf: s.mode.rawValue.utf8)
        return bytes
    }

    /// The session's last cells, after the tap's: the room it was recorded in (issue 52:
    /// every export carries the conditions).
    static func sessionTrailer(_ s: SessionRecord) -> [UInt8] {
        Array(
            ("," + (s.conditions.temperatureC.map(BenchConditions.figure) ?? "") + ","
                + (s.conditions.humidityPct.map(BenchConditions.figure) ?? "")).utf8)
    }

    public static func row(_ s: SessionRecord, _ t: TapRecord) -> String {
        let sink = ExportSink.memory()
        try? appendRow(prefix: sessionPrefix(s), t, suffix: sessionSuffix(s), trailer: sessionTrailer(s), to: sink)
        return sink.text
    }

    /// One row, appended as bytes: the hot loop of a million-row export. The row is written
    /// straight into the sink's buffer (numbers and the timestamp digit by digit, no cell a
    /// String of its own).
    static func appendRow(prefix: [UInt8], _ t: TapRecord, suffix: [UInt8], trailer: [UInt8], to sink: ExportSink) throws {
        try sink.appendBuilt { row in appendRow(prefix: prefix, t, suffix: suffix, trailer: trailer, to: &row) }
    }

    static func appendRow(prefix: [UInt8], _ t: TapRecord, suffix: [UInt8], trailer: [UInt8], to row: inout [UInt8]) {
        row.append(contentsOf: prefix)
        appendDecimal(t.step, to: &row)
        row.append(UInt8(ascii: ","))
        appendDecimal(t.attempt, to: &row)
        row.append(UInt8(ascii: ","))
        FixedPoint.append(t.probeX, 4, to: &row)
        row.append(UInt8(ascii: ","))
        FixedPoint.append(t.probeY, 4, to: &row)
        row.append(UInt8(ascii: ","))
        row.append(contentsOf: (t.insidePredicted ? "true" : "false").utf8)
        row.append(UInt8(ascii: ","))
        row.append(contentsOf: t.result.rawValue.utf8)
        row.append(UInt8(ascii: ","))
        FixedPoint.append(t.latencyMs, 1, to: &row)
        row.append(UInt8(ascii: ","))
        if let technology = t.technology { appendQuoted(technology, neutralising: false, to: &row) }
        for cell in [t.uid, t.atqa, t.sak, t.ats, t.atr] {
            row.append(UInt8(ascii: ","))
            if let cell { appendQuoted(cell, neutralising: true, to: &row) }
        }
        row.append(UInt8(ascii: ","))
        appendMilliseconds(t.timestamp, to: &row)
        row.append(contentsOf: suffix)
        row.append(UInt8(ascii: ","))
        if let progress = t.tagProgress { row.append(contentsOf: progress.rawValue.utf8) }
        row.append(UInt8(ascii: ","))
        if let placement = t.placement { row.append(contentsOf: placement.rawValue.utf8) }
        row.append(UInt8(ascii: ","))
        FixedPoint.append(t.windowSeconds, 3, to: &row)
        row.append(UInt8(ascii: ","))
        if let probe = t.platformProbe { row.append(contentsOf: probe.rawValue.utf8) }
        row.append(UInt8(ascii: ","))
        FixedPoint.append(t.probe.heightMm, 3, to: &row)
        row.append(UInt8(ascii: ","))
        FixedPoint.append(t.coupling, 4, to: &row)
        row.append(UInt8(ascii: ","))
        // Set only for taps something was tried at; a name of this build's own or one read
        // from the database (a newer build's), so quoted and neutralised as any stored text.
        if let ladder = t.couplingLadderName {
            appendQuoted(ladder, neutralising: true, to: &row)
        }
        row.append(contentsOf: trailer)
        row.append(UInt8(ascii: "\r"))
        row.append(UInt8(ascii: "\n"))
    }

    /// `quote(text(value))` (or `quote(value)`), byte by byte: every character the rules
    /// look at is ASCII, and a UTF-8 multi-byte sequence never contains an ASCII byte.
    /// One pass over the bytes finds both the first non-blank byte and whether the cell
    /// needs quotes: six text cells per row made the generic scans a tenth of an export.
    static func appendQuoted(_ value: String, neutralising: Bool, to bytes: inout [UInt8]) {
        let utf8 = value.utf8.span
        guard !utf8.isEmpty else { return }
        var needsQuotes = false
        var lead: UInt8 = 0
        for index in utf8.indices {
            let byte = utf8[index]
            let blank = byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A
            if lead == 0 && !blank { lead = byte }
            if byte == 0x2C || byte == 0x22 || byte == 0x0A || byte == 0x0D { needsQuotes = true }
        }
        let first = utf8[0]
        let prefixed =
            neutralising
            && (first == 0x09 || first == 0x0D || first == 0x0A || lead == UInt8(ascii: "=") || lead == UInt8(ascii: "+")
                || lead == UInt8(ascii: "-") || lead == UInt8(ascii: "@"))
        guard needsQuotes else {
            if prefixed { bytes.append(UInt8(ascii: "'")) }
            bytes.append(contentsOf: value.utf8)
            return
        }
        bytes.append(0x22)
        if prefixed { bytes.append(UInt8(ascii: "'")) }
        for index in utf8.indices {
            let byte = utf8[index]
            if byte == 0x22 { bytes.append(0x22) }
            bytes.append(byte)
        }
        bytes.append(0x22)
    }

    /// `value` in decimal, digit by digit.
    static func appendDecimal(_ value: Int, to bytes: inout [UInt8]) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var divisor: UInt = 1
        while magnitude / divisor >= 10 { divisor *= 10 }
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(magnitude / divisor))
            magnitude %= divisor
            divisor /= 10
        }
    }

    /// `iso8601Milliseconds(date)`, appended without building a String.
    static func appendMilliseconds(_ date: Date, to bytes: inout [UInt8]) {
        let scaled = (date.timeIntervalSince1970 * 1000).rounded()
        guard scaled.isFinite, abs(scaled) < Double(1 << 52) else { return }
        let total = Int(scaled)
        let millis = ((total % 1000) + 1000) % 1000
        let seconds = (total - millis) / 1000
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = civil(days)
        guard year >= 1000, year <= 9999 else {  // as `iso8601` writes them: no padding
            bytes.append(contentsOf: iso8601Milliseconds(date).utf8)
            return
        }
        appendTwoDigits(year / 100, to: &bytes)
        appendTwoDigits(year % 100, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendTwoDigits(month, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendTwoDigits(day, to: &bytes)
        bytes.append(UInt8(ascii: "T"))
        appendTwoDigits(secondOfDay / 3600, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        appendTwoDigits(secondOfDay / 60 % 60, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        appendTwoDigits(secondOfDay % 60, to: &bytes)
        bytes.append(UInt8(ascii: "."))
        bytes.append(UInt8(ascii: "0") + UInt8(millis / 100))
        appendTwoDigits(millis % 100, to: &bytes)
        bytes.append(UInt8(ascii: "Z"))
    }

    /// `value` (0...99) as two digits. A static function the optimiser inlines: a nested
    /// one capturing `bytes` was called, not inlined, eight times a row.
    @inline(__always)
    private static func appendTwoDigits(_ value: Int, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value / 10))
        bytes.append(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value % 10))
    }

    /// The civil date of a day counted from 1970-01-01 (Howard Hinnant's civil-from-days).
    static func civil(_ days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// `2026-11-29T16:20:20Z` from the epoch with integer arithmetic (UTC; Howard
    /// Hinnant's civil-from-days), far faster than a date formatter per cell.
    static func iso8601(_ date: Date?) -> String {
        guard let date else { return "" }
        // Out of Int's range (a damaged record) is no instant to print, and must not trap.
        guard let seconds = Int(exactly: date.timeIntervalSince1970.rounded(.down)), abs(seconds) < 1 << 50 else { return "" }
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = civil(days)
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
