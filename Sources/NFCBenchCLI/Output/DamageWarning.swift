import NFCBenchRecords

/// What a reading command left out because it was damaged: one line per session on
/// standard error, after the command's own output, so one bad row never hides the rest
/// and is never left out unsaid.
enum DamageWarning {
    /// `includeVoid`: void sessions are left out by default anyway and are named only when
    /// asked for.
    @discardableResult
    static func print(
        _ store: any BenchReading, leftOutOf what: String, includeVoid: Bool = false, _ context: CommandContext
    ) -> Bool {
        let damaged = store.damage.sessions.filter { includeVoid || !$0.isVoid }
        guard !damaged.isEmpty else { return false }
        context.errors.line("Warning: \(damaged.count) damaged session(s) left out of \(what):")
        for session in damaged {
            context.errors.line("  \(TerminalSafeText.neutralise(session.description))")
        }
        context.errors.line("Hint: \(hint(for: damaged[0].problem, database: store.location))")
        return true
    }

    /// `--allow-partial`, for every command that may leave damaged sessions out.
    static let allowPartial = Flag(
        "--allow-partial",
        help: "Exit 0 even when damaged sessions were left out (each is named on standard error; else exit 4).")

    /// The exit code of a command that otherwise succeeded: `partial` when it left
    /// sessions out, unless `--allow-partial` was given.
    static func exitCode(leftOut: Bool, _ invocation: ParsedInvocation) -> Int32 {
        leftOut && !invocation[allowPartial] ? ExitCode.partial : ExitCode.success
    }

    /// Whether the row is the lab store's (PostgreSQL) rather than a bench database's.
    static func isLabRow(_ problem: RecordDecodingError) -> Bool { problem.table.hasPrefix("lab_") }

    /// How to mend a damaged row, for the store it is in; `database`: the bench database,
    /// when the command knows it.
    static func hint(for problem: RecordDecodingError, database: String? = nil) -> String {
        if isLabRow(problem) {
            return "The lab store's row is wrong, not the bench's: the bench that pushed it still has the session. "
                + "Ask the lab store's administrator to correct or delete that row (psql), or void the session there."
        }
        return "Only this session is affected: lists, exports and refine leave it out. Void it with 'nfcbench void ID "
            + "--reason TEXT" + (database.map { " --db \($0)" } ?? "") + "', or mend the value with sqlite3; "
            + "'nfcbench show ID' names the bad value."
    }
}
