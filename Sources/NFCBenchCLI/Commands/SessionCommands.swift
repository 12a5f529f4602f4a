import Foundation
import NFCBench
import NFCLocatorCore
import NFCStore

/// `nfcbench sessions` and `nfcbench show`.
enum SessionCommands {
    static let dbOption = OptionSpec("--db", value: "path", help: "Session database (default NFCBENCH_DB or $XDG_DATA_HOME/nfcbench/bench.sqlite).")

    static let listSpec = CommandSpec(
        "sessions", abstract: "List recorded sessions.",
        options: [OptionSpec("--model", value: "id", help: "Only this model (and its regional variants)."),
                  dbOption, OptionSpec("--json", help: "Print a JSON array.")],
        handler: list)

    static let showSpec = CommandSpec(
        "show", abstract: "Redraw a session: the silhouette with its hits and misses, and its score.",
        arguments: [ArgumentSpec("session", help: "The session id.")],
        options: [dbOption, OptionSpec("--json", help: "Print the session summary and its taps as JSON.")],
        handler: show)

    static func list(_ invocation: ParsedInvocation, _ context: CommandContext) async throws -> Int32 {
        let path = DatabaseLocation.path(option: invocation.value("--db"), context: context)
        let store = try RunCommand.openStore(path)
        let sessions = try await Self.sessions(of: invocation.value("--model"), in: store)
        if invocation.flag("--json") {
            var rows: [JSONValue] = []
            for s in sessions {
                let taps = try await store.taps(s.id)
                rows.append(.object([
                    ("id", .string(s.id)), ("status", .string(s.status.rawValue)), ("model", .string(s.modelInput)),
                    ("lookupKey", .string(s.lookupKey)), ("verdict", .optional(s.verdict)), ("unit", .optional(s.unit)),
                    ("taps", .int(taps.count)), ("hits", .int(taps.filter { $0.result == .hit }.count)),
                    ("startedAt", .string(s.startedAt.formatted(.iso8601))),
                ]))
            }
            context.output.line(JSONValue.array(rows).serialized(pretty: true))
            return ExitCode.success
        }
        if sessions.isEmpty { context.output.line("No sessions in \(path).") }
        for s in sessions {
            context.output.line("\(s.id)  \(s.status.rawValue.padding(toLength: 11, withPad: " ", startingAt: 0))  "
                + "\(s.modelInput)  \(s.verdict ?? "-")  \(s.startedAt.formatted(.iso8601))")
        }
        return ExitCode.success
    }

    /// Sessions of `model` (all when `nil`), regional variants included.
    static func sessions(of model: String?, in store: BenchStore) async throws -> [SessionRecord] {
        let all = try await store.sessions()
        guard let model else { return all }
        return SessionSelection.sessions(of: model, in: all)
    }

    static func show(_ invocation: ParsedInvocation, _ context: CommandContext) async throws -> Int32 {
        let path = DatabaseLocation.path(option: invocation.value("--db"), context: context)
        let store = try RunCommand.openStore(path)
        let id = invocation.positionals[0]
        guard let s = try await store.session(id) else {
            throw CommandFailure("No session '\(id)' in \(path).", hint: "List them with 'nfcbench sessions --db \(path)'.")
        }
        let taps = try await store.taps(id)
        if invocation.flag("--json") {
            let summary = RunPrinter.summary(s, score: nil, databasePath: path)
            guard case .object(var members) = summary else { return ExitCode.failure }
            members.append(("tapList", .array(taps.map { t in
                .object([("step", .int(t.step)), ("attempt", .int(t.attempt)), ("x", .number(t.probeX)), ("y", .number(t.probeY)),
                         ("result", .string(t.result.rawValue)), ("latencyMs", t.latencyMs.map(JSONValue.number) ?? .null),
                         ("uid", .optional(t.uid))])
            })))
            context.output.line(JSONValue.object(members).serialized(pretty: true))
            return ExitCode.success
        }
        let useColor = context.useColor(invocation)
        let zone = s.predicted.flatMap { try? NormalizedRect(x: $0[0], y: $0[1], width: $0[2], height: $0[3]) }
        let marks = taps.filter { $0.result != .skipped }.map {
            SilhouetteDrawing.Mark(x: $0.probeX, y: $0.probeY, kind: $0.result == .hit ? .hit : .miss)
        }
        context.output.line("\(s.id)  \(s.displayName ?? s.modelInput) (\(s.lookupKey))  \(s.status.rawValue)  \(s.verdict ?? "")")
        let drawing = SilhouetteDrawing(aspectRatio: s.aspectRatio, zone: zone, zoneStyle: s.stale ? .stale : .approximate, marks: marks)
        for line in TerminalSilhouetteRenderer(rows: 15, useColor: useColor).render(drawing) { context.output.line("  " + line) }
        context.output.line("  " + TerminalSilhouetteRenderer.legend)
        let hits = taps.filter { $0.result == .hit }.count
        context.output.line("taps \(taps.count), hits \(hits)" + (s.iou.map { String(format: ", IoU %.2f", $0) } ?? "")
            + "  reader \(s.readerName)  unit \(s.unit ?? "-")  operator \(s.operatorName ?? "-")")
        return ExitCode.success
    }
}
