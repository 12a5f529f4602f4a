import Foundation
import NFCBenchRecords
import NFCBenchStoreSQLite
import NFCStore

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

    /// Session `id`, or a failure that says how to list the ones there are.
    static func session(_ id: String, in store: any BenchReading, path: String) async throws -> SessionRecord {
        guard let session = try await store.session(id) else {
            throw CommandFailure("No session '\(id)' in \(path).", hint: "List them with 'nfcbench sessions --db \(path)'.")
        }
        return session
    }

    /// The bench store at `path` for commands that amend what a run recorded (`void`):
    /// a mistyped `--db` is an error, never a new empty database.
    static func openExisting(_ path: String) async throws -> any BenchStoring {
        try requireFile(path)
        return try await open(path)
    }

    /// The bench store at `path` for commands that only read it: opened read-only (an
    /// archived copy in a read-only folder works), never created or migrated in place.
    /// `checked`: SQLite's integrity_check runs first, so a damaged file is refused
    /// instead of giving a partial or altered export (0.42 s for a million taps, a tenth
    /// of exporting them: `bench/store`).
    static func openForReading(_ path: String, checked: Bool) async throws -> any BenchReading {
        try requireFile(path)
        let store: SQLiteBenchStore
        do { store = try await SQLiteBenchStore.openForReading(path: path) } catch let error as SQLiteError {
            throw damaged(path, what: error.message)
        } catch BenchStoreError.unexpectedSchema(let names, _) {
            throw damaged(path, what: "its tables are not as nfcbench writes them: \(names.joined(separator: ", ")) differ")
        } catch {
            throw CommandFailure("Cannot read the session database \(path): \(error)")
        }
        if checked {
            let problems: [String]
            do { problems = try await store.integrityProblems() } catch let error as SQLiteError {
                throw damaged(path, what: error.message)
            }
            if !problems.isEmpty {
                throw damaged(path, what: problems.prefix(3).joined(separator: "; ") + (problems.count > 3 ? "; …" : ""))
            }
        }
        return store
    }

    static func requireFile(_ path: String) throws {
        guard FileManager.default.fileExists(atPath: path) else {
            throw CommandFailure(
                "No session database at \(path).",
                hint: "Check --db or NFCBENCH_DB; the first 'nfcbench run' creates the database.")
        }
    }

    static func damaged(_ path: String, what: String) -> CommandFailure {
        CommandFailure(
            "The session database \(path) is damaged (\(what)); nothing was read from it.",
            hint: "Keep the file as it is. Recover what is intact into a new file with "
                + "'sqlite3 \(path) .recover | sqlite3 recovered.sqlite', then read that with --db recovered.sqlite.",
            exitCode: ExitCode.damagedStore)
    }

    /// The bench store at `path`, created (with its folder) when missing: for runs.
    static func open(_ path: String) async throws -> SQLiteBenchStore {
        do { return try await SQLiteBenchStore.open(path: path) } catch BenchStoreError.unexpectedSchema(let names, _) {
            throw damaged(path, what: "its tables are not as nfcbench writes them: \(names.joined(separator: ", ")) differ")
        } catch {
            throw CommandFailure(
                "Cannot open the session database \(path): \(error)",
                hint: "Use --db PATH or NFCBENCH_DB with a writable location; 'nfcbench doctor' checks it.")
        }
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
