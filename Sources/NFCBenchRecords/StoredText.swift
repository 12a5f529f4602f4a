/// The one bound on the texts an operator gives a session (its unit, operator, the model
/// as typed, the phone's OS, build and case, a void's reason): the option or prompt, the
/// bench store and the lab store all apply it, so a session the bench accepts is never
/// refused by its lab (issue 49, F1: one over-long `--phone-build` blocked a lab's sync).
public enum StoredText {
    /// Characters (Unicode scalars, as PostgreSQL's `length` counts them).
    public static let maximumCharacters = 1000

    /// `nil` when `value` may be stored, else what is wrong with it, in words.
    public static func problem(_ value: String) -> String? {
        let count = value.unicodeScalars.count
        if count > maximumCharacters { return "it is \(count) characters long; at most \(maximumCharacters) are kept" }
        if value.unicodeScalars.contains("\0") { return "it holds a NUL character, which no store keeps" }
        return nil
    }

    /// Each operator-given text of `session` that may not be stored: its column, and why.
    public static func problems(in session: SessionRecord) -> [(column: String, problem: String)] {
        let texts: [(String, String?)] = [
            ("unit", session.unit), ("operator", session.operatorName), ("model_typed", session.modelTyped),
            ("phone_os", session.phone.os), ("phone_build", session.phone.build), ("phone_case", session.phone.phoneCase),
            ("void_reason", session.voidReason),
        ]
        return texts.compactMap { column, value in value.flatMap(problem).map { (column, $0) } }
    }

    /// The refusal a store throws for `column` of session `id`.
    public static func refusal(table: String = "session", column: String, row: String, _ problem: String) -> UnstorableRecord {
        UnstorableRecord(
            RecordDecodingError(
                table: table, column: column, row: row, value: problem,
                expected: "text of at most \(maximumCharacters) characters without NUL"))
    }
}
