import NFCLocatorCore

/// "Did you mean" candidates by edit distance, as swift-argument-parser offers them.
enum Suggestion {
    static func closest(to input: String, among candidates: [String]) -> String? {
        let scored = candidates.map { ($0, distance(input, $0)) }
        guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
        let limit = max(2, input.count / 3)
        return best.1 <= limit ? best.0 : nil
    }

    static func distance(_ a: String, _ b: String) -> Int { EditDistance.levenshtein(a, b) }
}
