import Foundation
import NFCBench
import NFCBenchRecords

/// Where `export` and `report` write: standard output, or a destination checked by the
/// one policy every writer follows (`OutputDestination`).
enum ExportOutput {
    static func write(
        _ exporter: any SessionExporter, sessions: [SessionRecord], from store: any BenchReading,
        to destination: OutputDestination?
    ) async throws {
        try await write(exporter, sessions: .listed(sessions), from: store, to: destination)
    }

    /// `beforeCommit` runs once everything is written and before a replaced file is put in
    /// place; when it throws, the file is left as it was.
    static func write(
        _ exporter: any SessionExporter, sessions: SessionSource, from store: any BenchReading,
        to destination: OutputDestination?, beforeCommit: () async throws -> Void = {}
    ) async throws {
        guard let destination else {
            let sink = ExportSink(descriptor: FileHandle.standardOutput.fileDescriptor, name: "standard output")
            // On a terminal, stored text is shown, never acted on, as on every other surface.
            if StandardStream.output.isTerminal { sink.textFilter = TerminalSafeText.neutralise }
            try await exporter.export(sessions, from: store, to: sink)
            try await beforeCommit()
            return
        }
        try await OutputPath.write(destination) {
            try await exporter.export(sessions, from: store, to: $0)
            try await beforeCommit()
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
        ids: [String], model: String?, includeVoid: Bool, includeSimulated: Bool, from store: any BenchReading, path: String
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
