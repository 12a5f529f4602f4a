import Foundation
import NFCBenchRecords

/// `nfcbench void`: take a wrong or abandoned session out of the evidence, keeping it.
enum VoidCommand {
    static let spec = CommandSpec(
        "void", abstract: "Mark a session void: kept and listed, but left out of refine, reports and exports.",
        discussion: """
            A void session is never deleted: 'sessions' and 'show' list it with its reason, and exports
            include it with --include-void. Voiding again replaces the current reason; the audit trail
            (show --events) keeps every one, with who and when.
            """,
        arguments: [ArgumentSpec("session", help: "The session id.")],
        options: [reason.spec, Amender.by.spec, StoreOptions.database.spec],
        handler: run)

    static let reason = Amender.words("--reason", help: "Why the session is void (for the record).")

    static func run(_ invocation: ParsedInvocation, _ context: CommandContext) async throws -> Int32 {
        let asked = try await Amender.asked(invocation, context, words: reason)
        let (path, store, id, why) = (asked.path, asked.store, asked.id, asked.words)
        let described: String
        var earlier: String?
        do {
            let session = try await StoreOptions.session(id, in: store, path: path)
            described = "\(session.modelInput), \(session.status.rawValue)"
            earlier = session.voidReason
        } catch let damaged as RecordDecodingError {
            // A damaged session can still be voided, and stays marked damaged.
            described = "damaged: \(TerminalSafeText.neutralise(damaged.description))"
        }
        let who = asked.who
        let at = Date()
        try await store.void(id, reason: why, at: at)
        var details = ["reason": why, "by": who]
        if let earlier, earlier != why { details["replaces"] = earlier }
        _ = try await store.record(
            SessionEvent(sessionID: SessionReference(parsing: id).id, at: at, kind: .voided, details: details))
        // Never silently: the reason a session was void for is named as it is replaced.
        if let earlier, earlier != why {
            context.output.line(
                "Session \(id) was void already (\(TerminalSafeText.field(earlier))); that reason is replaced here and kept "
                    + "in the audit trail (show --events).")
        }
        context.output.line(
            "Session \(id) (\(described)) is void: \(TerminalSafeText.neutralise(why)). "
                + "It is kept; refine, reports and exports leave it out (exports take it with --include-void).")
        return ExitCode.success
    }
}
