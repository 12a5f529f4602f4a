import Foundation
import NFCBench
import NFCLocatorCore
import NFCReaders
import NFCStore

/// `run`'s options, validated once.
struct RunOptions {
    let readerSpec: ReaderSpec?
    let plan: PlanKind
    let tapTimeout: Double
    let repeats: Int
    let auto: Bool
    let json: Bool
    let feedback: Bool
    let unit: String?
    let operatorName: String?
    let databasePath: String
    let simAntenna: (x: Double, y: Double, width: Double, height: Double)?
    let simSeed: UInt64
    let positionerText: String?
    let simBenchDirectory: String?

    init(_ invocation: ParsedInvocation, _ context: CommandContext) throws {
        readerSpec = try ReaderCommands.readerSpec(invocation)
        plan = try invocation.value("--plan", as: "grid or adaptive", PlanKind.init(rawValue:)) ?? .grid
        tapTimeout = try invocation.value("--tap-timeout", as: "seconds > 0") { Double($0).flatMap { $0 > 0 ? $0 : nil } } ?? 5
        repeats = try invocation.value("--repeats", as: "a whole number 1...10") { Int($0).flatMap { (1...10).contains($0) ? $0 : nil } } ?? 1
        auto = invocation.flag("--auto")
        json = invocation.flag("--json")
        feedback = !invocation.flag("--no-feedback")
        unit = invocation.value("--unit")
        operatorName = invocation.value("--operator") ?? context.environment["USER"]
        databasePath = DatabaseLocation.path(option: invocation.value("--db"), context: context)
        simAntenna = try invocation.value("--sim-antenna", as: "x,y,w,h fractions", SimOptions.rect)
        simSeed = try invocation.value("--sim-seed", as: "a whole number", UInt64.init) ?? 1
        positionerText = invocation.value("--positioner")
        simBenchDirectory = invocation.value("--sim-bench").map { context.url(forPath: $0).path }
        if let p = positionerText, !["manual", "sim"].contains(p), !p.hasPrefix("exec:") {
            throw UsageError("Invalid value '\(p)' for '--positioner': expected manual, sim or exec:TEMPLATE.", path: invocation.path)
        }
    }

    func positioner(reader: any Reader, simBench: PhoneOnBench, invocation: ParsedInvocation) throws -> any Positioner {
        let text = positionerText ?? (reader.info.backend == .sim ? "sim" : "manual")
        if text == "manual" { return ManualPositioner() }
        if text.hasPrefix("exec:") {
            let template = String(text.dropFirst(5))
            guard !template.isEmpty else { throw UsageError("'exec:' needs a command template.", path: invocation.path) }
            return ExecPositioner(template: template)
        }
        if reader.info.backend == .sim { return SimulatedPositioner(bench: simBench) }
        // A virtual bench: --sim-bench, or the folder of an emulated PN532's pty.
        var directory = simBenchDirectory
        if directory == nil, reader.info.spec.hasPrefix("libnfc:pn532_uart:") {
            let path = String(reader.info.spec.dropFirst("libnfc:pn532_uart:".count))
            directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        }
        guard let directory, FileManager.default.fileExists(atPath: directory + "/control.sock") else {
            throw UsageError("'--positioner sim' needs --reader sim or a virtual bench (give --sim-bench DIR).", path: invocation.path)
        }
        return VirtualBenchPositioner(directory: directory)
    }
}

/// Builds new sessions and the simulated phone behind `--reader sim`.
enum SessionFactory {
    static func newSession(model: String, resolution r: AntennaResolution, options: RunOptions, planPass: Int) -> SessionRecord {
        SessionRecord(id: sessionID(), model: model, resolution: r, plan: options.plan, planPass: planPass, unit: options.unit,
                      operatorName: options.operatorName, repeats: options.repeats, tapTimeout: options.tapTimeout,
                      startedAt: Date())
    }

    /// `S-20261129-161633-4f2a`: sortable, and unique enough for one lab.
    static func sessionID(now: Date = Date()) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "yyyyMMdd-HHmmss"
        return "S-\(f.string(from: now))-\(String(UInt16.random(in: 0...UInt16.max), radix: 16))"
    }

    static func simulatedPhone(session: SessionRecord, options: RunOptions) -> PhoneOnBench {
        let antenna = options.simAntenna ?? session.predicted.map { ($0[0], $0[1], $0[2], $0[3]) } ?? (0.1, 0.1, 0.8, 0.4)
        return PhoneOnBench(phone: SimulatedPhone(antenna: antenna, aspectRatio: session.aspectRatio), seed: options.simSeed)
    }
}
