extension StringProtocol {
    /// Without leading and trailing white space (Unicode White_Space, newlines included).
    ///
    /// Not `trimmingCharacters(in: .whitespacesAndNewlines)`: building Foundation's first
    /// CharacterSet cost a `resolve` more than its catalog lookup (docs/performance.md).
    func trimmingWhitespace() -> String {
        guard let first = firstIndex(where: { !$0.isWhitespace }), let last = lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return String(self[first...last])
    }
}
