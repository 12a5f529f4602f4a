import Foundation
import NFCBench
import NFCBenchRecords
import NFCBenchUseCases
import NFCLocatorCore

/// `nfcbench report`: what a lab files. HTML (default) for people, SVG for one drawing,
/// JUnit for automated rigs, and a session-level CSV for spreadsheets.
enum ReportCommand {
    static let spec = CommandSpec(
        "report",
        abstract: "Write a report a lab can file: HTML (default), PDF, SVG, JUnit XML, one CSV row per session, or JSON.",
        discussion: """
            --model adds the model's summary first (verdicts, pooled tap map, catalog entry, refined zone); --all adds one
            row per model, then each model. Void and simulated sessions are left out of --model and --all unless asked;
            --session always reports the sessions named. SVG holds one drawing: one session, or one model's tap map.
            The HTML is one self-contained file (inline SVG and CSS, no script, nothing fetched) that prints one session
            per page; PDF is that page printed by headless Chromium on --paper (A4 unless told). Times follow TZ (local
            time with its UTC offset); the data files keep UTC. See docs/reports.md.
            """,
        options: [
            session.spec, model.spec, all.spec, format.spec, output.spec, StoreOptions.database.spec, LabOptions.readStore.spec,
            includeVoid.spec,
            includeSimulated.spec, reviewer.spec, paper.spec, DamageWarning.allowPartial.spec,
        ] + CatalogOptions.all,
        handler: run)

    static let session = Option<String>("--session", value: "id", help: "A session to report (repeatable).", repeatable: true)
    static let model = Option<String>("--model", short: "m", value: "id", help: "Every session of this model, after its summary.")
    static let all = Flag("--all", help: "Every session, after one summary row per model.")
    static let format = Option<ReportFormat>(
        "--format", value: ReportFormats.names.joined(separator: "|"),
        help: "Output format (default html): "
            + ReportFormats.registered.map { "\($0.name), \($0.summary)" }.joined(separator: "; ") + ".",
        expected: ReportFormats.names.dropLast().joined(separator: ", ") + " or " + (ReportFormats.names.last ?? ""),
        choices: ReportFormats.names, convert: ReportFormats.named)
    static let paper = Option<PDFReportExporter.Paper>(
        "--paper", value: "a4|letter", help: "With --format pdf, the paper size (default a4).", expected: "a4 or letter",
        choices: PDFReportExporter.Paper.allCases.map(\.rawValue), convert: OptionValue.choice(PDFReportExporter.Paper.self))
    static let output = Option<String>(
        "--output", short: "o", value: "file",
        help: "Write to this file (replaced only when complete) instead of standard output.")
    static let includeVoid = Flag("--include-void", help: "With --model or --all, also void sessions.")
    static let includeSimulated = Flag(
        "--include-simulated", help: "With --model or --all, also sessions from a simulated reader (marked as such).")

    static let reviewer = Option<String>(
        "--reviewer", value: "name",
        help: "HTML and PDF: the reviewer named in each session's sign-off block (left blank to write in by hand otherwise).")

    static func run(_ invocation: ParsedInvocation, _ context: CommandContext) async throws -> Int32 {
        let ids = invocation.all(session)
        try ExportOutput.requireOneSelection(
            ids: ids, model: invocation[model], all: invocation[all], usagePath: invocation.path, what: "report")
        let format = try chosenFormat(invocation, context, sessions: ids.count)
        // HTML and its PDF print carry the page a lab files: sign-off, local times, catalog entry.
        let filedPage = format.isFiledPage
        let printer = format.isPrinted ? try pdfPrinter(context) : nil
        let destination = try invocation[output].map { try OutputPath.check($0, invocation, context) }
        let chosen = try await ModelFilter.identifier(invocation[model], context, usagePath: invocation.path)
        let (store, path) = try await StoreOptions.reading(invocation, context, checked: true)
        let sessions = try await ExportOutput.sessions(
            ids: ids, model: chosen, includeVoid: invocation[includeVoid],
            includeSimulated: invocation[includeSimulated], from: store, path: path)
        let summary: ReportOptions.Summary = invocation[all] ? .all : invocation[model] != nil ? .model : .none
        var options = ReportOptions(
            summary: summary, toolVersion: CommandLineTool.versionWithBuild, storeLocation: path,
            clock: .fromEnvironment(context.environment), reviewer: invocation[reviewer])
        if filedPage, let problem = options.clock.problem { context.errors.line("Warning: " + problem) }
        if filedPage && summary == .model {
            let loaded = try await CatalogOptions.loadResolver(invocation, context)
            for warning in CatalogOptions.warnings(for: loaded) { context.errors.line(warning) }
            options.refiner = CatalogRefiner(
                resolver: loaded.resolver, minimumSessions: 1, promote: false, includeSimulated: invocation[includeSimulated])
        }
        let exporter = format.exporter(ReportFormatSetup(options: options, paper: invocation[paper] ?? .a4, printer: printer))
        do {
            try await ExportOutput.write(exporter, sessions: sessions, from: store, to: destination)
        } catch ReportError.nothingToDraw {
            throw CommandFailure(
                "No sessions to draw.", hint: "Check the model with 'nfcbench sessions', or add --include-simulated.")
        }
        let leftOut = DamageWarning.print(store, leftOutOf: "the report", includeVoid: invocation[includeVoid], context)
        // An empty report is still a valid file (JUnit with no suite passes in CI), so the
        // operator is told, with the flags that would have kept what was left out.
        var listing = sessions.pager(in: store)
        if try await listing.next() == nil {
            context.errors.line(
                emptyWarning(includeVoid: invocation[includeVoid], includeSimulated: invocation[includeSimulated]))
        }
        if let destination {
            context.errors.line("Report written to \(destination.given).")
        }
        return DamageWarning.exitCode(leftOut: leftOut, invocation)
    }

    /// The format asked for (html unless told), refused with the options it cannot take.
    static func chosenFormat(_ invocation: ParsedInvocation, _ context: CommandContext, sessions: Int) throws -> ReportFormat {
        guard let html = ReportFormats.named("html") else { preconditionFailure("html is a registered report format") }
        let format = invocation[Self.format] ?? html
        if format.drawsOne && (invocation[all] || sessions > 1) {
            throw UsageError(
                "An SVG holds one drawing: name one --session, or one --model for its tap map; use --format html for more.",
                path: invocation.path)
        }
        if invocation[paper] != nil && !format.isPrinted {
            throw UsageError("--paper applies to --format pdf only.", path: invocation.path)
        }
        if invocation[reviewer] != nil && !format.isFiledPage {
            throw UsageError(
                "--reviewer names the reviewer in the sign-off block of --format html or pdf; other formats have none.",
                path: invocation.path)
        }
        if format.isPrinted && invocation[output] == nil && context.output.isTerminal {
            throw UsageError("A PDF is not for the terminal: give -o FILE.pdf.", path: invocation.path)
        }
        return format
    }

    static func pdfPrinter(_ context: CommandContext) throws -> HeadlessChromium {
        guard let found = HeadlessChromium.find(environment: context.environment) else {
            throw CommandFailure(HeadlessChromium.missing(environment: context.environment))
        }
        return found
    }

    static func emptyWarning(includeVoid: Bool, includeSimulated: Bool) -> String {
        let flags = [includeSimulated ? nil : "--include-simulated", includeVoid ? nil : "--include-void"].compactMap { $0 }
        let hint =
            flags.isEmpty
            ? "'nfcbench sessions' lists what the store holds."
            : "Sessions from a simulated reader and void sessions are left out unless asked for ("
                + flags.joined(separator: ", ") + "); simulated ones are never bench evidence. "
                + "'nfcbench sessions' lists what the store holds."
        return "Warning: the report holds no session. " + hint
    }

    /// The end of `run`: the finished session's HTML report. The session is already safe
    /// in the store, so a report that cannot be written is a warning, not a failure.
    /// `false` when the report could not be written (the session is saved either way):
    /// the run then exits 1, since a lab that asked for the report to file has none.
    static func writeSessionReport(
        _ id: String, store: any BenchReading, to url: URL, _ databasePath: String, _ context: CommandContext
    ) async -> Bool {
        do {
            try await RunReport.write(
                sessionID: id, from: store, to: url.path, databasePath: databasePath,
                toolVersion: CommandLineTool.versionWithBuild)
            context.errors.line("Report: \(url.path)")
            return true
        } catch {
            context.errors.line(
                "Error: The session is saved, but its report could not be written: \(error).")
            context.errors.line("Hint: Write it with: nfcbench report --session \(id) --db \(databasePath) -o FILE")
            return false
        }
    }
}
