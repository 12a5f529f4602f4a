import Foundation
import NFCBenchRecords
import NFCLocatorCore

/// One CSV row per session (columns in docs/csv.md), with the same quoting and formula
/// neutralising as the tap CSV. The score is recomputed from the taps, as every report
/// format does, so unfinished sessions still show where their taps point.
public struct CSVSessionExporter: SessionExporter {
    public init() {}

    public static let columns = [
        "session_id", "session_status", "model_input", "lookup_key", "display_name", "unit", "operator", "reader",
        "reader_firmware", "simulated", "void", "void_reason", "plan", "verdict", "verdict_reason",
        "predicted_x", "predicted_y", "predicted_width", "predicted_height",
        "predicted_left_mm", "predicted_top_mm", "predicted_width_mm", "predicted_height_mm",
        "measured_x", "measured_y", "measured_width", "measured_height",
        "measured_left_mm", "measured_top_mm", "measured_width_mm", "measured_height_mm",
        "iou", "centre_offset", "centre_offset_mm", "taps", "hits", "skipped", "body_width_mm", "body_height_mm",
        "session_started_at", "session_ended_at", "station", "mode", "partial_positions", "foreign_answers",
        "model_typed", "phone_os", "phone_build", "phone_case", "reader_serial",
        "reader_antenna_width_mm", "reader_antenna_height_mm", "reader_gap_mm", "reader_geometry_source",
        "partial_reads", "layers", "verdict_positions", "verdict_positions_read", "temperature_c", "humidity_pct",
    ]

    public func export(_ sessions: SessionSource, from store: any BenchReading, to sink: ExportSink) async throws {
        try sink.write(Self.columns.joined(separator: ",") + "\r\n")
        try await sessions.forEach(in: store) { session in
            guard let taps = try await store.intactTaps(of: session) else { return }
            try sink.write(Self.row(ReportedSession(session, taps: taps)))
        }
        try sink.flush()
    }

    static func row(_ r: ReportedSession) -> String {
        let s = r.session, score = r.score, counted = r.tapSummary
        func fractions(_ z: NormalizedRect?) -> [String] {
            [z?.x, z?.y, z?.width, z?.height].map { FixedPoint.format($0, 4) }
        }
        func millimetres(_ z: NormalizedRect?) -> [String] {
            guard let z, let body = r.body else { return ["", "", "", ""] }
            return [z.x * body.width, z.y * body.height, z.width * body.width, z.height * body.height].map {
                FixedPoint.format($0, 1)
            }
        }
        var cells: [String] = [
            CSVFormat.text(s.id), s.status.rawValue, CSVFormat.text(s.modelInput), CSVFormat.text(s.lookupKey),
            CSVFormat.text(s.displayName), CSVFormat.text(s.unit), CSVFormat.text(s.operatorName),
            CSVFormat.text(s.reader.description), CSVFormat.text(s.readerFirmware), s.simulated ? "true" : "false",
            s.isVoid ? "true" : "false", CSVFormat.text(s.voidReason), s.plan.rawValue,
            s.status == .completed ? score.verdict.rawValue : "", s.status == .completed ? CSVFormat.text(score.reason) : "",
        ]
        cells += fractions(s.predicted) + millimetres(s.predicted) + fractions(score.measured) + millimetres(score.measured)
        cells += [
            FixedPoint.format(score.iou, 3), FixedPoint.format(score.centreOffset, 4),
            FixedPoint.format(score.centreOffset.flatMap { o in s.bodyHeightMm.map { o * $0 } }, 1),
            String(counted.taps), String(counted.hits), String(counted.skips),
            FixedPoint.format(r.body?.width, 1), FixedPoint.format(r.body?.height, 1),
            CSVFormat.iso8601(s.startedAt), CSVFormat.iso8601(s.endedAt), CSVFormat.text(s.station), s.mode.rawValue,
            String(r.partialPositions.count), String(r.positions.reduce(0) { $0 + $1.foreignAnswers }),
            CSVFormat.text(s.modelTyped), CSVFormat.text(s.phone.os), CSVFormat.text(s.phone.build),
            CSVFormat.text(s.phone.phoneCase), CSVFormat.text(s.readerSerial),
            FixedPoint.format(s.readerGeometry?.antennaWidthMm, 1), FixedPoint.format(s.readerGeometry?.antennaHeightMm, 1),
            FixedPoint.format(s.readerGeometry?.gapMm, 1), CSVFormat.text(s.readerGeometry?.source),
            String(counted.partialReads), CSVFormat.text(counted.layers.map(\.words).joined(separator: "; ")),
            String(score.taps), String(score.hits),
            s.conditions.temperatureC.map(BenchConditions.figure) ?? "",
            s.conditions.humidityPct.map(BenchConditions.figure) ?? "",
        ]
        return cells.map(CSVFormat.quote).joined(separator: ",") + "\r\n"
    }
}
