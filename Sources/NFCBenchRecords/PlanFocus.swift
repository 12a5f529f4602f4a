import Foundation

public enum ZoneEdge: String, Sendable, CaseIterable, Codable { case left, top, right, bottom }

/// Where the pooled evidence of a model's earlier sessions leaves each edge of its zone:
/// the estimate and its interval, in fractions of the back. A learning session spends
/// its spare taps on the widest intervals (`AdaptivePlan`).
///
/// Stored with the session that used it, so `--resume` rebuilds the same plan even after
/// later sessions or a `void` have changed what the pool would say now.
public struct PlanFocus: Sendable, Hashable {
    public struct Edge: Sendable, Hashable {
        public let value: Double
        public let low: Double
        public let high: Double

        /// `low <= value <= high`, all within the back; anything else is not an interval.
        /// Values are kept to 1/10,000 of the back (a hundredth of a millimetre), exactly
        /// as stored, so a resumed session plans from the very numbers it started with.
        public init?(value: Double, low: Double, high: Double) {
            guard [value, low, high].allSatisfy({ $0.isFinite && (0...1).contains($0) }), low <= value, value <= high
            else { return nil }
            self.value = Self.lattice(value); self.low = Self.lattice(low); self.high = Self.lattice(high)
        }

        static func lattice(_ v: Double) -> Double { (v * 10_000).rounded() / 10_000 }
    }

    public let edges: [ZoneEdge: Edge]
    /// How many sessions the pool held, for the operator.
    public let sessions: Int

    public init?(edges: [ZoneEdge: Edge], sessions: Int) {
        guard Set(edges.keys) == Set(ZoneEdge.allCases), sessions > 0,
            edges[.left]!.value < edges[.right]!.value, edges[.top]!.value < edges[.bottom]!.value
        else { return nil }
        self.edges = edges
        self.sessions = sessions
    }

    /// The form stored in a session row: `sessions=3 left=0.1,0.08,0.12 top=…`.
    public var stored: String {
        (["sessions=\(sessions)"]
            + ZoneEdge.allCases.map { edge in
                let e = edges[edge]!
                return "\(edge.rawValue)=\(Self.number(e.value)),\(Self.number(e.low)),\(Self.number(e.high))"
            }).joined(separator: " ")
    }

    /// Parses `stored`; `nil` for anything else.
    public init?(stored text: String) {
        var edges: [ZoneEdge: Edge] = [:]
        var sessions: Int?
        for field in text.split(separator: " ") {
            let parts = field.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { return nil }
            if parts[0] == "sessions" {
                guard sessions == nil, let n = Int(parts[1]) else { return nil }
                sessions = n
                continue
            }
            let numbers = parts[1].split(separator: ",").map { Double($0) }
            guard let edge = ZoneEdge(rawValue: parts[0]), edges[edge] == nil, numbers.count == 3,
                let value = numbers[0], let low = numbers[1], let high = numbers[2],
                let interval = Edge(value: value, low: low, high: high)
            else { return nil }
            edges[edge] = interval
        }
        guard let sessions else { return nil }
        self.init(edges: edges, sessions: sessions)
    }

    static func number(_ v: Double) -> String { String(format: "%.4f", v) }
}
