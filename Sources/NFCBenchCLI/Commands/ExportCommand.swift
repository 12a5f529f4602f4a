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
            sessions = try await store.sessions(lookupKeys: invocation.value("--model").map(SessionCommands.modelKeys))
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
        let bySession = Dictionary(uniqueKeysWithValues: sessions.map { ($0.id, $0) })
        sink.write(CSVFormat.header)
        try BenchReader(path: path).forEachTap(sessions: sessions.map(\.id)) { tap in
            if let s = bySession[tap.sessionID] { sink.write(CSVFormat.row(s, tap)) }
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

    static func row(_ s: SessionRecord, _ t: TapRecord) -> String {
        func num(_ v: Double?) -> String { v.map { String(format: "%.4f", $0) } ?? "" }
        func time(_ d: Date?) -> String { d.map { $0.formatted(.iso8601) } ?? "" }
        let cells: [String] = [
            text(s.id), s.status.rawValue, text(s.modelInput), text(s.lookupKey), text(s.displayName), text(s.unit),
            text(s.operatorName), text(s.readerName), text(s.readerFirmware), s.planKind, s.verdict ?? "",
            num(s.predicted?[0]), num(s.predicted?[1]), num(s.predicted?[2]), num(s.predicted?[3]),
            s.confidence, s.source, s.stale ? "true" : "false", text(s.catalogVersion), time(s.startedAt), time(s.endedAt),
            String(t.step), String(t.attempt), num(t.probeX), num(t.probeY), t.insidePredicted ? "true" : "false",
            t.result.rawValue, t.latencyMs.map { String(format: "%.1f", $0) } ?? "",
            t.technology ?? "", t.uid ?? "", t.atqa ?? "", t.sak ?? "", t.ats ?? "", t.atr ?? "", time(t.timestamp),
        ]
        return cells.map(quote).joined(separator: ",") + "\r\n"
    }

    /// Free text from operators and catalogs: neutralised against spreadsheet formulas.
    static func text(_ value: String?) -> String {
        guard let value, let first = value.unicodeScalars.first else { return "" }
        return "=+-@\t\r".unicodeScalars.contains(first) ? "'" + value : value
    }

    /// RFC 4180: quote cells containing a comma, quote, CR or LF; double inner quotes.
    static func quote(_ cell: String) -> String {
        guard cell.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) else { return cell }
        return "\"" + cell.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

/// Buffered writes (64 KiB), so a million rows stream in flat memory.
final class CSVSink {
    private let handle: FileHandle
    private var buffer = Data()

    init(handle: FileHandle) {
        self.handle = handle
        buffer.reserveCapacity(70_000)
    }

    func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 65_536 { flush() }
    }

    func flush() {
        guard !buffer.isEmpty else { return }
        handle.write(buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}
