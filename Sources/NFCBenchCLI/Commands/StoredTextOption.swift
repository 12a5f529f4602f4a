import NFCBenchRecords

extension Option where Value == String {
    /// Free text a session stores: refused as a usage error (exit 64) past `StoredText`'s
    /// bound, before anything runs, instead of by the lab store at every sync.
    public static func storedText(_ name: String, value: String, help: String, required: Bool = false) -> Self {
        Self(
            name, value: value, help: help, required: required,
            expected: "text of at most \(StoredText.maximumCharacters) characters",
            convert: { StoredText.problem($0) == nil ? $0 : nil },
            explain: { StoredText.problem($0).map { "\($0)." } })
    }
}
