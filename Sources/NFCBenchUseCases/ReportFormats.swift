import NFCBench

/// What a report format is built from: the options every format shares, and for a
/// printed one its paper and the printer found before anything was read.
public struct ReportFormatSetup: Sendable {
    public var options: ReportOptions
    public var paper: PDFReportExporter.Paper
    public var printer: HeadlessChromium?

    public init(options: ReportOptions, paper: PDFReportExporter.Paper = .a4, printer: HeadlessChromium? = nil) {
        self.options = options
        self.paper = paper
        self.printer = printer
    }
}

/// One format of `nfcbench report`: its name, its line of help, what it can hold and what
/// it needs, and how its exporter is built. The command's choices, help, refusals and
/// manual page all come from these (`ReportFormats.registered`).
public struct ReportFormat: Sendable {
    public let name: String
    /// One line for `--format`'s help.
    public let summary: String
    /// One drawing only (SVG): one session, or one model's tap map.
    public let drawsOne: Bool
    /// The page a lab files (HTML and its PDF print): the sign-off with a reviewer, local
    /// times, the model's catalog entry and refined zone.
    public let isFiledPage: Bool
    /// Printed on paper by headless Chromium (`setup.printer`), so never written to a terminal.
    public let isPrinted: Bool
    let build: @Sendable (ReportFormatSetup) -> any SessionExporter

    public init(
        _ name: String, summary: String, drawsOne: Bool = false, isFiledPage: Bool = false, isPrinted: Bool = false,
        build: @escaping @Sendable (ReportFormatSetup) -> any SessionExporter
    ) {
        self.name = name
        self.summary = summary
        self.drawsOne = drawsOne
        self.isFiledPage = isFiledPage
        self.isPrinted = isPrinted
        self.build = build
    }

    public func exporter(_ setup: ReportFormatSetup) -> any SessionExporter {
        precondition(!isPrinted || setup.printer != nil, "a printed format is built with the printer found first")
        return build(setup)
    }
}

/// Every report format, registered once. A new format is its exporter (a `SessionExporter`
/// in NFCBench's Report folder) and one line here (docs/architecture.md).
public enum ReportFormats {
    public static let registered: [ReportFormat] = [
        ReportFormat("html", summary: "one self-contained page per session, to read and file", isFiledPage: true) {
            HTMLReportExporter(options: $0.options)
        },
        ReportFormat("pdf", summary: "the HTML pages printed on --paper", isFiledPage: true, isPrinted: true) {
            PDFReportExporter(options: $0.options, paper: $0.paper, printer: $0.printer!)
        },
        ReportFormat("svg", summary: "one drawing: a session, or a model's tap map", drawsOne: true) {
            SVGReportExporter(summary: $0.options.summary == .model, clock: $0.options.clock)
        },
        ReportFormat("junit", summary: "JUnit XML for CI: a test case per position") {
            JUnitReportExporter(options: $0.options)
        },
        ReportFormat("csv-sessions", summary: "one CSV row per session (docs/csv.md)") { _ in CSVSessionExporter() },
        ReportFormat("json", summary: "each session as 'show --json' prints it (docs/schema/session.schema.json)") {
            JSONReportExporter(options: $0.options)
        },
    ]

    public static func named(_ name: String) -> ReportFormat? { registered.first { $0.name == name } }
    public static var names: [String] { registered.map(\.name) }
}
