import Foundation

/// The planned probes as stored: `[[x, y], ...]` with 4 decimals, the form every store
/// keeps, so a session read back and pushed on holds the very same text.
public enum PlannedProbes {
    public static func json(_ probes: [Probe]) -> String {
        "[" + probes.map { "[" + format($0.x) + "," + format($0.y) + "]" }.joined(separator: ",") + "]"
    }

    /// The probes, or `nil` unless the text is a list of [x, y] pairs of fractions.
    public static func parse(_ text: String) -> [Probe]? {
        guard let pairs = try? JSONDecoder().decode([[Double]].self, from: Data(text.utf8)) else { return nil }
        var probes: [Probe] = []
        for pair in pairs {
            guard pair.count == 2, pair.allSatisfy({ $0.isFinite && (0...1).contains($0) }) else { return nil }
            probes.append(Probe(x: pair[0], y: pair[1]))
        }
        return probes
    }

    static func format(_ value: Double) -> String { String(format: "%.4f", value) }
}
