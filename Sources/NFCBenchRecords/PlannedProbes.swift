import Foundation

/// The planned probes as stored: `[[x, y], ...]` with 4 decimals, the form every store
/// keeps, so a session read back and pushed on holds the very same text. A probe above
/// the back adds its height in mm: `[x, y, h]` (sessions with `--heights`).
public enum PlannedProbes {
    public static func json(_ probes: [Probe]) -> String {
        "["
            + probes.map {
                "[" + format($0.x) + "," + format($0.y) + ($0.isAtTapHeight ? "" : "," + millimetres($0.heightMm)) + "]"
            }.joined(separator: ",") + "]"
    }

    /// The probes, or `nil` unless the text is a list of [x, y] pairs of fractions, each
    /// with an optional height in `ProbeHeights.range`.
    public static func parse(_ text: String) -> [Probe]? {
        guard let pairs = try? JSONDecoder().decode([[Double]].self, from: Data(text.utf8)) else { return nil }
        var probes: [Probe] = []
        for pair in pairs {
            guard pair.count == 2 || pair.count == 3, pair.allSatisfy(\.isFinite),
                pair.prefix(2).allSatisfy({ (0...1).contains($0) })
            else { return nil }
            let height = pair.count == 3 ? pair[2] : 0
            guard ProbeHeights.range.contains(height) else { return nil }
            probes.append(Probe(x: pair[0], y: pair[1], heightMm: height))
        }
        return probes
    }

    static func format(_ value: Double) -> String { String(format: "%.4f", value) }

    /// A height to the micrometre, without trailing zeros: `5`, `2.5`.
    static func millimetres(_ value: Double) -> String {
        var text = String(format: "%.3f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }
}
