import Foundation
import NFCBenchRecords

/// The HTML report printed to PDF on a stated paper size, for labs that file PDFs.
///
/// The HTML is written to a private scratch folder (mode 0700, removed afterwards) for
/// Chromium to open; the PDF comes back through the sink, so the destination is replaced
/// only by a complete file, as for every other format.
public struct PDFReportExporter: SessionExporter {
    public enum Paper: String, Sendable, CaseIterable {
        case a4, letter
        var css: String { self == .a4 ? "A4" : "letter" }
    }

    public let options: ReportOptions
    public let paper: Paper
    public let printer: HeadlessChromium

    public init(options: ReportOptions, paper: Paper, printer: HeadlessChromium) {
        self.options = options
        self.paper = paper
        self.printer = printer
    }

    public func export(_ sessions: SessionSource, from store: any BenchReading, to sink: ExportSink) async throws {
        var html = options
        html.pageSize = paper.css
        let page = ExportSink.memory()
        try await HTMLReportExporter(options: html).export(sessions, from: store, to: page)
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("nfcbench-pdf-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: scratch, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: scratch) }
        let input = scratch.appendingPathComponent("report.html"), output = scratch.appendingPathComponent("report.pdf")
        try Data(page.bytes).write(to: input)
        try await printer.print(html: input, to: output, scratch: scratch)
        guard let pdf = try? Data(contentsOf: output), pdf.starts(with: Array("%PDF-".utf8)),
            pdf.suffix(64).range(of: Data("%%EOF".utf8)) != nil
        else {
            throw PDFPrintError("\(printer.executable) reported success but wrote no complete PDF")
        }
        try sink.append(Array(pdf))
        try sink.flush()
    }
}
