import Foundation
import NFCBenchRecords
import NFCLocatorCore
import NFCReaders
import NFCStore

/// Session and tap rows: the columns in the order the SELECTs list them, and the
/// validated decoding of each.
enum RecordRows {
    static let sessionSelect = """
        SELECT id, model_input, lookup_key, display_name, zone_x, zone_y, zone_width, zone_height, confidence, source,
            stale, catalog_version, aspect_ratio, reader_backend, reader_name, reader_firmware, unit, operator, plan_kind,
            plan_json, repeats, tap_timeout, status, started_at, ended_at, verdict, measured_x, measured_y, measured_width,
            measured_height, iou, plan_pass, simulated, body_height_mm, verdict_reason, void_reason, voided_at,
            plan_focus, checksum, station, mode, model_typed, phone_os, phone_build, phone_case, reader_serial,
            reader_antenna_width_mm, reader_antenna_height_mm, reader_gap_mm, reader_geometry_source, temperature_c,
            humidity_pct FROM session
        """

    static let tapSelect = """
        SELECT session_id, step, attempt, probe_x, probe_y, inside_predicted, result, latency_ms, technology, uid, atqa,
            sak, ats, atr, timestamp, checksum, tag_progress, placement, window_s, platform_probe, height_mm, coupling, coupling_tried,
            coupling_ladder FROM tap
        """

    static func session(from s: SQLiteStatement) throws(RecordDecodingError) -> SessionRecord {
        var v = StoredValues(statement: s, table: "session", row: "rowid ?")
        let id = try v.text((0, "id"))
        v.row = id
        let readerText = try v.text((14, "reader_name"))
        let backend = try v.text((13, "reader_backend"))
        // The spec's form, and its scheme the backend recorded beside it: a value altered
        // on disk rarely keeps both.
        guard let reader = try? ReaderSpec(recorded: readerText), reader.scheme == backend else {
            throw v.fail(
                (14, "reader_name"), expected: "a reader spec of the recorded backend '\(backend)' (libnfc:..., pcsc:... or sim)")
        }
        guard let planned = PlannedProbes.parse(try v.text((19, "plan_json"))) else {
            throw v.fail((19, "plan_json"), expected: "a JSON list of [x, y] fractions")
        }
        var focus: PlanFocus?
        if let text = try v.optionalText((37, "plan_focus")) {
            guard let parsed = PlanFocus(stored: text) else {
                throw v.fail(
                    (37, "plan_focus"), expected: "edge intervals as 'sessions=N left=v,low,high top=… right=… bottom=…'")
            }
            focus = parsed
        }
        let record = SessionRecord(
            id: id, modelInput: try v.text((1, "model_input")), lookupKey: try v.text((2, "lookup_key")),
            displayName: try v.optionalText((3, "display_name")),
            predicted: try rect(v, first: 4, names: ["zone_x", "zone_y", "zone_width", "zone_height"]),
            confidence: try v.name((8, "confidence"), as: Confidence.self),
            source: try v.name((9, "source"), as: DataSource.self),
            stale: try v.bool((10, "stale")), catalogVersion: try v.optionalText((11, "catalog_version")),
            aspectRatio: try v.number((12, "aspect_ratio"), in: StoredRanges.aspectRatio), reader: reader,
            readerFirmware: try v.optionalText((15, "reader_firmware")), unit: try v.optionalText((16, "unit")),
            operatorName: try v.optionalText((17, "operator")), plan: try v.name((18, "plan_kind"), as: PlanKind.self),
            planPass: try v.integer((31, "plan_pass"), in: StoredRanges.planPass), plannedProbes: planned,
            repeats: try v.integer(
                (20, "repeats"), in: StoredRanges.repeats),
            tapTimeout: try v.number((21, "tap_timeout"), in: SessionRecord.storedTapTimeouts),
            status: try v.name((22, "status"), as: SessionRecord.Status.self), startedAt: try v.date((23, "started_at")),
            endedAt: try v.optionalDate((24, "ended_at")), verdict: try v.optionalName((25, "verdict"), as: SessionVerdict.self),
            measured: try rect(v, first: 26, names: ["measured_x", "measured_y", "measured_width", "measured_height"]),
            iou: try v.optionalNumber((30, "iou"), in: StoredRanges.fraction),
            bodyHeightMm: try v.optionalNumber((33, "body_height_mm"), in: StoredRanges.bodyHeightMm),
            simulated: try v.bool((32, "simulated")),
            verdictReason: try v.optionalText((34, "verdict_reason")),
            voidReason: try v.optionalText((voidReasonColumn, "void_reason")),
            voidedAt: try v.optionalDate((36, "voided_at")), planFocus: focus, station: try station(v),
            mode: try v.optionalName((modeColumn, "mode"), as: TapMode.self) ?? .card,
            modelTyped: try v.optionalText((41, "model_typed")),
            phone: PhoneDetails(
                os: try v.optionalText((42, "phone_os")), build: try v.optionalText((43, "phone_build")),
                phoneCase: try v.optionalText((44, "phone_case"))),
            readerSerial: try v.optionalText((45, "reader_serial")), readerGeometry: try geometry(v),
            conditions: BenchConditions(
                temperatureC: try v.optionalNumber((50, "temperature_c"), in: BenchConditions.temperatures),
                humidityPct: try v.optionalNumber((51, "humidity_pct"), in: BenchConditions.humidities)))
        // Values in range can still be altered ones.
        try verifySessionChecksum(s, id: id)
        return record
    }

    /// The columns a session row's checksum covers: every one `sessionSelect` lists before
    /// it, and the station after it when there is one (rows from before migration 008
    /// have none, so their checksums still hold).
    static let sessionChecksummed: Int32 = 38
    static let voidReasonColumn: Int32 = 35
    static let stationColumn: Int32 = 39
    static let modeColumn: Int32 = 40
    /// model_typed, phone_os, phone_build, phone_case (migration 012), reader_serial (013),
    /// the reader's geometry (018), the room's conditions (020).
    static let detailColumns: [Int32] = [41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51]

    /// The four geometry columns: all NULL (unknown) or all within `ReaderGeometry`'s ranges.
    static func geometry(_ v: StoredValues) throws(RecordDecodingError) -> ReaderGeometry? {
        let names = ["reader_antenna_width_mm", "reader_antenna_height_mm", "reader_gap_mm", "reader_geometry_source"]
        let columns = (0..<4).map { (Int32(46 + $0), names[$0]) }
        if columns.allSatisfy({ v.statement.type($0.0) == .null }) { return nil }
        return ReaderGeometry(
            antennaWidthMm: try v.number(columns[0], in: ReaderGeometry.antennaSides),
            antennaHeightMm: try v.number(columns[1], in: ReaderGeometry.antennaSides),
            gapMm: try v.number(columns[2], in: ReaderGeometry.gaps), source: try v.text(columns[3]))
    }

    /// Later columns join the checksum only when they hold a value, so rows written before
    /// them keep theirs (card mode is stored as NULL for the same reason).
    /// A session row that did not decode, as the listings note it: its id as stored
    /// (even when the id itself is what is wrong) and whether it is marked void.
    static func damaged(_ s: SQLiteStatement, _ problem: RecordDecodingError) -> DamagedSession {
        let id = s.type(0) == .text ? (s.text(0) ?? "?") : "rowid ?"
        return DamagedSession(reference: id, problem: problem, isVoid: s.type(voidReasonColumn) != .null)
    }

    static func checksummedValues(_ s: SQLiteStatement) -> [SQLiteStatement.Value] {
        (0..<sessionChecksummed).map { s.value($0) }
            + ([stationColumn, modeColumn] + detailColumns).filter { s.type($0) != .null }.map { s.value($0) }
    }

    static func station(_ v: StoredValues) throws(RecordDecodingError) -> String? {
        guard let name = try v.optionalText((stationColumn, "station")) else { return nil }
        if StationName.validate(name) != nil { throw v.fail((stationColumn, "station"), expected: "a station name") }
        return name
    }

    /// Throws when the row's stored checksum no longer matches its values. Rows written
    /// before migration 007 carry none and are not checked.
    static func verifySessionChecksum(_ s: SQLiteStatement, id: String) throws(RecordDecodingError) {
        guard s.type(sessionChecksummed) != .null else { return }
        let v = StoredValues(statement: s, table: "session", row: id)
        let stored = try v.integer((sessionChecksummed, "checksum"), in: Int64.min...Int64.max)
        guard RowChecksum.of(checksummedValues(s)) == Int64(stored) else {
            throw v.fail(
                (sessionChecksummed, "checksum"),
                expected: "the checksum of the row's values: the row changed after it was written")
        }
    }

    /// Four columns that are all NULL (no zone) or a valid rectangle.
    static func rect(_ v: StoredValues, first: Int32, names: [String]) throws(RecordDecodingError) -> NormalizedRect? {
        let columns = (0..<4).map { (first + Int32($0), names[$0]) }
        if columns.allSatisfy({ v.statement.type($0.0) == .null }) { return nil }
        var values: [Double] = []
        for c in columns { values.append(try v.number(c, in: StoredRanges.fraction)) }
        do { return try NormalizedRect(x: values[0], y: values[1], width: values[2], height: values[3]) } catch {
            let bad = columns.first { $0.1.hasSuffix(error.field) } ?? columns[0]
            throw v.fail(bad, expected: "a rectangle inside the unit square (\(error))")
        }
    }

    static func sessionValues(_ s: SessionRecord) -> [SQLiteStatement.Value] {
        [
            .text(s.id), .text(s.modelInput), .text(s.lookupKey), .optionalText(s.displayName),
            .optionalReal(s.predicted?.x), .optionalReal(s.predicted?.y), .optionalReal(s.predicted?.width),
            .optionalReal(s.predicted?.height), .text(s.confidence.rawValue), .text(s.source.rawValue), .integer(s.stale ? 1 : 0),
            .optionalText(s.catalogVersion), .real(s.aspectRatio), .text(s.readerBackend.rawValue), .text(s.reader.description),
            .optionalText(s.readerFirmware), .optionalText(s.unit), .optionalText(s.operatorName), .text(s.plan.rawValue),
            .text(PlannedProbes.json(s.plannedProbes)), .integer(Int64(s.repeats)), .real(s.tapTimeout), .text(s.status.rawValue),
            .real(s.startedAt.timeIntervalSince1970), .integer(Int64(s.planPass)), .integer(s.simulated ? 1 : 0),
            .optionalReal(s.bodyHeightMm), .optionalText(s.planFocus?.stored), .optionalText(s.station),
            .optionalText(s.mode == .card ? nil : s.mode.rawValue), .optionalText(s.modelTyped), .optionalText(s.phone.os),
            .optionalText(s.phone.build), .optionalText(s.phone.phoneCase), .optionalText(s.readerSerial),
            .optionalReal(s.readerGeometry?.antennaWidthMm), .optionalReal(s.readerGeometry?.antennaHeightMm),
            .optionalReal(s.readerGeometry?.gapMm), .optionalText(s.readerGeometry?.source),
            .optionalReal(s.conditions.temperatureC), .optionalReal(s.conditions.humidityPct),
        ]
    }

    static func tap(from s: SQLiteStatement) throws(RecordDecodingError) -> TapRecord {
        var v = StoredValues(statement: s, table: "tap", row: "?")
        let sessionID = try v.text((0, "session_id"))
        v.row = sessionID
        let step = try v.integer((1, "step"), in: StoredRanges.step)
        let attempt = try v.integer((2, "attempt"), in: StoredRanges.attempt)
        v.tapPosition = (step, attempt)
        let tap = TapRecord(
            sessionID: sessionID, step: step, attempt: attempt,
            probe: Probe(
                x: try v.number((3, "probe_x"), in: StoredRanges.fraction),
                y: try v.number((4, "probe_y"), in: StoredRanges.fraction),
                heightMm: try v.optionalNumber((20, "height_mm"), in: ProbeHeights.range) ?? 0),
            insidePredicted: try v.bool((5, "inside_predicted")), result: try v.name((6, "result"), as: TapRecord.Result.self),
            latencyMs: try v.optionalNumber((7, "latency_ms"), in: StoredRanges.latencyMs),
            technology: try v.optionalText((8, "technology")),
            uid: try v.optionalText((9, "uid")), atqa: try v.optionalText((10, "atqa")), sak: try v.optionalText((11, "sak")),
            ats: try v.optionalText((12, "ats")), atr: try v.optionalText((13, "atr")), timestamp: try v.date((14, "timestamp")),
            tagProgress: try v.optionalName((16, "tag_progress"), as: TagProgress.self),
            placement: try v.optionalName((17, "placement"), as: TapPlacement.self),
            windowSeconds: try v.optionalNumber((18, "window_s"), in: SessionRecord.storedTapTimeouts),
            platformProbe: try v.optionalName((19, "platform_probe"), as: PlatformProbe.self),
            coupling: try v.optionalNumber((21, "coupling"), in: 0...1),
            couplingTried: try v.optionalText((22, "coupling_tried")),
            couplingLadder: try v.optionalText((23, "coupling_ladder"))
        )
        // Values in range can still be altered ones. Rows written before migration 006
        // carry no checksum and are not checked.
        if s.type(15) != .null {
            let stored = try v.integer((15, "checksum"), in: Int64.min...Int64.max)
            // Fed column by column, as `tapChecksum` feeds the values: no value copied.
            var running = RowChecksum.Running()
            for column in Int32(0)..<15 { s.addToChecksum(column, &running) }
            if s.type(16) != .null { s.addToChecksum(16, &running) }
            for (column, label) in evidenceColumns where s.type(column) != .null {
                running.add(.text(label))
                s.addToChecksum(column, &running)
            }
            guard running.checksum == Int64(stored) else {
                throw v.fail((15, "checksum"), expected: "the checksum of the row's values: the row changed after it was written")
            }
        }
        return tap
    }

    static func tapValues(_ t: TapRecord) -> [SQLiteStatement.Value] {
        [
            .text(t.sessionID), .integer(Int64(t.step)), .integer(Int64(t.attempt)), .real(t.probe.x), .real(t.probe.y),
            .integer(t.insidePredicted ? 1 : 0), .text(t.result.rawValue), .optionalReal(t.latencyMs),
            .optionalText(t.technology), .optionalText(t.uid), .optionalText(t.atqa), .optionalText(t.sak),
            .optionalText(t.ats), .optionalText(t.atr), .real(t.timestamp.timeIntervalSince1970),
        ]
    }

    /// What a tap's checksum covers: its values, its tag progress when it has one, and
    /// its placement and window (migration 010) when it has them.
    static func tapChecksum(_ t: TapRecord) -> Int64 {
        RowChecksum.of(
            tapValues(t) + (t.tagProgress.map { [.text($0.rawValue)] } ?? []) + evidenceChecksummed(evidenceValues(t)))
    }

    /// The values of `evidenceColumns`, in their order: what the INSERT binds and the
    /// checksum takes, from one list so the two cannot drift apart.
    static func evidenceValues(_ t: TapRecord) -> [SQLiteStatement.Value] {
        [
            .optionalText(t.placement?.rawValue), .optionalReal(t.windowSeconds), .optionalText(t.platformProbe?.rawValue),
            heightValue(t), .optionalReal(t.coupling), .optionalText(t.couplingTried), .optionalText(t.couplingLadder),
        ]
    }

    /// A tap above the back keeps its height (migration 014); one on the back keeps NULL,
    /// as every tap before it did, so their checksums stay as they were.
    static func heightValue(_ t: TapRecord) -> SQLiteStatement.Value {
        t.probe.isAtTapHeight ? .null : .real(t.probe.heightMm)
    }

    /// Migration 010's columns, 014's height, 015's coupling and 016's ladder (their index in `tapSelect`, and their name). They join the
    /// checksum only when they hold a value, each after its name, so rows written before
    /// them keep their checksums and a value cannot pass for another column's.
    static let evidenceColumns: [(column: Int32, label: String)] = [
        (17, "placement"), (18, "window_s"), (19, "platform_probe"), (20, "height_mm"), (21, "coupling"),
        (22, "coupling_tried"), (23, "coupling_ladder"),
    ]

    /// `values` (placement, window, probe) as the checksum takes them: each held value after its name.
    static func evidenceChecksummed(_ values: [SQLiteStatement.Value]) -> [SQLiteStatement.Value] {
        zip(evidenceColumns, values).flatMap { column, value in value == .null ? [] : [.text(column.label), value] }
    }
}

extension SQLiteStatement.Value {
    static func optionalText(_ s: String?) -> Self { s.map { .text($0) } ?? .null }
    static func optionalReal(_ d: Double?) -> Self { d.map { .real($0) } ?? .null }
}
