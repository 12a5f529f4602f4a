import Foundation
import NFCBench
import NFCBenchRecords

/// `nfcbench export`: one CSV row per tap.
enum ExportCommand {
    static let spec = CommandSpec(
        "export", abstract: "Export taps as CSV (one row per tap; columns in docs/csv.md).",
        discussion:
            "RFC 4180, UTF-8, times in ISO 8601 UTC. Text cells starting with = + - @ tab or CR are prefixed with ' (formula injection).",
        options: [session.spec, model.spec, all.spec, includeVoid.spec, format.spec, output.spec, StoreOptions.database.spec],
        handler: run)

    enum Format: String, Sendable { case csv }

    static let session = Option<String>("--session", value: "id", help: "A session to export (repeatable).", repeatable: true)
    static let model = Option<String>("--model", value: "id", help: "Every session of this model.")
    static let all = Flag("--all", help: "Every session.")
    static let includeVoid = Flag(
        "--include-void", help: "With --model or --all, also void sessions (left out by default; --session always exports).")
    static let format = Option<Format>(
        "--format", value: "csv", help: "Output format (csv).", expected: "csv",
        convert: OptionValue.choice(Format.self))
    static let output = Option<String>(
        "--output", short: "o", value: "file", help: "Write to this file instead of standard output.")

    static func run(_ invocation: ParsedInvocation, _ context: CommandContext) async throws -> Int32 {
        var seen = Set<String>()
        let ids = invocation.all(session).filter { seen.insert($0).inserted }
        let selectors = [!ids.isEmpty, invocation[model] != nil, invocation[all]]
        guard selectors.filter({ $0 }).count == 1 else {
            throw UsageError("Choose what to export: --session ID ..., --model M, or --all.", path: invocation.path)
        }
        let path = StoreOptions.path(invocation, context)
        let destination = invocation[output].map { context.url(forPath: $0) }
        if let destination { try refuseStoreFile(destination, store: path) }
        let store = try await StoreOptions.openForReading(path, checked: true)
        var sessions: [SessionRecord]
        if !ids.isEmpty {
            sessions = []
            for id in ids {
                guard let s = try await store.session(id) else { throw CommandFailure("No session '\(id)' in \(path).") }
                sessions.append(s)
            }
        } else {
            sessions = try await SessionCommands.sessions(of: invocation[model], in: store)
            if !invocation[includeVoid] { sessions.removeAll(where: \.isVoid) }
        }
        let exporter = CSVTapExporter()
        guard let destination else {
            let sink = ExportSink(descriptor: FileHandle.standardOutput.fileDescriptor, name: "standard output")
            try await exporter.export(sessions, from: store, to: sink)
            return ExitCode.success
        }
        if AtomicFileReplacement.canReplace(destination) {
            // Written beside the target and renamed over it once complete: a failed or
            // killed export leaves the previous report as it was.
            let replacement: AtomicFileReplacement
            do { replacement = try AtomicFileReplacement(target: destination) } catch {
                throw CommandFailure("\(error)", hint: "Check that the folder exists and is writable.")
            }
            try await replacement.write { try await exporter.export(sessions, from: store, to: $0) }
        } else {
            // A device or pipe is written in place.
            guard let handle = FileHandle(forWritingAtPath: destination.path) else {
                throw CommandFailure("Cannot write '\(destination.path)'.", hint: "Check that it exists and is writable.")
            }
            defer { try? handle.close() }
            try await exporter.export(
                sessions, from: store, to: ExportSink(descriptor: handle.fileDescriptor, name: destination.path))
        }
        return ExitCode.success
    }

    /// The database and its journal files are never an export's destination: writing
    /// there would destroy the sessions being exported.
    static func refuseStoreFile(_ destination: URL, store: String) throws {
        let target = destination.resolvingSymlinksInPath().path
        let database = URL(fileURLWithPath: store).resolvingSymlinksInPath().path
        let storeFiles = ["", "-wal", "-shm", "-journal"].map { database + $0 }
        if storeFiles.contains(target) {
            throw CommandFailure(
                "Refusing to export over the session database's own file \(target).",
                hint: "Choose another -o path; the database is \(database).")
        }
    }
}
