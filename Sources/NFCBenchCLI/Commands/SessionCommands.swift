import Foundation
import NFCBench
import NFCBenchRecords
import NFCLocatorCore

/// `nfcbench sessions` and `nfcbench show`.
enum SessionCommands {
    static let listSpec = CommandSpec(
        "sessions", abstract: "List recorded sessions.",
        options: [
            listModel.spec, StoreOptions.database.spec, LabOptions.readStore.spec, listJSON.spec,
            DamageWarning.allowPartial.spec,
        ],
        handler: list)

    static let listModel = Option<String>(
        "--model", value: "id", help: "Only this model (and its regional variants): an identifier or a name, as run takes.")
    static let listJSON = Flag("--json", help: "Print a JSON array.")
    static let showJSON = Flag("--json", help: "Print the session summary, its taps and its events as JSON.")
    static let showEvents = Flag(
        "--events", help: "Print the session's audit trail: every placement, window, key, fault and resume, to the ms.")
    static let showSVG = Option<String>(
        "--svg", value: "file", help: "Also write the session's drawing as SVG (as 'report --format svg').")

    static let showSpec = CommandSpec(
        "show", abstract: "Redraw a session: the silhouette with its hits and misses, and its score.",
        arguments: [ArgumentSpec("session", help: "The session id.")],
        options: [StoreOptions.database.spec, LabOptions.readStore.spec, showJSON.spec, showEvents.spec, showSVG.spec],
        handler: show)

    static func list(_ invocation: ParsedInvocation, _ context: CommandContext) async throws -> Int32 {
        // The file's integrity check runs beside the listing's read and must pass before a
        // line is printed: a damaged file is refused (65), as every other reader refuses it.
        let model = try await ModelFilter.identifier(invocation[listModel], context, usagePath: invocation.path)
        let (store, path, check) = try await StoreOptions.readingCheckedBeside(invocation, context)
        let sessions = try await Self.sessions(of: model, in: store)
        try await StoreOptions.verdict(check)
        // Damaged rows are listed, each with what is wrong, and make the listing partial.
        let leftOut = !store.damage.sessions.isEmpty
        if invocation[listJSON] {
            context.output.line(try await listing(sessions, store: store).serialized(pretty: true))
            return DamageWarning.exitCode(leftOut: leftOut, invocation)
        }
        if sessions.isEmpty && store.damage.sessions.isEmpty {
            context.output.line("No sessions in \(path).")
            return ExitCode.success
        }
        try await printListing(sessions, store: store, context)
        if let first = store.damage.sessions.first {
            context.errors.line("Hint: \(DamageWarning.hint(for: first.problem, database: store.location))")
        }
        return DamageWarning.exitCode(leftOut: leftOut, invocation)
    }

    /// `sessions --json`: each session's row, then each damaged one with what is wrong.
    static func listing(_ sessions: [SessionRecord], store: any BenchReading) async throws -> JSONValue {
        var rows: [JSONValue] = []
        for s in sessions {
            guard let taps = try await store.intactTaps(of: s) else { continue }
            rows.append(
                .object(
                    [
                        ("sessionId", .string(s.id)), ("station", .optional(s.station)),
                        ("reference", .string(s.reference)),
                        ("status", .string(s.status.rawValue)), ("mode", .string(s.mode.rawValue)),
                        ("model", .string(s.modelInput)),
                        ("lookupKey", .string(s.lookupKey)), ("verdict", .optional(s.verdict?.rawValue)),
                        ("unit", .optional(s.unit)), ("simulated", .bool(s.simulated)),
                        ("void", .bool(s.isVoid)), ("voidReason", .optional(s.voidReason)),
                    ] + RunPrinter.counts(TapSummary(taps)) + [
                        ("startedAt", .string(s.startedAt.formatted(.iso8601)))
                    ]))
        }
        for damaged in store.damage.sessions {
            rows.append(
                .object([
                    ("reference", .string(damaged.reference)), ("damaged", .string(damaged.problem.description)),
                    ("void", .bool(damaged.isVoid)),
                ]))
        }
        return .array(rows)
    }

    /// The `sessions` table: a line per session, then each damaged one with what is wrong.
    static func printListing(_ sessions: [SessionRecord], store: any BenchReading, _ context: CommandContext) async throws {
        func pad(_ text: String, _ width: Int) -> String {
            text.count >= width ? text + "  " : text.padding(toLength: width + 2, withPad: " ", startingAt: 0)
        }
        context.output.line(
            pad("SESSION", 22) + pad("STATION", 12) + pad("STATUS", 11) + pad("MODEL", 16) + pad("UNIT", 12) + pad("HITS", 7)
                + pad("VERDICT", 12)
                + "STARTED")
        for s in sessions {
            guard let taps = try await store.intactTaps(of: s) else { continue }
            let hits = TapSummary(taps).hitsOfTaps
            let safe = TerminalSafeText.field
            context.output.line(
                pad(s.id, 22) + pad(safe(s.station ?? "-"), 12) + pad(s.status.rawValue, 11) + pad(safe(s.modelInput), 16)
                    + pad(safe(s.unit ?? "-"), 12)
                    + pad(hits, 7) + pad(s.verdict?.rawValue ?? "-", 12) + s.startedAt.formatted(.iso8601)
                    + (s.mode == .tag ? "  [tag mode]" : "") + (s.simulated ? "  [simulated]" : "")
                    + (s.voidReason.map { "  [VOID: \(safe($0))]" } ?? ""))
        }
        // Listed, never a reason to refuse the rest: each with what is wrong with it.
        for damaged in store.damage.sessions {
            context.output.line(
                pad(TerminalSafeText.neutralise(damaged.reference), 22) + "DAMAGED" + (damaged.isVoid ? " [VOID]" : "") + ": "
                    + TerminalSafeText.neutralise(damaged.problem.description))
        }
    }

    /// Sessions of `model` (all when `nil`), regional variants included.
    static func sessions(of model: String?, in store: any BenchReading) async throws -> [SessionRecord] {
        let all = try await store.sessions()
        guard let model else { return all }
        return SessionSelection.sessions(of: model, in: all)
    }

    static func show(_ invocation: ParsedInvocation, _ context: CommandContext) async throws -> Int32 {
        let destination = try invocation[showSVG].map { try OutputPath.check($0, invocation, context) }
        let (store, path) = try await StoreOptions.reading(invocation, context, checked: true)
        let id = invocation.positionals[0]
        let s = try await StoreOptions.session(id, in: store, path: path)
        let taps = try await store.taps(id)
        if let destination {
            try await ExportOutput.write(SVGReportExporter(summary: false), sessions: [s], from: store, to: destination)
        }
        let events = try await store.events(id)
        let report = ReportedSession(s, taps: taps, events: events)
        if invocation[showJSON] {
            context.output.line(SessionJSON.record(s, taps: taps, events: events, databasePath: path).serialized(pretty: true))
            return ExitCode.success
        }
        if invocation[showEvents] {
            printTrail(s, events: events, context)
            return ExitCode.success
        }
        printShown(s, taps: taps, report: report, useColor: context.useColor(invocation), context)
        return ExitCode.success
    }

    /// `show --events`: the audit trail, one line per event.
    static func printTrail(_ s: SessionRecord, events: [SessionEvent], _ context: CommandContext) {
        context.output.line("\(TerminalSafeText.neutralise(s.id))  \(events.count) events")
        if events.isEmpty { context.output.line("  none recorded (sessions from before nfcbench kept an audit trail)") }
        for event in events {
            context.output.line(
                "  " + EventWords.instant(event.at) + "  " + TerminalSafeText.neutralise(EventWords.describe(event)))
        }
    }

    /// `show`: the verdict, the zone and coil in words, the facts, the drawing and the counts.
    static func printShown(
        _ s: SessionRecord, taps: [TapRecord], report: ReportedSession, useColor: Bool, _ context: CommandContext
    ) {
        let zone = s.predicted
        let marks = report.positions.map {
            SilhouetteDrawing.Mark(
                x: $0.probe.x, y: $0.probe.y, kind: $0.outcome.markKind)
        }
        let safe = TerminalSafeText.field
        context.output.line(
            "\(safe(s.id))  \(safe(s.displayName ?? s.modelInput)) (\(safe(s.lookupKey)))  \(s.status.rawValue)  "
                + (s.verdict?.rawValue ?? ""))
        if let reason = s.verdictReason { context.output.line("  \(safe(reason))") }
        if let m = report.score.measured {
            context.output.line(
                "  measured zone: \(report.zoneWords(m))" + (report.score.openEdgesWords.map { " (\($0))" } ?? ""))
        }
        context.output.line(
            "  reader: " + (s.readerGeometry.map { TerminalSafeText.neutralise($0.description) } ?? "antenna unknown"))
        switch SessionCoil.estimate(s, taps: taps) {
        case .success(let coil): context.output.line("  coil (physical model, 95% intervals): " + coil.words)
        case .failure(let why): context.output.line("  coil: not estimated, " + why.words)
        }
        let partial = report.partialPositions.count
        if let words = PartialReadWords.sentence(partial: partial, of: report.score.taps) {
            context.output.line("  \(words)")
        }
        if let station = s.station { context.output.line("  station \(TerminalSafeText.neutralise(station))") }
        if let conditions = s.conditions.words { context.output.line("  conditions: \(conditions)") }
        if s.mode == .tag { context.output.line("  tag mode: the phone's reader read an emulated Type 4 tag") }
        if s.simulated { context.output.line("  SIMULATED reader (\(s.reader)): not bench evidence; refine leaves it out") }
        if let reason = s.voidReason { context.output.line("  VOID: \(safe(reason)); refine and exports leave it out") }
        let drawing = SilhouetteDrawing(
            aspectRatio: s.aspectRatio, zone: zone, zoneStyle: s.stale ? .stale : .approximate, marks: marks,
            measured: report.score.measured)
        for line in TerminalSilhouetteRenderer(rows: 15, useColor: useColor).render(drawing) { context.output.line("  " + line) }
        context.output.line("  " + TerminalSilhouetteRenderer.legend)
        let counted = TapSummary(taps)
        context.output.line(
            "taps \(counted.taps), hits \(counted.hits)"
                + (counted.partialReads > 0 ? ", partial reads \(counted.partialReads)" : "")
                + (counted.foreign > 0 ? ", foreign answers \(counted.foreign)" : "")
                + (counted.skips > 0 ? ", skipped \(counted.skips)" : "") + (s.iou.map { String(format: ", IoU %.2f", $0) } ?? "")
                + "  reader \(safe(s.reader.description))  unit \(safe(s.unit ?? "-"))  operator \(safe(s.operatorName ?? "-"))")
        if let layers = counted.layerWords { context.output.line("  hits/taps per layer: \(layers)") }
    }
}
