/// A session as a command or a store names it: `ID`, or `STATION/ID` where several
/// benches share a store. Session ids never contain a slash.
public struct SessionReference: Sendable, Hashable, CustomStringConvertible {
    public let station: String?
    public let id: String

    public init(station: String?, id: String) {
        self.station = station
        self.id = id
    }

    /// Splits at the first slash; text without one is a bare id.
    public init(parsing text: String) {
        if let slash = text.firstIndex(of: "/") {
            station = String(text[..<slash])
            id = String(text[text.index(after: slash)...])
        } else {
            station = nil
            id = text
        }
    }

    public var description: String { station.map { "\($0)/\(id)" } ?? id }
}

/// Station names: what `--station` accepts and the lab store's schema checks, so a name
/// is safe in a path, a report and a connection's row-level security alike.
public enum StationName {
    public static func validate(_ name: String) -> String? {
        let allowed = name.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || "._-".unicodeScalars.contains($0)
        }
        guard !name.isEmpty, name.count <= 63, allowed, let first = name.unicodeScalars.first,
            !"._-".unicodeScalars.contains(first)
        else {
            return "a station name is 1-63 letters, digits, '.', '_' or '-', starting with a letter or digit"
        }
        return nil
    }
}
