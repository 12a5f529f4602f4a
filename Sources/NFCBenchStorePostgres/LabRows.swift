import Foundation
import NFCBenchRecords
import NFCLocatorCore
import NFCPostgres
import NFCReaders

/// Lab store rows: the columns in the order the SELECTs list them, the values a push
/// binds, and the validated decoding of each row into the typed records (the same
/// ranges the bench database checks: a damaged or hand-edited row is refused, named).
enum LabRows {
    static let sessionColumns = """
        station, id, model_input, lookup_key, display_name, zone_x, zone_y, zone_width, zone_height, confidence, source,
        stale, catalog_version, aspect_ratio, reader_name, reader_firmware, unit, operator, plan_kind, plan_json, plan_pass,
        plan_focus, repeats, tap_timeout, status, started_at, ended_at, verdict, verdict_reason, measured_x, measured_y,
        measured_width, measured_height, iou, body_height_mm, simulated, void_reason, voided_at, mode, model_typed,
        phone_os, phone_build, phone_case, reader_serial, reader_antenna_width_mm, reader_antenna_height_mm, reader_gap_mm,
        reader_geometry_source, temperature_c, humidity_pct
        """
    static let sessionSelect = "SELECT \(sessionColumns) FROM lab_session"

    static let tapColumns = """
        station, session_id, step, attempt, probe_x, probe_y, inside_predicted, result, latency_ms, technology, uid, atqa,
        sak, ats, atr, timestamp, tag_progress, placement, window_s, platform_probe, height_mm, coupling, coupling_tried,
        coupling_ladder
        """

    static let tapColumnNames = names(tapColumns)

    static let eventColumns = "station, session_id, sequence, at, kind, step, details"
    static let eventColumnNames = names(eventColumns)

    /// The push's upsert of a session row with its revision: a conflict on the key
    /// replaces every other column (built once; `sessionValues` binds `$1`...).
    static let sessionUpsert: String = {
        let columns = names(sessionColumns) + ["revision"]
        let updates = columns.dropFirst(2).map { "\($0) = EXCLUDED.\($0)" }.joined(separator: ", ")
        return "INSERT INTO lab_session (\(columns.joined(separator: ", "))) VALUES ("
            + (1...columns.count).map { "$\($0)" }.joined(separator: ", ")
            + ") ON CONFLICT (station, id) DO UPDATE SET \(updates), synced_at = now()"
    }()

    static func names(_ list: String) -> [String] {
        list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
    }

    static func sessionValues(_ s: SessionRecord, station: String, revision: Int64) -> [PostgresValue] {
        [
            .text(station), .text(s.id), .text(s.modelInput), .text(s.lookupKey), .optional(s.displayName),
            .optional(s.predicted?.x), .optional(s.predicted?.y), .optional(s.predicted?.width), .optional(s.predicted?.height),
            .text(s.confidence.rawValue), .text(s.source.rawValue), .bool(s.stale), .optional(s.catalogVersion),
            .real(s.aspectRatio), .text(s.reader.description), .optional(s.readerFirmware), .optional(s.unit),
            .optional(s.operatorName), .text(s.plan.rawValue), .text(PlannedProbes.json(s.plannedProbes)),
            .integer(Int64(s.planPass)), .optional(s.planFocus?.stored), .integer(Int64(s.repeats)), .real(s.tapTimeout),
            .text(s.status.rawValue), .real(s.startedAt.timeIntervalSince1970), .optional(s.endedAt?.timeIntervalSince1970),
            .optional(s.verdict?.rawValue), .optional(s.verdictReason), .optional(s.measured?.x), .optional(s.measured?.y),
            .optional(s.measured?.width), .optional(s.measured?.height), .optional(s.iou), .optional(s.bodyHeightMm),
            .bool(s.simulated), .optional(s.voidReason), .optional(s.voidedAt?.timeIntervalSince1970), .text(s.mode.rawValue),
            .optional(s.modelTyped), .optional(s.phone.os), .optional(s.phone.build), .optional(s.phone.phoneCase),
            .optional(s.readerSerial), .optional(s.readerGeometry?.antennaWidthMm),
            .optional(s.readerGeometry?.antennaHeightMm), .optional(s.readerGeometry?.gapMm),
            .optional(s.readerGeometry?.source), .optional(s.conditions.temperatureC), .optional(s.conditions.humidityPct),
            .integer(revision),
        ]
    }

    static func tapValues(_ t: TapRecord, station: String) -> [PostgresValue] {
        [
            .text(station), .text(t.sessionID), .integer(Int64(t.step)), .integer(Int64(t.attempt)), .real(t.probe.x),
            .real(t.probe.y), .bool(t.insidePredicted), .text(t.result.rawValue), .optional(t.latencyMs),
            .optional(t.technology), .optional(t.uid), .optional(t.atqa), .optional(t.sak), .optional(t.ats),
            .optional(t.atr), .real(t.timestamp.timeIntervalSince1970), .optional(t.tagProgress?.rawValue),
            .optional(t.placement?.rawValue), .optional(t.windowSeconds), .optional(t.platformProbe?.rawValue),
            .optional(t.probe.isAtTapHeight ? nil : t.probe.heightMm), .optional(t.coupling), .optional(t.couplingTried),
            .optional(t.couplingLadder),
        ]
    }

    static func eventValues(_ e: SessionEvent, station: String) -> [PostgresValue] {
        [
            .text(station), .text(e.sessionID), .integer(Int64(e.sequence)), .real(e.at.timeIntervalSince1970),
            .text(e.kind.rawValue), e.step.map { .integer(Int64($0)) } ?? .null, .text(e.storedDetails),
        ]
    }

    /// An event, its session id given as the session's reference (`station/id`), as taps are.
    static func event(_ rows: PostgresRows, _ r: Int) throws -> SessionEvent {
        var v = LabValues(rows: rows, index: r, table: "lab_event", row: "?")
        let reference = SessionReference(station: try v.text(0), id: try v.text(1)).description
        let sequence = try v.integer(2, in: StoredRanges.eventSequence)
        v.row = "\(reference) event \(sequence)"
        guard let details = SessionEvent.details(stored: try v.text(6)) else {
            throw v.fail(6, expected: "a JSON object of strings")
        }
        return SessionEvent(
            sessionID: reference, sequence: sequence, at: try v.date(3), kind: try v.name(4, as: SessionEvent.Kind.self),
            step: v.optionalText(5) == nil ? nil : try v.integer(5, in: StoredRanges.step), details: details)
    }

    static func session(_ rows: PostgresRows, _ r: Int) throws -> SessionRecord {
        var v = LabValues(rows: rows, index: r, table: "lab_session", row: "?")
        let station = try v.text(0)
        let id = try v.text(1)
        v.row = "\(station)/\(id)"
        let readerText = try v.text(14)
        guard let reader = try? ReaderSpec(recorded: readerText) else {
            throw v.fail(14, expected: "a reader spec (libnfc:..., pcsc:... or sim)")
        }
        guard let planned = PlannedProbes.parse(try v.text(19)) else {
            throw v.fail(19, expected: "a JSON list of [x, y] fractions")
        }
        var focus: PlanFocus?
        if let text = v.optionalText(21) {
            guard let parsed = PlanFocus(stored: text) else { throw v.fail(21, expected: "edge intervals") }
            focus = parsed
        }
        return SessionRecord(
            id: id, modelInput: try v.text(2), lookupKey: try v.text(3), displayName: v.optionalText(4),
            predicted: try v.rect(5), confidence: try v.name(9, as: Confidence.self), source: try v.name(10, as: DataSource.self),
            stale: try v.bool(11), catalogVersion: v.optionalText(12),
            aspectRatio: try v.number(13, in: StoredRanges.aspectRatio),
            reader: reader, readerFirmware: v.optionalText(15), unit: v.optionalText(16), operatorName: v.optionalText(17),
            plan: try v.name(18, as: PlanKind.self), planPass: try v.integer(20, in: StoredRanges.planPass),
            plannedProbes: planned,
            repeats: try v.integer(
                22, in: StoredRanges.repeats),
            tapTimeout: try v.number(23, in: SessionRecord.storedTapTimeouts),
            status: try v.name(24, as: SessionRecord.Status.self), startedAt: try v.date(25),
            endedAt: try v.optionalDate(26), verdict: try v.optionalName(27, as: SessionVerdict.self),
            measured: try v.rect(29), iou: try v.optionalNumber(33, in: StoredRanges.fraction),
            bodyHeightMm: try v.optionalNumber(34, in: StoredRanges.bodyHeightMm), simulated: try v.bool(35),
            verdictReason: v.optionalText(28), voidReason: v.optionalText(36), voidedAt: try v.optionalDate(37),
            planFocus: focus, station: station, mode: try v.name(38, as: TapMode.self), modelTyped: v.optionalText(39),
            phone: PhoneDetails(os: v.optionalText(40), build: v.optionalText(41), phoneCase: v.optionalText(42)),
            readerSerial: v.optionalText(43), readerGeometry: try geometry(v),
            conditions: BenchConditions(
                temperatureC: try v.optionalNumber(48, in: BenchConditions.temperatures),
                humidityPct: try v.optionalNumber(49, in: BenchConditions.humidities)))
    }

    /// Columns 44-47: all NULL (unknown) or a geometry within `ReaderGeometry`'s ranges.
    static func geometry(_ v: LabValues) throws -> ReaderGeometry? {
        if (44...47).allSatisfy({ v.optionalText($0) == nil }) { return nil }
        return ReaderGeometry(
            antennaWidthMm: try v.number(44, in: ReaderGeometry.antennaSides),
            antennaHeightMm: try v.number(45, in: ReaderGeometry.antennaSides),
            gapMm: try v.number(46, in: ReaderGeometry.gaps), source: try v.text(47))
    }

    /// A tap, its session id given as the session's reference (`station/id`): a lab
    /// store pools stations whose ids may coincide.
    static func tap(_ rows: PostgresRows, _ r: Int) throws -> TapRecord {
        var v = LabValues(rows: rows, index: r, table: "lab_tap", row: "?")
        let reference = SessionReference(station: try v.text(0), id: try v.text(1)).description
        let step = try v.integer(2, in: StoredRanges.step), attempt = try v.integer(3, in: StoredRanges.attempt)
        v.row = "\(reference) step \(step) attempt \(attempt)"
        return TapRecord(
            sessionID: reference, step: step, attempt: attempt,
            probe: Probe(
                x: try v.number(4, in: StoredRanges.fraction), y: try v.number(5, in: StoredRanges.fraction),
                heightMm: try v.optionalNumber(20, in: ProbeHeights.range) ?? 0),
            insidePredicted: try v.bool(6), result: try v.name(7, as: TapRecord.Result.self),
            latencyMs: try v.optionalNumber(8, in: StoredRanges.latencyMs), technology: v.optionalText(9),
            uid: v.optionalText(10),
            atqa: v.optionalText(11), sak: v.optionalText(12), ats: v.optionalText(13), atr: v.optionalText(14),
            timestamp: try v.date(15), tagProgress: try v.optionalName(16, as: TagProgress.self),
            placement: try v.optionalName(17, as: TapPlacement.self),
            windowSeconds: try v.optionalNumber(18, in: SessionRecord.storedTapTimeouts),
            platformProbe: try v.optionalName(19, as: PlatformProbe.self),
            coupling: try v.optionalNumber(21, in: 0...1), couplingTried: v.optionalText(22),
            couplingLadder: v.optionalText(23))
    }
}

/// One row's columns as the values they mean; anything else is a `RecordDecodingError`.
struct LabValues {
    let rows: PostgresRows
    let index: Int
    let table: String
    var row: String

    func fail(_ column: Int, expected: String) -> RecordDecodingError {
        RecordDecodingError(
            table: table, column: rows.columns[column], row: row,
            value: rows.text(index, column).map { "'\($0.prefix(80))'" } ?? "NULL", expected: expected)
    }

    func text(_ c: Int) throws(RecordDecodingError) -> String {
        guard let t = rows.text(index, c) else { throw fail(c, expected: "text") }
        return t
    }

    func optionalText(_ c: Int) -> String? { rows.text(index, c) }

    func number(_ c: Int, in range: ClosedRange<Double>) throws(RecordDecodingError) -> Double {
        guard let t = rows.text(index, c), let d = Double(t), d.isFinite, range.contains(d) else {
            throw fail(c, expected: "a finite number in \(range.lowerBound)...\(range.upperBound)")
        }
        return d
    }

    func optionalNumber(_ c: Int, in range: ClosedRange<Double>) throws(RecordDecodingError) -> Double? {
        rows.text(index, c) == nil ? nil : try number(c, in: range)
    }

    func integer(_ c: Int, in range: ClosedRange<Int64>) throws(RecordDecodingError) -> Int {
        guard let t = rows.text(index, c), let i = Int64(t), range.contains(i) else {
            throw fail(c, expected: "a whole number in \(range.lowerBound)...\(range.upperBound)")
        }
        return Int(i)
    }

    func bool(_ c: Int) throws(RecordDecodingError) -> Bool {
        switch rows.text(index, c) {
        case "t": return true
        case "f": return false
        default: throw fail(c, expected: "a boolean")
        }
    }

    func date(_ c: Int) throws(RecordDecodingError) -> Date {
        Date(timeIntervalSince1970: try number(c, in: StoredRanges.instants))
    }

    func optionalDate(_ c: Int) throws(RecordDecodingError) -> Date? { rows.text(index, c) == nil ? nil : try date(c) }

    func name<T: RawRepresentable & CaseIterable>(_ c: Int, as: T.Type) throws(RecordDecodingError) -> T
    where T.RawValue == String {
        guard let value = T(rawValue: try text(c)) else {
            throw fail(c, expected: "one of " + T.allCases.map(\.rawValue).joined(separator: ", "))
        }
        return value
    }

    func optionalName<T: RawRepresentable & CaseIterable>(_ c: Int, as type: T.Type) throws(RecordDecodingError) -> T?
    where T.RawValue == String {
        rows.text(index, c) == nil ? nil : try name(c, as: type)
    }

    /// Four columns from `first`: all NULL (no zone) or a valid rectangle.
    func rect(_ first: Int) throws(RecordDecodingError) -> NormalizedRect? {
        if (first..<first + 4).allSatisfy({ rows.text(index, $0) == nil }) { return nil }
        var values: [Double] = []
        for c in first..<first + 4 { values.append(try number(c, in: StoredRanges.fraction)) }
        guard let rect = try? NormalizedRect(x: values[0], y: values[1], width: values[2], height: values[3]) else {
            throw fail(first, expected: "a rectangle inside the unit square")
        }
        return rect
    }
}
