import Foundation
import NFCBench
import NFCBenchRecords
import NFCBenchUseCases

/// `nfcbench export`: one CSV row per tap.
enum ExportCommand {
    static let spec = CommandSpec(
        "export", abstract: "Export taps as CSV (one row per tap; columns in docs/csv.md).",
        discussion:
            "RFC 4180, UTF-8, times in ISO 8601 UTC. Text cells starting with = + - @ tab or CR are prefixed with ' (formula injection).",
        options: [
            session.spec, model.spec, all.spec, includeVoid.spec, format.spec, output.spec, StoreOptions.database.spec,
            LabOptions.readStore.spec, DamageWarning.allowPartial.spec,
        ],
        handler: run)

    enum Format: String, Sendable { case csv }

    static let session = Option<String>("--session", value: "id", help: "A session to export (repeatable).", repeatable: true)
    static let model = Option<String>("--model", value: "id", help: "Every session of this model.")
    static let all = Flag("--all", help: "Every session.")
    static let includeVoid = Flag(
        "--include-void", help: "With --model or --all, also void sessions (left out by default; --session always exports).")
    static let format = Option<Format>(
        "--format", value: "csv", help: "Output format (csv).", expected: "csv", choices: ["csv"],
        convert: OptionValue.choice(Format.self))
    static let output = Option<String>(
        "--output", short: "o", value: "file", help: "Write to this file instead of standard output.")

    static func run(_ invocation: ParsedInvocation, _ context: CommandContext) async throws -> Int32 {
        try ExportOutput.requireOneSelection(
            ids: invocation.all(session), model: invocation[model], all: invocation[all], usagePath: invocation.path,
            what: "export")
        let chosen = try await ModelFilter.identifier(invocation[model], context, usagePath: invocation.path)
        let destination = try invocation[output].map { try OutputPath.check($0, invocation, context) }
        // A file is renamed into place only once complete, so the database's integrity check
        // runs beside the export and must pass before the rename; standard output or a
        // device cannot take back what was written, so there the check comes first.
        let store: any BenchReading, path: String, check: IntegrityCheck?
        if destination?.kind == .replaced {
            (store, path, check) = try await StoreOptions.readingCheckedBeside(invocation, context)
        } else {
            (store, path) = try await StoreOptions.reading(invocation, context, checked: true)
            check = nil
        }
        let sessions = try await ExportOutput.sessions(
            ids: invocation.all(session), model: chosen, includeVoid: invocation[includeVoid],
            includeSimulated: true, from: store, path: path)
        try await ExportOutput.write(CSVTapExporter(), sessions: sessions, from: store, to: destination) {
            try await StoreOptions.verdict(check)
        }
        let leftOut = DamageWarning.print(store, leftOutOf: "the export", includeVoid: invocation[includeVoid], context)
        return DamageWarning.exitCode(leftOut: leftOut, invocation)
    }
}
