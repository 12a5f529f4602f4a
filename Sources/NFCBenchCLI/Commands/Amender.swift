import Foundation
import NFCBenchRecords

/// Who amends a record (`void`, `annotate`): `--by NAME`, else the login name the
/// environment gives, so an amendment is never anonymous (ISO/IEC 17025 §7.5.2: who, when
/// and why, the original kept).
enum Amender {
    static let by = Option<String>.storedText(
        "--by", value: "name", help: "Who makes the change, for the record (default: your login name).")

    static func name(_ invocation: ParsedInvocation, _ context: CommandContext) -> String {
        if let given = invocation[by]?.trimmingCharacters(in: .whitespacesAndNewlines), !given.isEmpty { return given }
        for variable in ["LOGNAME", "USER"] {
            if let login = context.environment[variable], !login.isEmpty, StoredText.problem(login) == nil { return login }
        }
        return "unknown (no --by and no login name)"
    }
}
