import Foundation
import NFCBenchRecords
import NFCBenchUseCases

/// Who amends a record (`void`, `annotate`): `--by NAME`, else the login name the
/// environment gives, so an amendment is never anonymous (ISO/IEC 17025 §7.5.2: who, when
/// and why, the original kept).
enum Amender {
    static let by = Option<String>.storedText(
        "--by", value: "name", help: "Who makes the change, for the record (default: your login name).")

    /// The words of an amendment (`void --reason`, `annotate --note`): required, not blank,
    /// within `StoredText`'s bound.
    static func words(_ name: String, help: String) -> Option<String> {
        Option<String>(
            name, value: "text", help: help, required: true, expected: "some words",
            convert: { $0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty || StoredText.problem($0) != nil ? nil : $0 },
            explain: { StoredText.problem($0).map { "\($0)." } })
    }

    /// What an amendment command was asked: the store, the session, the words and who.
    struct Asked {
        let path: String
        let store: any BenchDatabase
        let id: String
        let words: String
        let who: String
    }

    /// The store opened for writing (refused when damaged), the session named, the words
    /// of `option` trimmed, and who amends.
    static func asked(_ invocation: ParsedInvocation, _ context: CommandContext, words option: Option<String>) async throws
        -> Asked
    {
        let path = StoreOptions.path(invocation, context)
        return Asked(
            path: path, store: try await StoreOptions.openExisting(path), id: invocation.positionals[0],
            words: invocation.required(option).trimmingCharacters(in: .whitespacesAndNewlines),
            who: name(invocation, context))
    }

    static func name(_ invocation: ParsedInvocation, _ context: CommandContext) -> String {
        if let given = invocation[by]?.trimmingCharacters(in: .whitespacesAndNewlines), !given.isEmpty { return given }
        for variable in ["LOGNAME", "USER"] {
            if let login = context.environment[variable], !login.isEmpty, StoredText.problem(login) == nil { return login }
        }
        return "unknown (no --by and no login name)"
    }
}
