import Foundation
import NFCStore

/// `nfcbench export`: one CSV row per tap.
enum ExportCommand {
    static let spec = CommandSpec(
        "export", abstract: "Export taps as CSV (one row per tap; columns in docs/csv.md).",
        discussion: "RFC 4180, UTF-8, times in ISO 8601 UTC. Text cells starting with = + - @ tab or CR are prefixed with ' (formula injection).",
        options: [
            OptionSpec("--session", value: "id", help: "A session to export (repeatable).", repeatable: true),
            OptionSpec("--model", value: "id", help: "Every session of this model."),
            OptionSpec("--all", help: "Every session."),
            OptionSpec("--format", value: "csv", help: "Output format (csv)."),
            OptionSpec("--output", short: "o", value: "file", help: "Write to this file instead of standard output."),
            SessionCommands.dbOption,
        ],
        handler: run)

    static func run(_ invocation: ParsedInvocation, _ context: CommandContext) async throws -> Int32 {
        if let format = invocation.value("--format"), format != "csv" {
            throw UsageError("Invalid value '\(format)' for '--format': expected csv.", path: invocation.path)
        }
        let selectors = [!invocation.allValues("--session").isEmpty, invocation.value("--model") != nil, invocation.flag("--all")]
        guard selectors.filter({ $0 }).count == 1 else {
            throw UsageError("Choose what to export: --session ID ..., --model M, or --all.", path: invocation.path)
        }
        let path = DatabaseLocation.path(option: invocation.value("--db"), context: context)
        let store = try RunCommand.openStore(path)
        var sessions: [SessionRecord]
        if !invocation.allValues("--session").isEmpty {
            sessions = []
            for id in invocation.allValues("--session") {
                guard let s = try await store.session(id) else { throw CommandFailure("No session '\(id)' in \(path).") }
                sessions.append(s)
            }
        } else {
            sessions = try await SessionCommands.sessions(of: invocation.value("--model"), in: store)
        }
        let sink: CSVSink
        if let file = invocation.value("--output") {
            let url = context.url(forPath: file)
            guard FileManager.default.createFile(atPath: url.path, contents: nil), let handle = try? FileHandle(forWritingTo: url) else {
                throw CommandFailure("Cannot write '\(file)'.", hint: "Check that the folder exists and is writable.")
            }
            sink = CSVSink(handle: handle)
        } else {
            sink = CSVSink(handle: FileHandle.standardOutput)
        }
        // Session cells are the same on every row of a session: format them once.
        let prefixes = Dictionary(uniqueKeysWithValues: sessions.map { ($0.id, Array(CSVFormat.sessionCells($0).utf8)) })
        sink.write(CSVFormat.header)
        try BenchReader(path: path).forEachTap(sessions: sessions.map(\.id)) { tap in
            if let prefix = prefixes[tap.sessionID] { CSVFormat.appendRow(prefix: prefix, tap, to: sink) }
        }
        sink.flush()
        return ExitCode.success
    }
}

/// The export's columns and cell rules.
enum CSVFormat {
    static let columns = [
        "session_id", "session_status", "model_input", "lookup_key", "display_name", "unit", "operator",
        "reader", "reader_firmware", "plan", "verdict", "predicted_x", "predicted_y", "predicted_width", "predicted_height",
        "confidence", "source", "stale", "catalog_version", "session_started_at", "session_ended_at",
        "probe_index", "attempt", "probe_x", "probe_y", "inside_predicted", "result", "latency_ms",
        "technology", "uid", "atqa", "sak", "ats", "atr", "timestamp",
    ]

    static var header: String { columns.joined(separator: ",") + "\r\n" }

    /// The first 21 cells, ending with a comma.
    static func sessionCells(_ s: SessionRecord) -> String {
        let cells: [String] = [
            text(s.id), s.status.rawValue, text(s.modelInput), text(s.lookupKey), text(s.displayName), text(s.unit),
            text(s.operatorName), text(s.readerName), text(s.readerFirmware), s.planKind, s.verdict ?? "",
            fixed(s.predicted?[0], 4), fixed(s.predicted?[1], 4), fixed(s.predicted?[2], 4), fixed(s.predicted?[3], 4),
            s.confidence, s.source, s.stale ? "true" : "false", text(s.catalogVersion), iso8601(s.startedAt), iso8601(s.endedAt),
        ]
        return cells.map(quote).joined(separator: ",") + ","
    }

    static func row(_ s: SessionRecord, _ t: TapRecord) -> String {
        let sink = CSVSink(handle: nil)
        appendRow(prefix: Array(sessionCells(s).utf8), t, to: sink)
        return sink.text
    }

    /// One row, appended as bytes: the hot loop of a million-row export.
    static func appendRow(prefix: [UInt8], _ t: TapRecord, to sink: CSVSink) {
        sink.append(prefix)
        let cells: [String] = [
            String(t.step), String(t.attempt), fixed(t.probeX, 4), fixed(t.probeY, 4), t.insidePredicted ? "true" : "false",
            t.result.rawValue, fixed(t.latencyMs, 1), t.technology ?? "", text(t.uid), text(t.atqa), text(t.sak),
            text(t.ats), text(t.atr), iso8601(t.timestamp),
        ]
        for (i, cell) in cells.enumerated() {
            if i > 0 { sink.append(UInt8(ascii: ",")) }
            sink.append(quote(cell))
        }
        sink.append(UInt8(ascii: "\r"))
        sink.append(UInt8(ascii: "\n"))
    }

    /// `%.Nf` without Foundation's formatter, for non-negative values (all of ours are).
    static func fixed(_ value: Double?, _ digits: Int) -> String {
        guard let value, value.isFinite else { return "" }
        let scale = digits == 4 ? 10_000.0 : digits == 1 ? 10.0 : pow(10, Double(digits))
        let x = abs(value) * scale
        // Near a half, scaling has already rounded; printf rounds the exact binary value.
        if abs(x - x.rounded(.down) - 0.5) < 1e-6 { return String(format: "%.\(digits)f", value) }
        let scaled = Int(x.rounded())
        let whole = scaled / Int(scale), fraction = String(scaled % Int(scale))
        return (value < 0 ? "-" : "") + "\(whole)." + String(repeating: "0", count: digits - fraction.count) + fraction
    }

    /// `2026-11-29T16:20:20Z` from the epoch with integer arithmetic (UTC; Howard
    /// Hinnant's civil-from-days), far faster than a date formatter per cell.
    static func iso8601(_ date: Date?) -> String {
        guard let date else { return "" }
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
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
        return "\(year)-\(two(month))-\(two(day))T\(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60))Z"
    }

    /// Free text from operators and catalogs: neutralised against spreadsheet formulas.
    static func text(_ value: String?) -> String {
        guard let value, let first = value.unicodeScalars.first else { return "" }
        return "=+-@\t\r".unicodeScalars.contains(first) ? "'" + value : value
    }

    /// RFC 4180: quote cells containing a comma, quote, CR or LF; double inner quotes.
    static func quote(_ cell: String) -> String {
        guard cell.utf8.contains(where: { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }) else { return cell }
        return "\"" + cell.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

/// Buffered writes (64 KiB), so a million rows stream in flat memory. With no handle it
/// only collects (for single rows and tests).
final class CSVSink {
    private let handle: FileHandle?
    private var buffer: [UInt8] = []

    init(handle: FileHandle?) {
        self.handle = handle
        buffer.reserveCapacity(70_000)
    }

    func write(_ text: String) { append(Array(text.utf8)) }
    func append(_ bytes: [UInt8]) { buffer.append(contentsOf: bytes); flushIfFull() }
    func append(_ byte: UInt8) { buffer.append(byte) }
    func append(_ text: String) { buffer.append(contentsOf: text.utf8); flushIfFull() }

    var text: String { String(decoding: buffer, as: UTF8.self) }

    private func flushIfFull() { if buffer.count >= 65_536 { flush() } }

    func flush() {
        guard let handle, !buffer.isEmpty else { return }
        handle.write(Data(buffer))
        buffer.removeAll(keepingCapacity: true)
    }
}
