import Foundation
import NFCBench
import NFCBenchRecords
import NFCBenchUseCases
import NFCHost

/// `nfcbench sync`: push what the lab store does not have yet, and `labstore migrate`.
enum SyncCommand {
    static let spec = CommandSpec(
        "sync", abstract: "Push this bench's sessions to the lab store: what is new or changed since the last push.",
        discussion: """
            Runs record every tap in the bench database first; a run with a lab store configured pushes its
            session when it ends, and this pushes whatever is still pending (after the lab store was down, or
            for sessions recorded before it was configured). Pushing again gives one copy: a session is
            replaced whole, with its taps, in one transaction. Exit 75 when the lab store cannot be reached
            (everything stays in the bench database; run sync again later). A session the lab store refuses
            is set aside and named, the rest pushed, and sync exits 1 while any is; when the lab will never
            take it, --hold ID --reason TEXT keeps it on this bench by decision (named at every sync, the
            store's refusal and the reason kept), and --release ID offers it again.
            """,
        options: [
            StoreOptions.database.spec, LabOptions.labStore.spec, LabOptions.station.spec, hold.spec, reason.spec,
            release.spec, json.spec,
        ],
        handler: run)

    static let json = Flag("--json", help: "Print what was pushed as JSON.")
    static let hold = Option<String>(
        "--hold", value: "session",
        help: "Keep a session the lab store refused on this bench for good (with --reason); named at every sync.")
    static let reason = Option<String>(
        "--reason", value: "text", help: "Why --hold keeps the session off the lab store (for the record).",
        expected: "some words",
        convert: { $0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty || StoredText.problem($0) != nil ? nil : $0 },
        explain: { StoredText.problem($0).map { "\($0)." } })
    static let release = Option<String>(
        "--release", value: "session", help: "End a --hold: the session is offered to the lab store again.")

    /// `--hold` and `--release` as the sync carries them out; a half-given decision is a usage error.
    static func decisions(_ invocation: ParsedInvocation) throws -> SyncDecisions {
        let held = invocation[hold].map { SessionReference(parsing: $0).id }
        let released = invocation[release].map { SessionReference(parsing: $0).id }
        let why = invocation[reason]?.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (held == nil) == (why == nil) else {
            throw CommandFailure(
                held == nil ? "--reason says why a session is held; it needs --hold ID." : "--hold needs --reason TEXT.",
                hint: "nfcbench sync --hold ID --reason \"why the lab will never take it\"", exitCode: ExitCode.usage)
        }
        if let held, held == released {
            throw CommandFailure("--hold and --release name the same session, \(held).", exitCode: ExitCode.usage)
        }
        return SyncDecisions(hold: held.map { [($0, why!)] } ?? [], release: released.map { [$0] } ?? [])
    }

    /// What was pushed: one line, or the JSON summary.
    static func printPushed(
        _ report: LabSync.Report, location: String, station: String, json: Bool, _ context: CommandContext
    ) {
        if json {
            context.output.line(summary(report, server: location, station: station).serialized(pretty: true))
            return
        }
        let taps = report.taps == 1 ? "1 tap" : "\(report.taps) taps"
        context.output.line(
            "Pushed \(report.pushed.count) session\(report.pushed.count == 1 ? "" : "s") (\(taps)) from station"
                + " \(station) to \(location)"
                + (report.alreadyCurrent > 0 ? "; \(report.alreadyCurrent) already there" : "") + ".")
    }

    static func run(_ invocation: ParsedInvocation, _ context: CommandContext) async throws -> Int32 {
        var lab = LabOptions.Settings(invocation, context)
        guard let url = try lab.labStoreURL() else {
            throw CommandFailure(
                "No lab store is configured.",
                hint: "Pass --lab-store URL, set NFCBENCH_LAB_STORE, or add 'lab-store = URL' to lab.conf (docs/lab-store.md).",
                exitCode: ExitCode.usage)
        }
        let path = StoreOptions.path(invocation, context)
        let station = try lab.station()
        let decisions = try decisions(invocation)
        let progress = SyncProgress(output: context.errors, interactive: context.errors.isTerminal)
        let synced: (report: LabSync.Report, location: String)
        do {
            synced = try await LabPublication.sync(
                databaseAt: path, to: url, station: station, machine: MachineName.current(environment: context.environment),
                timeoutSeconds: try LabOptions.timeoutSeconds(context), decisions: decisions,
                progress: { done, total, destination in progress.update(done: done, total: total, destination: destination) })
        } catch let failure as StoreOpeningFailure {
            throw StoreOptions.words(failure)
        }
        let (report, location) = synced
        progress.finish()
        LabPush.warnIfShared(report, station: station, context)
        LabPush.warnIfDamaged(report, context)
        LabPush.warnIfSetAside(report, context)
        sayDecisions(report, location: location, context)
        printPushed(report, location: location, station: station, json: invocation[json], context)
        if let refusal = report.error as? SyncDecisionRefusal {
            throw CommandFailure(
                "Nothing was pushed: \(refusal).",
                hint: "'nfcbench sync' names the sessions the lab store refused, and those held back; 'nfcbench doctor' too.")
        }
        guard let error = report.error else {
            guard report.setAside.isEmpty else {
                throw CommandFailure(
                    "The lab store refused \(report.setAside.count) session\(report.setAside.count == 1 ? "" : "s") (named above); "
                        + "they are set aside in \(path) and offered again at every sync.",
                    hint: "A refused value does not change by itself: read the reason (a text longer than "
                        + "\(StoredText.maximumCharacters) characters, another session under the same id), and ask the lab's "
                        + "administrator; 'nfcbench export --session ID' gives the lab the taps meanwhile. When the lab will "
                        + "never take it, 'nfcbench sync --hold ID --reason TEXT' keeps it here by decision.")
            }
            return ExitCode.success
        }
        let transient = (error as? any TransientFailure)?.isTransient ?? false
        throw CommandFailure(
            "Sync stopped: \(error). \(report.pending) session\(report.pending == 1 ? "" : "s") still to push.",
            hint: transient
                ? "Everything is kept in \(path); run 'nfcbench sync' again when the lab store is back."
                : "Everything is kept in \(path); fix the cause above, then run 'nfcbench sync' again.",
            exitCode: transient ? ExitCode.unfinished : ExitCode.failure)
    }

    /// What this sync's decisions did, and every session held back, on standard error:
    /// a hold is a decision the operator sees at every sync, never a silence.
    static func sayDecisions(_ report: LabSync.Report, location: String, _ context: CommandContext) {
        for id in report.released { context.errors.line("Released \(id): it is offered to \(location) again.") }
        guard !report.held.isEmpty else { return }
        context.errors.line("Held back from \(location) by decision (not pushed; 'nfcbench sync --release ID' offers one again):")
        for held in report.held {
            context.errors.line(
                "  \(held.id) since \(held.heldAt.formatted(.iso8601)): \(TerminalSafeText.neutralise(held.reason))"
                    + " (refused: \(TerminalSafeText.neutralise(held.refusal)))")
        }
    }

    static func summary(_ report: LabSync.Report, server: String, station: String) -> JSONValue {
        .object([
            ("labStore", .string(server)), ("station", .string(station)),
            ("pushed", .array(report.pushed.map(JSONValue.string))), ("taps", .int(report.taps)),
            ("alreadyCurrent", .int(report.alreadyCurrent)), ("pending", .int(report.pending)),
            (
                "sharedWith",
                .array(
                    report.sharedWith.map {
                        .object([("machine", .string($0.machine)), ("lastPush", .string($0.lastPush.formatted(.iso8601)))])
                    })
            ),
            (
                "damaged",
                .array(
                    report.damaged.map {
                        .object([("reference", .string($0.reference)), ("problem", .string($0.problem.description))])
                    })
            ),
            ("setAside", .array(report.setAside.map { .object([("id", .string($0.id)), ("reason", .string($0.reason))]) })),
            (
                "held",
                .array(
                    report.held.map {
                        .object([
                            ("id", .string($0.id)), ("reason", .string($0.reason)), ("refusal", .string($0.refusal)),
                            ("heldAt", .string($0.heldAt.formatted(.iso8601))),
                        ])
                    })
            ),
            ("released", .array(report.released.map(JSONValue.string))),
            ("error", .optional(report.error.map { "\($0)" })),
        ])
    }
}

/// `nfcbench labstore migrate`: the lab administrator's one command.
enum LabStoreCommand {
    static let spec = CommandSpec(
        "labstore", abstract: "Set up the lab store (PostgreSQL) several benches share.",
        subcommands: [migrateSpec])

    static let migrateSpec = CommandSpec(
        "migrate", abstract: "Create or update the lab store's tables, roles and policies (run as the database's owner).",
        discussion: "Safe to run from several places at once, and again: each migration is applied once.",
        options: [store.spec],
        handler: migrate)

    static let store = Option<String>(
        "--store", value: "url", help: "The lab store: a PostgreSQL connection string.", required: true)

    static func migrate(_ invocation: ParsedInvocation, _ context: CommandContext) async throws -> Int32 {
        let lab = try await LabOptions.open(invocation.required(store), migrate: true, context)
        let applied = try await lab.appliedMigrations()
        context.output.line("The lab store at \(lab.location) is at migration \(applied.last ?? "-") (\(applied.count) applied).")
        return ExitCode.success
    }
}
