import Foundation
import NFCBenchRecords
import NFCBenchUseCases

/// The bench database options the session commands share, and opening the store.
enum StoreOptions {
    static let database = Option<String>(
        "--db", value: "path", help: "Session database (default NFCBENCH_DB or $XDG_DATA_HOME/nfcbench/bench.sqlite).")

    static func path(_ invocation: ParsedInvocation, _ context: CommandContext) -> String {
        DatabaseLocation.path(option: invocation[database], context: context)
    }

    /// The store a reading command reads: the lab store with `--store URL`, else the
    /// bench database (`openForReading`). `location` names it in messages.
    static func reading(_ invocation: ParsedInvocation, _ context: CommandContext, checked: Bool) async throws -> (
        store: any BenchReading, location: String
    ) {
        if let url = invocation[LabOptions.readStore] {
            if invocation[database] != nil {
                throw UsageError("Give --db (the bench database) or --store (the lab store), not both.", path: invocation.path)
            }
            let lab = try await LabOptions.open(url, context)
            return (lab, lab.location)
        }
        let path = path(invocation, context)
        return (try await openForReading(path, checked: checked), path)
    }

    /// As `reading(_:_:checked: true)` for a read whose output can still be withheld: a
    /// bench database's integrity check runs beside the read, and `check` must pass
    /// before the output goes out (`nil` for the lab store, which has no such check).
    static func readingCheckedBeside(_ invocation: ParsedInvocation, _ context: CommandContext) async throws -> (
        store: any BenchReading, location: String, check: IntegrityCheck?
    ) {
        guard invocation[LabOptions.readStore] == nil else {
            let (store, location) = try await reading(invocation, context, checked: true)
            return (store, location, nil)
        }
        let path = path(invocation, context)
        do {
            let (store, check) = try await BenchStores.openReadingCheckedBeside(path)
            return (store, path, check)
        } catch { throw words(error) }
    }

    /// Waits for a beside-the-read integrity check (`readingCheckedBeside`); a damaged file
    /// throws the failure a checked opening would.
    static func verdict(_ check: IntegrityCheck?) async throws {
        guard let check else { return }
        do throws(StoreOpeningFailure) { try await check.verdict() } catch { throw words(error) }
    }

    /// The bench database `run` would learn from, read only, or `nil` when there is none
    /// yet (nothing recorded: nothing to learn, and nothing is created).
    static func planningStore(_ invocation: ParsedInvocation, _ context: CommandContext) async throws -> (any BenchReading)? {
        let path = path(invocation, context)
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        return try await openForReading(path, checked: false)
    }

    /// Session `id`, or a failure that says how to list the ones there are.
    static func session(_ id: String, in store: any BenchReading, path: String) async throws -> SessionRecord {
        guard let session = try await store.session(id) else {
            throw CommandFailure("No session '\(id)' in \(path).", hint: "List them with 'nfcbench sessions --db \(path)'.")
        }
        return session
    }

    /// The bench database at `path` for commands that amend what a run recorded (`void`),
    /// refused when SQLite finds it damaged (nothing is written into a damaged file).
    static func openExisting(_ path: String) async throws -> any BenchDatabase {
        do { return try await BenchStores.openExistingChecked(path) } catch { throw words(error) }
    }

    /// The bench database at `path` for commands that only read it (`BenchStores.openReading`).
    static func openForReading(_ path: String, checked: Bool) async throws -> any BenchReading {
        do { return try await BenchStores.openReading(path, checked: checked) } catch { throw words(error) }
    }

    /// The bench database at `path`, created (with its folder) when missing: for runs.
    static func open(_ path: String) async throws -> any BenchDatabase {
        do { return try await BenchStores.openRecording(path) } catch { throw words(error) }
    }

    /// A store that could not be opened, in words that say what to do.
    static func words(_ failure: StoreOpeningFailure) -> CommandFailure {
        switch failure {
        case .missing(let path):
            CommandFailure(
                "No session database at \(path).",
                hint: "Check --db or NFCBENCH_DB; the first 'nfcbench run' creates the database.")
        case .damaged(let path, let what): damaged(path, what: what)
        case .unusable(let path, let reason, forReading: true):
            CommandFailure("Cannot read the session database \(path): \(reason)")
        case .unusable(let path, let reason, forReading: false):
            CommandFailure(
                "Cannot open the session database \(path): \(reason)",
                hint: "Use --db PATH or NFCBENCH_DB with a writable location; 'nfcbench doctor' checks it.")
        case .labUnreachable(let reason, let isConnection, let isTransient):
            CommandFailure(
                "\(reason).",
                hint: isConnection
                    ? "Check the connection string (host, port, database, user; the password belongs in ~/.pgpass) and that the"
                        + " lab store is running; 'nfcbench doctor' checks it."
                    : nil, exitCode: isTransient ? ExitCode.unfinished : ExitCode.failure)
        case .labNotReady(let reason): CommandFailure("\(reason).")
        }
    }

    static func damaged(_ path: String, what: String) -> CommandFailure {
        CommandFailure(
            "The session database \(path) is damaged (\(what)); nothing was read from it.",
            hint: "Keep the file as it is. Recover what is intact into a new file with "
                + "'sqlite3 \(path) .recover | sqlite3 recovered.sqlite', then read that with --db recovered.sqlite.",
            exitCode: ExitCode.damagedStore)
    }
}

/// Where bench results live: `--db`, else `NFCBENCH_DB`, else
/// `$XDG_DATA_HOME/nfcbench/bench.sqlite`, else `~/.local/share/nfcbench/bench.sqlite`.
enum DatabaseLocation {
    static func path(option: String?, context: CommandContext) -> String {
        if let option { return context.url(forPath: option).path }
        if let env = context.environment["NFCBENCH_DB"], !env.isEmpty { return context.url(forPath: env).path }
        let base =
            context.environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (context.environment["HOME"] ?? NSHomeDirectory()) + "/.local/share"
        return base + "/nfcbench/bench.sqlite"
    }
}
