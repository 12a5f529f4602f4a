import NFCBenchRecords

/// The lab store's CHECK constraints, written from `StoredRanges`: the values a reader
/// accepts are the values the tables accept, so no bench can store a row that makes
/// the lab's exports refuse (migration 004).
enum RangeConstraints {
    static func between(_ column: String, _ range: ClosedRange<Double>) -> String {
        "\(column) BETWEEN \(range.lowerBound) AND \(range.upperBound)"
    }

    static func between(_ column: String, _ range: ClosedRange<Int64>) -> String {
        "\(column) BETWEEN \(range.lowerBound) AND \(range.upperBound)"
    }

    static let session: [(name: String, check: String)] = [
        (
            "zone",
            ["zone_x", "zone_y", "zone_width", "zone_height"].map { between($0, StoredRanges.fraction) }.joined(
                separator: " AND ")
        ),
        (
            "measured",
            ["measured_x", "measured_y", "measured_width", "measured_height", "iou"].map { between($0, StoredRanges.fraction) }
                .joined(separator: " AND ")
        ),
        ("aspect_ratio", between("aspect_ratio", StoredRanges.aspectRatio)),
        ("body_height_mm", between("body_height_mm", StoredRanges.bodyHeightMm)),
        ("plan_pass", between("plan_pass", StoredRanges.planPass)),
        ("repeats", between("repeats", StoredRanges.repeats)),
        ("tap_timeout", between("tap_timeout", SessionRecord.storedTapTimeouts)),
        (
            "instants",
            ["started_at", "ended_at", "voided_at"].map { between($0, StoredRanges.instants) }.joined(separator: " AND ")
        ),
    ]

    static let tap: [(name: String, check: String)] = [
        ("step", between("step", StoredRanges.step)),
        ("attempt", between("attempt", StoredRanges.attempt)),
        ("probe", between("probe_x", StoredRanges.fraction) + " AND " + between("probe_y", StoredRanges.fraction)),
        ("latency_ms", between("latency_ms", StoredRanges.latencyMs)),
        ("timestamp", between("timestamp", StoredRanges.instants)),
    ]

    /// A NULL passes a CHECK, as it should for the optional columns.
    static var sql: String {
        (session.map { "ALTER TABLE lab_session ADD CONSTRAINT lab_session_\($0.name)_range CHECK (\($0.check)) NOT VALID;" }
            + tap.map { "ALTER TABLE lab_tap ADD CONSTRAINT lab_tap_\($0.name)_range CHECK (\($0.check)) NOT VALID;" })
            .joined(separator: "\n")
    }
}
