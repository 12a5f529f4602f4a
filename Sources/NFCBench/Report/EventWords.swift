import Foundation
import NFCBenchRecords

/// A session event in the words a timeline prints: `show --events` and the HTML report.
public enum EventWords {
    public static func describe(_ e: SessionEvent) -> String {
        let d = e.details
        let at = e.step.map { "position \($0 + 1): " } ?? ""
        func seconds(_ key: String) -> String { d[key].map { trimmed($0) + " s" } ?? "?" }
        switch e.kind {
        case .started:
            return "session started" + setup(d)
        case .resumed:
            return "resumed with \(d["tapsRecorded"] ?? "?") taps recorded" + setup(d)
        case .ready:
            // Sessions before the gate looked at the field record no `field`.
            guard let field = d["field"], field != "clear" else {
                return "operator ready: the phone is prepared and the field is clear"
            }
            return "operator ready; field " + field
        case .placed:
            return at
                + (d["by"] == TapPlacement.confirmedByOperator.rawValue
                    ? "placement confirmed by the operator" : "placed by the positioner")
        case .answeredWhilePlacing:
            return at + "\(d["responder"] ?? "the phone") answered while the phone was being placed (not the tap)"
        case .window: return at + "window of \(seconds("seconds")): \(d["outcome"] ?? "?")"
        case .undo: return at + "undo (removed its \(d["result"] ?? "last") tap)"
        case .retry: return at + "retry"
        case .skip: return at + "skipped"
        case .quit: return "quit by the operator; saved"
        case .interrupted: return "interrupted (Ctrl-C); saved"
        case .readerLost: return at + "READER LOST: \(d["error"] ?? "")"
        case .readerFault: return at + "READER FAULT: \(d["error"] ?? "")"
        case .readerRecovered: return at + "the reader answers again"
        case .foreign: return at + "FOREIGN: \(d["responder"] ?? "another target") answered (\(d["reason"] ?? ""))"
        case .positionerFailed: return "positioner failed: \(d["reason"] ?? "")"
        case .tapWindowChanged: return "tap window changed from \(seconds("from")) to \(seconds("to"))"
        case .suspended: return "saved: \(d["reason"] ?? "")"
        case .finished: return "completed: \(d["verdict"] ?? "")"
        case .voided:
            return "voided by \(d["by"] ?? "?"): \(d["reason"] ?? "")"
                + (d["replaces"].map { " (it was void already: \($0))" } ?? "")
        case .note: return "note by \(d["by"] ?? "?"): \(d["note"] ?? "")"
        case .equipment:
            let items = d.keys.filter { $0 != "outOfCalibration" }.sorted().map { "\($0): \(d[$0] ?? "")" }
            return "equipment: " + items.joined(separator: "; ")
                + (d["outOfCalibration"].map { " (OUT OF CALIBRATION: \($0))" } ?? "")
        }
    }

    private static func setup(_ d: [String: String]) -> String {
        var parts: [String] = []
        if let positioner = d["positioner"] { parts.append("positioner \(positioner)") }
        if let reader = d["reader"] { parts.append("reader \(reader)") }
        if let window = d["tapWindow"] { parts.append("tap window \(trimmed(window)) s") }
        if d["crossing"] == "field off" { parts.append("crossing with the reader's field off") }
        if let restored = d["readerRestored"] { parts.append("reader found weakened: \(restored)") }
        return parts.isEmpty ? "" : " (" + parts.joined(separator: ", ") + ")"
    }

    /// "1.000" → "1", "0.250" → "0.25".
    static func trimmed(_ number: String) -> String {
        guard number.contains(".") else { return number }
        var text = number
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    /// `2026-12-02T01:30:12.345Z`: a timeline's instants carry milliseconds.
    public static func instant(_ date: Date) -> String { CSVFormat.iso8601Milliseconds(date) }
}
