import Foundation

/// The station's equipment register (ISO/IEC 17025 §6.4.13): each item of equipment a
/// session relies on (the reader, the rig, a spacer, a reference card), with its maker,
/// model and identity, and when it was calibrated and is next due. `run` snapshots it into
/// the session's audit trail, warns about an item past its due date (or refuses, with
/// `--require-calibrated`), and the report prints it, "out of calibration" included.
///
/// The file (`equipment.conf` beside lab.conf, or `--equipment FILE`) has one section per
/// item, named by its role:
///
///     [reader]
///     maker = ACS
///     model = ACR122U
///     identity = RR554-012345
///     calibrated = 2026-06-01
///     due = 2027-06-01
public struct EquipmentRegister: Sendable, Equatable {
    public struct Item: Sendable, Equatable {
        /// `reader`, `rig`, `spacer`, `reference-card`...: the section's name.
        public let role: String
        public let maker: String
        public let model: String
        public let identity: String
        /// Days as written (`YYYY-MM-DD`), checked to be real dates.
        public let calibrated: String?
        public let due: String?

        /// Past its due date on `day` (`YYYY-MM-DD`, UTC): the due day itself still counts.
        public func isOutOfCalibration(on day: String) -> Bool { due.map { $0 < day } ?? false }

        /// `reader ACS ACR122U RR554-012345 (due 2026-06-01)`: the item a warning names.
        public var dueWords: String { "\(role) \(maker) \(model) \(identity) (due \(due ?? "not set"))" }

        /// `ACS ACR122U RR554-012345; calibrated 2026-06-01, due 2027-06-01`.
        public var words: String {
            var text = "\(maker) \(model) \(identity)"
            var dates: [String] = []
            if let calibrated { dates.append("calibrated \(calibrated)") }
            if let due { dates.append("due \(due)") }
            if !dates.isEmpty { text += "; " + dates.joined(separator: ", ") }
            return text
        }
    }

    public let items: [Item]

    /// A line of the file that cannot be read, by number, with the fix.
    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        public let line: Int
        public let problem: String
        public var description: String { "line \(line): \(problem)" }
    }

    public static let keys = ["maker", "model", "identity", "calibrated", "due"]

    public static func parse(_ text: String) throws(ParseError) -> EquipmentRegister {
        var items: [Item] = []
        var role: (name: String, line: Int)?
        var fields: [String: String] = [:]
        func close() throws(ParseError) {
            guard let role else { return }
            items.append(try item(role.name, fields, line: role.line))
            fields = [:]
        }
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
                .trimmingCharacters(in: .whitespaces)
            if line.isEmpty { continue }
            if line.hasPrefix("[") {
                guard line.hasSuffix("]"), line.count > 2,
                    line.dropFirst().dropLast().allSatisfy({ $0.isLowercase || $0.isNumber || $0 == "-" })
                else {
                    throw ParseError(line: number, problem: "'\(line)' is not a section: write [reader], [rig], [spacer]...")
                }
                try close()
                let name = String(line.dropFirst().dropLast())
                guard !items.contains(where: { $0.role == name }) else {
                    throw ParseError(line: number, problem: "[\(name)] is listed twice: one section per item")
                }
                role = (name, number)
                continue
            }
            guard let equals = line.firstIndex(of: "=") else {
                throw ParseError(line: number, problem: "'\(line)' is not 'key = value'")
            }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces)
            let value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            guard role != nil else { throw ParseError(line: number, problem: "'\(key)' comes before any [section]") }
            guard keys.contains(key) else {
                throw ParseError(line: number, problem: "unknown key '\(key)': use \(keys.joined(separator: ", "))")
            }
            guard fields[key] == nil else { throw ParseError(line: number, problem: "'\(key)' is given twice") }
            guard !value.isEmpty, value.count <= 200,
                !value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
            else { throw ParseError(line: number, problem: "'\(key)' needs a value of 1 to 200 printable characters") }
            if key == "calibrated" || key == "due" {
                guard Self.isDay(value) else {
                    throw ParseError(line: number, problem: "'\(key)' must be a date as YYYY-MM-DD, not '\(value)'")
                }
            }
            fields[key] = value
        }
        try close()
        return EquipmentRegister(items: items)
    }

    private static func item(_ role: String, _ fields: [String: String], line: Int) throws(ParseError) -> Item {
        for key in ["maker", "model", "identity"] where fields[key] == nil {
            throw ParseError(line: line, problem: "[\(role)] needs '\(key) = ...'")
        }
        if let calibrated = fields["calibrated"], let due = fields["due"], due < calibrated {
            throw ParseError(line: line, problem: "[\(role)] is due (\(due)) before it was calibrated (\(calibrated))")
        }
        return Item(
            role: role, maker: fields["maker"]!, model: fields["model"]!, identity: fields["identity"]!,
            calibrated: fields["calibrated"], due: fields["due"])
    }

    /// A real calendar day written `YYYY-MM-DD`.
    static func isDay(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]), (1...12).contains(month), day >= 1
        else { return false }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        guard let date = calendar.date(from: DateComponents(year: year, month: month, day: 1)),
            let days = calendar.range(of: .day, in: .month, for: date)
        else { return false }
        return days.contains(day)
    }

    /// `YYYY-MM-DD` of `date` in UTC, for comparing with due dates.
    public static func day(of date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", c.year ?? 0, c.month ?? 0, c.day ?? 0)
    }

    /// The items past their due date on `day`.
    public func outOfCalibration(on day: String) -> [Item] { items.filter { $0.isOutOfCalibration(on: day) } }

    /// The audit trail's `equipment` event details: one per item (`reader` → its words),
    /// and `outOfCalibration` naming the items past due on `day`.
    public func eventDetails(on day: String) -> [String: String] {
        var details: [String: String] = [:]
        for item in items { details[item.role] = item.words }
        let overdue = outOfCalibration(on: day).map(\.role)
        if !overdue.isEmpty { details["outOfCalibration"] = overdue.joined(separator: ", ") }
        return details
    }
}
