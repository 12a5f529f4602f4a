/// Levenshtein distance, for "Did you mean" suggestions (unknown options, model names).
public enum EditDistance {
    /// Insertions, deletions and substitutions turning `a` into `b`; two rows of memory.
    public static func levenshtein<C: Collection>(_ a: C, _ b: C) -> Int where C.Element: Equatable {
        let a = Array(a), b = Array(b)
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var previous = Array(0...b.count), current = Array(repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
