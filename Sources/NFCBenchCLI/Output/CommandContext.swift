import Foundation
import NFCLocatorCore
import Synchronization

/// Everything a command handler may touch besides its arguments.
public struct CommandContext: Sendable {
    public let environment: [String: String]
    public let output: any TextOutput
    public let errors: any TextOutput
    /// The directory relative paths resolve against.
    public let workingDirectory: URL
    /// Found once: `resolve` needs the folder for the catalog and again for the strings.
    private let foundResources = FoundResources()

    public init(
        environment: [String: String], output: any TextOutput, errors: any TextOutput,
        workingDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    ) {
        self.environment = environment
        self.output = output
        self.errors = errors
        self.workingDirectory = workingDirectory
    }

    /// Colour only on a terminal that has it (not `TERM=dumb`), never with `NO_COLOR` (any
    /// non-empty value) or `--no-color`.
    public func useColor(_ invocation: ParsedInvocation) -> Bool {
        output.isTerminal && (environment["NO_COLOR"] ?? "").isEmpty && !invocation[GlobalOptions.noColor]
            && environment["TERM"] != "dumb"
    }

    /// The process environment, read straight from `environ`: `ProcessInfo.environment`
    /// costs a one-shot command such as `poll` about a tenth of its start-up.
    public static func processEnvironment() -> [String: String] {
        var result: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                let name = String(text[..<equals])
                if result[name] == nil { result[name] = String(text[text.index(after: equals)...]) }
            }
            entry += 1
        }
        return result
    }

    public func url(forPath path: String) -> URL {
        URL(fileURLWithPath: path, relativeTo: workingDirectory).standardizedFileURL
    }

    /// Shipped resources, or a failure that says how to point at them.
    public func resources() throws -> ResourceLocator {
        let found = foundResources.value.withLock { memo in
            if memo == nil { memo = .some(ResourceLocator.shipped(environment: environment)) }
            return memo!
        }
        if let found { return found }
        throw CommandFailure(
            "Cannot find nfcbench's data files (seed_catalog.json).",
            hint: "Reinstall with scripts/install.sh, or set NFCBENCH_RESOURCES to the folder that holds them.")
    }

    public func strings() -> StringCatalog {
        guard let url = try? resources().stringsURL, let catalog = try? StringCatalog.load(contentsOf: url) else {
            return StringCatalog(table: [:])
        }
        return catalog
    }
}

/// The shipped resources once looked up (`nil` inside: looked up, none found).
private final class FoundResources: Sendable {
    let value = Mutex<ResourceLocator??>(nil)
}

/// A failure the user can act on: printed as `Error: <message>` plus a hint; exit 1
/// unless a command documents another code.
public struct CommandFailure: Error, Sendable {
    public let message: String
    public let hint: String?
    public let exitCode: Int32

    public init(_ message: String, hint: String? = nil, exitCode: Int32 = ExitCode.failure) {
        self.message = Self.oneFullStop(message)
        self.hint = hint.map(Self.oneFullStop)
        self.exitCode = exitCode
    }

    /// Messages end a sentence around a cause that may end one itself ("...: \(error)."):
    /// `device..` becomes `device.`, an ellipsis stays.
    static func oneFullStop(_ text: String) -> String {
        guard text.hasSuffix(".."), !text.hasSuffix("...") else { return text }
        return String(text.dropLast())
    }
}

/// Documented exit codes.
public enum ExitCode {
    public static let success: Int32 = 0
    public static let failure: Int32 = 1
    /// `catalog validate`: the file is not JSON at all.
    public static let notJSON: Int32 = 2
    /// `poll`: the timeout passed with no target.
    public static let noTarget: Int32 = 3
    /// `run`: the operator quit; the session is saved and resumes with `--resume`
    /// (BSD `sysexits.h` EX_TEMPFAIL: try again later).
    public static let unfinished: Int32 = 75
    /// Ctrl-C: whatever was running stopped cleanly (`run`: the session is saved).
    public static let interrupted: Int32 = 130
    /// Usage error, as BSD `sysexits.h` EX_USAGE.
    public static let usage: Int32 = 64
    /// The session database is damaged (`sysexits.h` EX_DATAERR): nothing was read from it.
    public static let damagedStore: Int32 = 65
    /// A reading command left out damaged sessions: its output is whole for the rest,
    /// and each left out is named on standard error. `--allow-partial` makes it 0, for a
    /// script that accepts that (issue 49, F14: a partial export looked like a whole one).
    public static let partial: Int32 = 4
}
