import Foundation

/// How a report shows instants: in the lab's local time with its UTC offset, so a filed
/// record reads as the bench clock did, and the offset makes it unambiguous. The data
/// (store, CSV, JSON, JUnit) stays UTC; only the words people read follow `TZ`.
public struct ReportClock: Sendable {
    public let zone: TimeZone
    /// Why the zone is UTC although `TZ` asked for another, for the command to warn with;
    /// `nil` when the zone is the one asked for.
    public let problem: String?

    public init(zone: TimeZone, problem: String? = nil) {
        self.zone = zone
        self.problem = problem
    }

    /// The zone `TZ` names (an IANA name such as `Europe/Berlin`, with or without glibc's
    /// leading colon), or the system's when `TZ` is unset. Foundation falls back to UTC
    /// without a word for a name it does not know; this says so instead.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> ReportClock {
        guard var name = environment["TZ"], !name.isEmpty else { return ReportClock(zone: .current) }
        if name.hasPrefix(":") { name.removeFirst() }
        if name.hasPrefix("/usr/share/zoneinfo/") { name.removeFirst("/usr/share/zoneinfo/".count) }
        if let zone = TimeZone(identifier: name) { return ReportClock(zone: zone) }
        return ReportClock(
            zone: TimeZone(secondsFromGMT: 0)!,
            problem: "TZ=\(name) is not a time zone name this system knows, so the report's times are UTC. "
                + "Use an IANA name such as Europe/Berlin (see /usr/share/zoneinfo).")
    }

    /// `2026-12-02 16:32:19 +01:00`: the wall clock, then the offset that gives UTC back.
    public func local(_ date: Date) -> String {
        let offset = offset(at: date)
        let wall = CSVFormat.iso8601(date.addingTimeInterval(Double(offset)))
        guard wall.count == 20 else { return CSVFormat.iso8601(date) }  // out of range: say it as stored
        return wall.prefix(10) + " " + wall.dropFirst(11).prefix(8) + " " + Self.offsetWords(offset)
    }

    /// `16:32:19.123`: the wall-clock time of day to the millisecond, for a timeline whose
    /// date and offset its heading already gives.
    public func timeOfDay(_ date: Date) -> String {
        let stamp = CSVFormat.iso8601Milliseconds(date.addingTimeInterval(Double(offset(at: date))))
        guard stamp.count == 24 else { return CSVFormat.iso8601Milliseconds(date) }
        return String(stamp.dropFirst(11).prefix(12))
    }

    /// The zone for a heading: "Europe/Berlin, UTC+01:00 on this date".
    public func zoneWords(at date: Date) -> String {
        let seconds = offset(at: date)
        let utcNames: Set = ["UTC", "GMT", "Etc/UTC", "Etc/GMT", "Etc/Universal", "Universal", "Zulu", "Etc/Zulu"]
        if seconds == 0 && utcNames.contains(zone.identifier) { return "UTC" }
        return "\(zone.identifier), UTC\(Self.offsetWords(seconds))"
    }

    /// The zone's offset then; 0 for an instant no calendar holds (a damaged record), which
    /// the formatters then print as stored.
    private func offset(at date: Date) -> Int {
        let t = date.timeIntervalSince1970
        guard t.isFinite, abs(t) < 1e13 else { return 0 }
        return zone.secondsFromGMT(for: date)
    }

    static func offsetWords(_ seconds: Int) -> String {
        let sign = seconds < 0 ? "-" : "+"
        let minutes = abs(seconds) / 60
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : String(v) }
        return sign + two(minutes / 60) + ":" + two(minutes % 60)
    }
}
