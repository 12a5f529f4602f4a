import Foundation
import NFCBenchRecords

/// `nfcbench annotate`: add a note to a session's record afterwards, with who and when. A
/// note is appended to the audit trail (`show --events`, the report's timeline, the lab
/// store's copy); nothing the run recorded is changed, and no note replaces another.
enum AnnotateCommand {
    static let spec = CommandSpec(
        "annotate", abstract: "Add a note to a session's record: who, when and what; the taps stay as recorded.",
        discussion: """
            The note joins the session's audit trail (show --events, the HTML report's timeline, the lab store
            after the next sync). Notes are only ever added, never changed or removed.
            """,
        arguments: [ArgumentSpec("session", help: "The session id.")],
        options: [note.spec, Amender.by.spec, StoreOptions.database.spec],
        handler: run)

    static let note = Amender.words("--note", help: "The note (for the record).")

    static func run(_ invocation: ParsedInvocation, _ context: CommandContext) async throws -> Int32 {
        let asked = try await Amender.asked(invocation, context, words: note)
        let (path, store, id, text, who) = (asked.path, asked.store, asked.id, asked.words, asked.who)
        // A damaged session can be annotated too (the trail is its own table): say why it
        // is worth a note. A session that is not there cannot.
        do { _ = try await StoreOptions.session(id, in: store, path: path) } catch is RecordDecodingError {}
        let stored = try await store.record(
            SessionEvent(sessionID: SessionReference(parsing: id).id, kind: .note, details: ["note": text, "by": who]))
        context.output.line(
            "Note added to session \(id) by \(TerminalSafeText.neutralise(who)) (trail entry \(stored.sequence + 1)): "
                + TerminalSafeText.neutralise(text))
        return ExitCode.success
    }
}
