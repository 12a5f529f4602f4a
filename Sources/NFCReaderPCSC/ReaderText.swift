/// Text a reader answers about itself (its firmware's name, its serial number): taken
/// only when it is short printable ASCII, so the bytes of some other answer are never
/// filed as a name.
enum ReaderText {
    /// The text without surrounding spaces, or `nil` when it is empty, of a length outside
    /// `lengths`, or not printable ASCII.
    static func printable(_ bytes: ArraySlice<UInt8>, lengths: ClosedRange<Int>) -> String? {
        guard lengths.contains(bytes.count), bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        let trimmed = text.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()
        return trimmed.isEmpty ? nil : String(trimmed)
    }
}
