import Foundation
import NFCBench
import NFCBenchUseCases
import NFCReaders

/// `nfcbench readers` and `nfcbench poll`.
enum ReaderCommands {
    static let readersSpec = CommandSpec(
        "readers", abstract: "List readers reachable through libnfc and PC/SC.",
        discussion: "libnfc finds USB readers by autoscan, others through LIBNFC_DEVICE or /etc/nfc/devices.d.",
        options: [readersJSON.spec],
        handler: listReaders)

    static let pollSpec = CommandSpec(
        "poll", abstract: "Wait for ISO 14443 A/B targets and print each one.",
        discussion: """
            Exit codes: 0 a target was seen, 1 reader error, 3 the timeout passed with no target, 130 interrupted.
            Phones in card emulation show a new random UID on every tap: never use the UID to identify a phone.
            """,
        options: [reader.spec, timeout.spec, count.spec, noFeedback.spec, pollJSON.spec],
        handler: poll, headStart: openNamedReader)

    /// A named reader starts opening while the command's task is being set up.
    @Sendable static func openNamedReader(_ invocation: ParsedInvocation, _ context: CommandContext) -> ReaderHeadStart? {
        invocation[reader].map { ReaderHeadStart($0, selection: selection(invocation, context)) }
    }

    /// How `poll` opens a reader, ahead of its task or in it: one place, so both open alike.
    static func selection(_ invocation: ParsedInvocation, _ context: CommandContext) -> ReaderSelection {
        ReaderSelection(environment: context.environment, feedback: !invocation[noFeedback])
    }

    static let readersJSON = Flag("--json", help: "Print a JSON array.")
    static let reader = Option<ReaderSpec>(
        "--reader", value: "spec", help: "\(ReaderBackends.syntax) (default: the only reader).",
        expected: ReaderBackends.syntax, convert: { try? ReaderBackends.parse($0) },
        explain: readerProblem)

    /// What is wrong with a reader spec, in the spec parser's own words and hint.
    @Sendable static func readerProblem(_ text: String) -> String? {
        do throws(ReaderError) {
            _ = try ReaderBackends.parse(text)
            return nil
        } catch {
            return error.message + (error.hint.map { " " + $0 } ?? "")
        }
    }
    static let pollTimeouts: ClosedRange<Double> = 0.05...86_400
    static let timeout = Option<Double>(
        "--timeout", value: "seconds", help: "How long to wait for each target (default 10).",
        expected: "seconds in \(OptionValue.describe(pollTimeouts))", convert: OptionValue.seconds(in: pollTimeouts))
    static let count = Option<Int>(
        "--count", value: "n", help: "Stop after this many targets (default 1).",
        expected: "a whole number in 1...1000000", convert: OptionValue.whole(in: 1...1_000_000))
    static let noFeedback = Flag("--no-feedback", help: "No LED/buzzer feedback on readers that have them.")
    static let pollJSON = Flag("--json", help: "One JSON object per target (JSON lines).")

    static func describe(_ support: TagEmulationSupport) -> String {
        switch support {
        case .supported: "supported"
        case .limited(let caveat): "limited: " + caveat
        case .unsupported(let reason): "unsupported: " + reason
        }
    }

    static func listReaders(_ invocation: ParsedInvocation, _ context: CommandContext) async throws -> Int32 {
        let inventory = await ReaderInventory.gather(environment: context.environment)
        if let problem = inventory.untrustedRegistry {
            context.errors.line(
                "Warning: virtual benches not listed: \(TerminalSafeText.neutralise(problem)). "
                    + "Remove that folder, or set XDG_RUNTIME_DIR or NFCBENCH_STATE_DIR to a private one.")
        }
        if invocation[readersJSON] {
            context.output.line(JSONValue.array(inventory.rows.map(json)).serialized(pretty: true))
        } else {
            printText(inventory, context)
        }
        for problem in inventory.problems { context.errors.line("Note: \(problem.message) \(problem.hint ?? "")") }
        return ExitCode.success
    }

    static func json(_ r: ReaderInventory.Row) -> JSONValue {
        .object([
            ("backend", .string(r.info.backend.rawValue)), ("name", .string(String(r.info.spec.drop { $0 != ":" }.dropFirst()))),
            ("spec", .string(r.info.spec)), ("firmware", .optional(r.firmware)),
            ("serial", .optional(r.serial)),
            ("inUse", r.inUse.map(JSONValue.bool) ?? .null), ("virtualBench", .optional(r.virtualBench)),
            ("modes", .array(r.modeNames.map(JSONValue.string))), ("tagMode", .string(Self.describe(r.tagMode))),
        ])
    }

    static func printText(_ inventory: ReaderInventory, _ context: CommandContext) {
        if inventory.rows.isEmpty { context.output.line("No readers found.") }
        for r in inventory.rows {
            let use = r.inUse.map { $0 ? "in use" : "free" } ?? "state unknown"
            var modes = "modes: " + r.modeNames.joined(separator: ", ")
            if case .limited = r.tagMode { modes = "modes: card, tag (limited)" }
            context.output.line(
                "\(r.info.backend.rawValue)\t\(r.info.spec)\t\(r.firmware ?? "firmware unknown")\(r.serial.map { ", serial \($0)" } ?? "")\t\(use)\t\(modes)"
                    + (r.virtualBench.map { "\tvirtual bench in \($0) (simulated: never bench evidence)" } ?? ""))
        }
        for bench in inventory.benches {
            context.output.line(
                "Virtual bench running in \(bench.directory) (pid \(bench.pid)): "
                    + (bench.connstring.map { "run --reader libnfc:\($0)" } ?? "no emulated PN532")
                    + (bench.vpcdPort.map {
                        "; its card is behind vpcd on port \($0) (a pcscd with vpcd lists it as a PC/SC reader)"
                    } ?? ""))
        }
    }

    static func poll(_ invocation: ParsedInvocation, _ context: CommandContext) async throws -> Int32 {
        let timeout = invocation[Self.timeout] ?? 10
        let count = invocation[Self.count] ?? 1
        let spec = invocation[Self.reader]
        let json = invocation[pollJSON]
        let reader = try await ReaderFailure.wrap { () throws(ReaderError) in
            if let ahead = invocation.readerHeadStart { return try await ahead.reader() }
            var chosen = spec
            if chosen == nil { chosen = try await ReaderInventory.onlyReader(environment: context.environment) }
            return try await selection(invocation, context).open(chosen)
        }
        let closed: @Sendable ([String]) -> Void = { for warning in $0 { context.errors.line("Warning: \(warning)") } }
        let seen: Int
        do {
            seen = try await ReaderScope.using(ReaderHolder(reader), closed: closed) { readers in
                try await pollTargets(readers.current, count: count, timeout: timeout, json: json, context)
            }
        } catch let error as ReaderError {
            if error.code == .cancelled {
                context.errors.line("Interrupted; the reader was closed and restored.")
                return 130
            }
            throw ReaderFailure.commandFailure(error)
        }
        if seen == 0 {
            context.errors.line("No target within \(Self.format(timeout)) s.")
            return ExitCode.noTarget
        }
        return ExitCode.success
    }

    /// Up to `count` targets, each printed as it comes; the number seen.
    static func pollTargets(
        _ reader: any Reader, count: Int, timeout: Double, json: Bool, _ context: CommandContext
    ) async throws(ReaderError) -> Int {
        let progress = WaitProgress(output: context.errors, interactive: context.errors.isTerminal && !json)
        defer { progress.stop() }
        var seen = 0
        while seen < count {
            progress.start("Waiting for a target on \(reader.info.name)", timeout: timeout)
            let target = try await reader.waitForTarget(timeout: .milliseconds(Int64(timeout * 1000)))
            progress.stop()
            guard let target else { break }
            seen += 1
            await reader.signal(TapFeedback.hit)
            context.output.line(json ? TargetJSON.line(target) : TargetJSON.human(target))
            if seen < count {
                progress.start("Lift the phone", timeout: timeout)
                _ = try await reader.waitForRemoval(timeout: .milliseconds(Int64(timeout * 1000)))
                progress.stop()
            }
        }
        return seen
    }

    static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}

/// Reader errors as command failures: message, hint, exit 1.
enum ReaderFailure {
    static func commandFailure(_ error: ReaderError) -> CommandFailure {
        CommandFailure(error.description, hint: error.hint)
    }

    static func wrap<T>(_ body: () async throws(ReaderError) -> T) async throws -> T {
        do { return try await body() } catch { throw commandFailure(error) }
    }
}

/// Targets as JSON lines and as text.
enum TargetJSON {
    static func object(_ t: DetectedTarget) -> JSONValue {
        func hex(_ bytes: [UInt8]?) -> JSONValue { bytes.map { .string(Hex.string($0)) } ?? .null }
        return .object([
            ("technology", .string(t.technology.rawValue)),
            ("uid", .string(Hex.string(t.uid))),
            ("atqa", hex(t.atqa)),
            ("sak", t.sak.map { .string(Hex.string([$0])) } ?? .null),
            ("ats", hex(t.ats)),
            ("atqb", hex(t.atqb)),
            ("atr", hex(t.atr)),
            ("atrInfo", .optional(t.atrInfo?.summary)),
            ("kind", .string(t.kind.rawValue)),
            ("platformProbe", .optional(t.platformProbe?.rawValue)),
            ("latencyMs", .number((t.latencyMilliseconds * 10).rounded() / 10)),
            ("reader", .string(t.reader)),
        ])
    }

    static func line(_ t: DetectedTarget) -> String { object(t).serialized() }

    static func human(_ t: DetectedTarget) -> String {
        var parts = ["\(t.technology.rawValue)", "UID \(Hex.string(t.uid, separator: " "))"]
        if let atqa = t.atqa { parts.append("ATQA \(Hex.string(atqa, separator: " "))") }
        if let sak = t.sak { parts.append("SAK \(Hex.string([sak]))") }
        if let ats = t.ats { parts.append("ATS \(Hex.string(ats, separator: " "))") }
        if let atqb = t.atqb { parts.append("ATQB \(Hex.string(atqb, separator: " "))") }
        if let atr = t.atr { parts.append("ATR \(Hex.string(atr, separator: " "))") }
        parts.append("\(t.kind.rawValue)")
        switch t.platformProbe {
        case .android?: parts.append("Android (answers the HCE AID)")
        case .notAndroid?: parts.append("not Android (refuses the HCE AID)")
        case .noAnswer?, nil: break
        }
        parts.append(FixedPoint.format(t.latencyMilliseconds, 1) + " ms")
        // Joined by hand: this line is printed just after the reader answers, and the
        // generic `joined` costs a scan of every protocol conformance the first time it
        // runs (docs/performance.md).
        var line = ""
        for part in parts {
            if !line.isEmpty { line += "  " }
            line += part
        }
        return line
    }
}
