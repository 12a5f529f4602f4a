extension StringProtocol {
    /// Without leading and trailing white space (Unicode White_Space, newlines included).
    ///
    /// Not `trimmingCharacters(in: .whitespacesAndNewlines)`: building Foundation's first
    /// CharacterSet cost a `resolve` more than its catalog lookup (docs/performance.md).
    func trimmingWhitespace() -> String {
        // Most text (every catalog identifier) starts and ends with a printable ASCII byte:
        // then nothing is trimmed, and no Character needs forming. An ASCII scalar that is
        // not white space is never part of a white-space Character at either end (only
        // Extend and Prepend scalars join a grapheme, and none of those is ASCII or blank).
        let text = String(self)
        if let head = text.utf8.first, let tail = text.utf8.last, Self.isPrintableASCII(head), Self.isPrintableASCII(tail) {
            return text
        }
        guard let first = firstIndex(where: { !$0.isWhitespace }), let last = lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return String(self[first...last])
    }

    private static func isPrintableASCII(_ byte: UInt8) -> Bool { byte > 0x20 && byte < 0x7F }
}
