import Foundation
import NFCBench
import NFCBenchRecords

/// Where `export` and `report` write: standard output, a device or pipe in place, or a
/// file replaced atomically, never the session database itself.
enum ExportOutput {
    static func write(
        _ exporter: any SessionExporter, sessions: [SessionRecord], from store: any BenchStoring, to destination: URL?
    ) async throws {
        try await write(exporter, sessions: .listed(sessions), from: store, to: destination)
    }

    static func write(
        _ exporter: any SessionExporter, sessions: SessionSource, from store: any BenchStoring, to destination: URL?
    ) async throws {
        guard let destination else {
            let sink = ExportSink(descriptor: FileHandle.standardOutput.fileDescriptor, name: "standard output")
            try await exporter.export(sessions, from: store, to: sink)
            return
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

    /// Exactly one of `--session ID ...`, `--model M` and `--all`, checked before the
    /// store is opened.
    static func requireOneSelection(ids: [String], model: String?, all: Bool, usagePath: [String], what: String) throws {
        guard [!ids.isEmpty, model != nil, all].filter({ $0 }).count == 1 else {
            throw UsageError("Choose what to \(what): --session ID ..., --model M, or --all.", path: usagePath)
        }
    }

    /// The sessions `--session ID ...`, `--model M` or `--all` name. Named sessions are
    /// always included; a model's or the whole store's leave out void sessions and, when
    /// asked, simulated ones, and are read from the store a page at a time.
    static func sessions(
        ids: [String], model: String?, includeVoid: Bool, includeSimulated: Bool, from store: any BenchStoring, path: String
    ) async throws -> SessionSource {
        var seen = Set<String>()
        let ids = ids.filter { seen.insert($0).inserted }
        guard ids.isEmpty else {
            var sessions: [SessionRecord] = []
            for id in ids {
                guard let s = try await store.session(id) else { throw CommandFailure("No session '\(id)' in \(path).") }
                sessions.append(s)
            }
            return .listed(sessions)
        }
        return SessionSource(.stored(model: model, includeVoid: includeVoid, includeSimulated: includeSimulated))
    }
}
