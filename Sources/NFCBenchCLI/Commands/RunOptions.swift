import Foundation
import NFCBench
import NFCBenchRecords
import NFCBenchUseCases
import NFCLocatorCore
import NFCReaders

/// `run`'s options, declared once, and their values for one invocation.
struct RunOptions {
    static let model = Option<String>(
        "--model", short: "m", value: "id|name", help: "The phone under test: identifier (SM-S921B) or name (\"Galaxy S24\").")
    static let allowUnknown = Flag(
        "--allow-unknown", help: "Record a session for a model the catalog does not know, without asking (scripts).")
    static let reader = ReaderCommands.reader
    static let plan = Option<PlanKind>(
        "--plan", value: ProbePlans.choices,
        help: "Probe plan (default coil where the reader's antenna and the phone's body are known and the reader can grade "
            + "its reads, else adaptive; "
            + ProbePlans.registered.map { "\($0.kind.rawValue): \($0.summary)" }.joined(separator: "; ") + ").",
        expected: ProbePlans.expectedChoices, choices: ProbePlans.names,
        convert: OptionValue.choice(PlanKind.self))
    static let unit = Option<String>.storedText(
        "--unit", value: "label", help: "Which physical unit of the model (serial, asset tag).")
    static let operatorName = Option<String>.storedText("--operator", value: "name", help: "Who runs the session.")
    static let phoneOS = Option<String>.storedText(
        "--phone-os", value: "version", help: "The phone's OS and version, for the record (\"Android 15\", \"iOS 18.1\").")
    static let phoneBuild = Option<String>.storedText(
        "--phone-build", value: "build", help: "The phone's build number, for the record.")
    static let phoneCase = Option<String>.storedText(
        "--case", value: "case", help: "The phone's case during the session, for the record (\"none\", or which case).")
    static let readerAntenna = Option<(width: Double, height: Double)>(
        "--reader-antenna", value: "WxH",
        help: "The reader's antenna in mm, for the physical model (default: the reader's profile; docs/physics.md).",
        expected: "width x height in mm, each \(OptionValue.describe(ReaderGeometry.antennaSides)), e.g. 46x64",
        convert: { text in
            let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false).map(String.init)
            let sides = parts.compactMap(OptionValue.decimal).filter { ReaderGeometry.antennaSides.contains($0) }
            return parts.count == 2 && sides.count == 2 ? (sides[0], sides[1]) : nil
        })
    static let gapMm = Option<Double>(
        "--gap-mm", value: "mm",
        help: "Between the reader's antenna and the phone's coil with the phone resting on it (default: the reader's profile).",
        expected: "millimetres in \(OptionValue.describe(ReaderGeometry.gaps))",
        convert: OptionValue.number(in: ReaderGeometry.gaps))
    static let temperature = condition(
        "--temperature-c", unit: ("°C", "degrees Celsius"), BenchConditions.temperatures,
        help: "The room's temperature at the bench, for the record (from the lab's thermometer).")
    static let humidity = condition(
        "--humidity-pct", unit: ("%", "percent"), BenchConditions.humidities,
        help: "The room's relative humidity at the bench, for the record.")

    /// A figure of the room (`BenchConditions`), refused outside its range as a usage error.
    static func condition(
        _ name: String, unit: (symbol: String, words: String), _ range: ClosedRange<Double>, help: String
    ) -> Option<Double> {
        Option<Double>(
            name, value: unit.symbol, help: help, expected: "\(unit.words) in \(OptionValue.describe(range))",
            convert: OptionValue.number(in: range))
    }
    static let tapTimeout = Option<Double>(
        "--tap-timeout", value: "seconds", help: "How long to wait for the phone at each position (default 5).",
        expected: "seconds in \(OptionValue.describe(SessionRecord.tapTimeouts))",
        convert: OptionValue.seconds(in: SessionRecord.tapTimeouts))
    static let repeats = Option<Int>(
        "--repeats", value: "n", help: "Taps per position (default 1).",
        expected: "a whole number in \(SessionRecord.repeatCounts.lowerBound)...\(SessionRecord.repeatCounts.upperBound)",
        convert: OptionValue.whole(in: SessionRecord.repeatCounts))
    static let positioner = Option<PositionerChoice>(
        "--positioner", value: Positioners.syntax, help: "Who moves the phone (default manual; sim with --reader sim).",
        expected: Positioners.expectedChoices,
        choices: Positioners.registered.map(\.scheme).filter { !$0.hasSuffix(":") }, convert: Positioners.parse)
    static let positionerTimeouts: ClosedRange<Double> = 1...3600
    static let positionerTimeout = Option<Double>(
        "--positioner-timeout", value: "seconds",
        help: "How long an exec: command, or a gcode machine's answer, may take (default 60).",
        expected: "seconds in \(OptionValue.describe(positionerTimeouts))", convert: OptionValue.seconds(in: positionerTimeouts))
    static let confirmEach = Flag(
        "--confirm-each",
        help: "With a machine positioner, also wait for Enter or Space before every window (a manual run always does).")
    static let faultTimeouts: ClosedRange<Double> = 1...86_400
    static let faultTimeout = Option<Double>(
        "--fault-timeout", value: "seconds",
        help: "How long a faulty or unplugged reader may take to answer again before the run stops, saved (default 600).",
        expected: "seconds in \(OptionValue.describe(faultTimeouts))", convert: OptionValue.seconds(in: faultTimeouts))
    static let auto = Flag("--auto", help: "No keyboard prompts (needs a positioner other than manual).")
    static let resume = Option<String>("--resume", value: "session", help: "Continue a saved session.")
    static let simAntenna = SimOptions.antenna(
        name: "--sim-antenna", help: "With --reader sim: the phone's true antenna (default: the catalog zone).")
    static let simSeed = Option<UInt64>(
        "--sim-seed", value: "n", help: "With --reader sim: seed for reproducible taps (default 1).",
        expected: "a whole number >= 0", convert: { UInt64($0) })
    static let simBench = Option<String>(
        "--sim-bench", value: "dir", help: "A virtual bench to move for --positioner sim (default: beside a pn532 pty).")
    static let noFeedback = Flag("--no-feedback", help: "No LED/buzzer feedback.")
    static let coupling = Flag(
        "--coupling",
        help: "Grade each HIT by the weakest analog profile that still reads there (PN53x through libnfc, ACR122U; "
            + "docs/coupling.md). The coil plan grades by default where the reader can.")
    static let noCoupling = Flag("--no-coupling", help: "Never grade: binary taps, even under the coil plan.")
    static let json = Flag("--json", help: "Print only the session summary, as one JSON object.")
    static let report = Option<String>(
        "--report", value: "file", help: "Write the session's HTML report here (default: <session id>.html beside the database).")
    static let noReport = Flag("--no-report", help: "Write no HTML report at the end.")
    static let includeSimulated = Flag(
        "--include-simulated",
        help: "Let an adaptive plan learn from simulated sessions too (it learns from bench evidence only by default).")

    static let all: [OptionSpec] =
        [
            model.spec, allowUnknown.spec, reader.spec, plan.spec, RasterOptions.stepMm.spec, HeightOptions.heights.spec,
            unit.spec,
            operatorName.spec, phoneOS.spec, phoneBuild.spec, readerAntenna.spec, gapMm.spec,
            phoneCase.spec, temperature.spec, humidity.spec,
            tapTimeout.spec, repeats.spec, coupling.spec, noCoupling.spec,
            positioner.spec, RigOptions.rig.spec,
            positionerTimeout.spec, confirmEach.spec, faultTimeout.spec, auto.spec, StoreOptions.database.spec, resume.spec,
            simAntenna.spec, simSeed.spec,
            simBench.spec, noFeedback.spec, json.spec, report.spec, noReport.spec, LabOptions.station.spec,
            LabOptions.labStore.spec, mode.spec, ndefURI.spec, ndefText.spec, includeSimulated.spec,
        ] + EquipmentOptions.all
    static let mode = Option<TapMode>(
        "--mode", value: "card|tag",
        help: "card (default): the reader polls the phone (HCE, Wallet); tag: the reader emulates a Type 4 tag the phone reads.",
        expected: "card or tag", choices: TapMode.allCases.map(\.rawValue),
        convert: OptionValue.choice(TapMode.self))
    static let ndefURI = Option<String>(
        "--ndef-uri", value: "uri", help: "Tag mode: the URI the tag holds (default https://nfcbench.invalid/SESSION/POSITION).")
    static let ndefText = Option<String>(
        "--ndef-text", value: "text", help: "Tag mode: a text record the tag holds instead of a URI.")

    let readerSpec: ReaderSpec?
    /// `nil`: the run's default (`RunRequest.plan`).
    let plan: PlanKind?
    let tapTimeout: Double
    let repeats: Int
    let auto: Bool
    let json: Bool
    let feedback: Bool
    let unit: String?
    let operatorName: String?
    let databasePath: String
    let simAntenna: SimOptions.Rect?
    let simSeed: UInt64
    let positioner: PositionerChoice?
    let positionerTimeout: Duration
    let confirmEach: Bool
    let faultTimeout: Duration
    let simBenchDirectory: String?
    /// Where the finished session's HTML report goes; `nil` with `--no-report`.
    let reportURL: (_ sessionID: String) -> URL?
    /// This bench's station, recorded with a new session (`LabOptions.station`).
    var station: String?
    /// The station's equipment register (`EquipmentOptions`), recorded in the session's trail.
    var equipment: EquipmentRegister?
    var tapMode: TapMode { invocationMode ?? .card }
    let invocationMode: TapMode?
    /// Tag mode's message, when the operator chose one.
    let tagMessage: NDEFMessage?

    init(_ invocation: ParsedInvocation, _ context: CommandContext) {
        readerSpec = invocation[Self.reader]
        invocationMode = invocation[Self.mode]
        if let text = invocation[Self.ndefText] {
            tagMessage = NDEFMessage([.text(text, language: "en")])
        } else {
            tagMessage = invocation[Self.ndefURI].map { NDEFMessage([.uri($0)]) }
        }
        plan = invocation[Self.plan]
        tapTimeout = invocation[Self.tapTimeout] ?? 5
        repeats = invocation[Self.repeats] ?? 1
        auto = invocation[Self.auto]
        json = invocation[Self.json]
        feedback = !invocation[Self.noFeedback]
        unit = invocation[Self.unit]
        operatorName = invocation[Self.operatorName] ?? context.environment["USER"]
        databasePath = StoreOptions.path(invocation, context)
        simAntenna = invocation[Self.simAntenna]
        simSeed = invocation[Self.simSeed] ?? 1
        positioner = invocation[Self.positioner]
        positionerTimeout = .milliseconds(Int64((invocation[Self.positionerTimeout] ?? 60) * 1000))
        confirmEach = invocation[Self.confirmEach]
        faultTimeout = .milliseconds(Int64((invocation[Self.faultTimeout] ?? 600) * 1000))
        simBenchDirectory = invocation[Self.simBench].map { context.url(forPath: $0).path }
        let chosen = invocation[Self.report].map { context.url(forPath: $0) }
        let folder = URL(fileURLWithPath: databasePath).deletingLastPathComponent()
        let noReport = invocation[Self.noReport]
        reportURL = { id in noReport ? nil : chosen ?? folder.appendingPathComponent(id + ".html") }
    }
}
