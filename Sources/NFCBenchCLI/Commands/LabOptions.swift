import Foundation
import NFCBenchRecords
import NFCBenchUseCases

/// Where this bench stands in a lab: its station name and the lab store it pushes to.
///
/// Each comes from its option, else its environment variable, else the lab file
/// (`$XDG_CONFIG_HOME/nfcbench/lab.conf`, `key = value` lines: `station`, `lab-store`).
/// A station always has a name: without one configured, the host's name. Connection
/// strings are libpq's own; keep passwords in `~/.pgpass`, not here (docs/lab-store.md).
enum LabOptions {
    static let station = Option<String>(
        "--station", value: "name", help: "This bench's name in the lab (default NFCBENCH_STATION, lab.conf, host name).",
        expected: "a station name: 1-63 letters, digits, '.', '_' or '-'",
        convert: { StationName.validate($0) == nil ? $0 : nil })
    static let labStore = Option<String>(
        "--lab-store", value: "url",
        help: "Lab store to push sessions to: a PostgreSQL connection string (default NFCBENCH_LAB_STORE, lab.conf).")
    static let readStore = Option<String>(
        "--store", value: "url", help: "Read the lab store (a PostgreSQL connection string) instead of the bench database.")

    /// The lab file's settings; a missing file is no settings, a malformed line an error.
    static func file(_ context: CommandContext) throws -> [String: String] {
        let path = filePath(context)
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [:] }
        var settings: [String: String] = [:]
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let parts = line.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, ["station", "lab-store"].contains(parts[0]), !parts[1].isEmpty else {
                throw CommandFailure(
                    "\(path), line \(number + 1): expected 'station = NAME' or 'lab-store = URL'.",
                    hint: "Fix or remove the line; '#' starts a comment.")
            }
            settings[parts[0]] = parts[1]
        }
        return settings
    }

    /// `$XDG_CONFIG_HOME/nfcbench/lab.conf`, else `~/.config/nfcbench/lab.conf`.
    static func filePath(_ context: CommandContext) -> String {
        let base =
            context.environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (context.environment["HOME"] ?? NSHomeDirectory()) + "/.config"
        return base + "/nfcbench/lab.conf"
    }

    /// A command's lab settings: each resolved when asked, the lab file read at most once.
    struct Settings {
        let invocation: ParsedInvocation
        let context: CommandContext
        private var fileSettings: [String: String]?

        init(_ invocation: ParsedInvocation, _ context: CommandContext) {
            self.invocation = invocation
            self.context = context
        }

        private mutating func fromFile(_ key: String) throws -> String? {
            if fileSettings == nil { fileSettings = try LabOptions.file(context) }
            return fileSettings?[key]
        }

        /// This bench's station name.
        mutating func station() throws -> String {
            if let name = invocation[LabOptions.station] { return name }
            return try LabOptions.station(configured: context.environment["NFCBENCH_STATION"], fromFile: fromFile("station"))
        }

        /// The lab store this bench pushes to, if any.
        mutating func labStoreURL() throws -> String? {
            if let url = invocation[LabOptions.labStore] { return url }
            if let url = context.environment["NFCBENCH_LAB_STORE"], !url.isEmpty { return url }
            return try fromFile("lab-store")
        }
    }

    /// The station from the environment, else the lab file, else the host's name.
    static func station(configured environment: String?, fromFile: String?) throws -> String {
        if let configured = environment.flatMap({ $0.isEmpty ? nil : $0 }) ?? fromFile {
            if let problem = StationName.validate(configured) {
                throw CommandFailure(
                    "The station name '\(configured)' (NFCBENCH_STATION or lab.conf) is not valid: \(problem).",
                    hint: "Set a name such as 'bench-3'.")
            }
            return configured
        }
        return hostStation()
    }

    /// The host name, as far as it makes a valid station name.
    static func hostStation() -> String {
        let host = ProcessInfo.processInfo.hostName.split(separator: ".").first.map(String.init) ?? ""
        let cleaned = String(host.unicodeScalars.map { StationName.validate(String($0)) == nil ? Character($0) : "-" })
        return StationName.validate(cleaned) == nil ? cleaned : "bench"
    }

    /// How long one lab store statement may take: `NFCBENCH_LAB_TIMEOUT` seconds (1-3600),
    /// else 25. A lock held by another bench, a stopped server or a dropped link then ends
    /// the command with exit 75 within that bound instead of hanging the bench.
    static func timeoutSeconds(_ context: CommandContext) throws -> Int {
        guard let text = context.environment["NFCBENCH_LAB_TIMEOUT"], !text.isEmpty else {
            return BenchStores.defaultLabTimeoutSeconds
        }
        guard let value = Int(text), (1...3600).contains(value) else {
            throw CommandFailure(
                "NFCBENCH_LAB_TIMEOUT is '\(TerminalSafeText.neutralise(text))', not a whole number of seconds in 1...3600.",
                hint: "Unset it for the default of \(BenchStores.defaultLabTimeoutSeconds) s.", exitCode: ExitCode.usage)
        }
        return value
    }

    /// Opens the lab store, turning libpq's and the schema's errors into what to do.
    static func open(_ url: String, migrate: Bool = false, _ context: CommandContext) async throws -> any LabStoreAccess {
        // The administrator's migrate may build indexes on a large store: it gets ten minutes.
        let timeout = migrate ? max(try timeoutSeconds(context), 600) : try timeoutSeconds(context)
        do { return try await BenchStores.openLab(url, migrate: migrate, timeoutSeconds: timeout) } catch {
            throw StoreOptions.words(error)
        }
    }
}
