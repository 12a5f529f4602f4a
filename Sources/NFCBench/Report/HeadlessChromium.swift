import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Headless Chromium as the report's PDF printer: it lays out the HTML report exactly as
/// a browser prints it (repeated table headers, page breaks, inline SVG as vectors), so
/// the PDF a lab files is the page it would print itself. librsvg would only turn single
/// drawings into PDF, not the tables and words around them.
public struct HeadlessChromium: Sendable {
    public let executable: String

    public init(executable: String) { self.executable = executable }

    /// Program names Debian, Ubuntu and Google's packages install.
    static let names = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"]

    /// `NFCBENCH_CHROMIUM` when set, else the first of `names` on `PATH`; `nil` when none
    /// is installed.
    public static func find(environment: [String: String]) -> HeadlessChromium? {
        if let given = environment["NFCBENCH_CHROMIUM"], !given.isEmpty {
            return FileManager.default.isExecutableFile(atPath: given) ? HeadlessChromium(executable: given) : nil
        }
        let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":") where directory.hasPrefix("/") {
            for name in names {
                let candidate = directory + "/" + name
                if FileManager.default.isExecutableFile(atPath: candidate) { return HeadlessChromium(executable: candidate) }
            }
        }
        return nil
    }

    /// Why `find` found none, and what to do.
    public static func missing(environment: [String: String]) -> String {
        if let given = environment["NFCBENCH_CHROMIUM"], !given.isEmpty {
            return "NFCBENCH_CHROMIUM=\(given) is not an executable file: set it to Chromium's path, or unset it to "
                + "search PATH for chromium."
        }
        return "--format pdf prints the HTML report with headless Chromium, and none is on PATH. Install it "
            + "(Debian: apt-get install chromium) or set NFCBENCH_CHROMIUM to its path; or write --format html and "
            + "print it from a browser."
    }

    /// Prints `html` (a file) to `pdf`. Chromium gets a profile of its own in `scratch`, no
    /// network (every host name resolves to nothing, background services off) and no
    /// header or footer lines; as root it cannot use its sandbox, and says so otherwise.
    func print(html: URL, to pdf: URL, scratch: URL, timeout: Duration = .seconds(120)) async throws {
        var arguments = [
            "--headless", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
            "--user-data-dir=" + scratch.appendingPathComponent("profile").path, "--disable-dev-shm-usage",
            "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-extensions",
            "--disable-domain-reliability", "--no-pings", "--host-resolver-rules=MAP * ~NOTFOUND",
            "--no-pdf-header-footer", "--print-to-pdf=" + pdf.path, html.absoluteString,
        ]
        if geteuid() == 0 { arguments.insert("--no-sandbox", at: 1) }
        let child = ChildCommand(executable: executable, arguments: arguments)
        do { try child.start() } catch { throw PDFPrintError("cannot start \(executable): \(error)") }
        switch await child.wait(timeout: timeout) {
        case .exited(0, _): break
        case .exited(let status, let stderr):
            throw PDFPrintError("\(executable) exited with status \(status): \(Self.lastLines(stderr))")
        case .timedOut(let stderr):
            throw PDFPrintError("\(executable) did not finish within \(timeout.seconds) s: \(Self.lastLines(stderr))")
        case .cancelled:
            throw CancellationError()
        }
    }

    static func lastLines(_ text: String) -> String {
        let lines = text.split(separator: "\n").suffix(3).joined(separator: " / ")
        return lines.isEmpty ? "no message" : lines
    }
}

public struct PDFPrintError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
