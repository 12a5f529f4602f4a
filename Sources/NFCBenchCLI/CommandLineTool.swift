import Foundation
import NFCBench
import NFCBenchRecords
import NFCLocatorCore

/// The `nfcbench` command tree and its entry point.
public enum CommandLineTool {
    public static let version = "0.1.0"
    /// What `--version` prints and every report names: the release, the commit it was
    /// built from ("+changes" when the tree differed from it) and the build date.
    public static let versionWithBuild = "\(version) (commit \(BuildInfo.commit), built \(BuildInfo.date))"

    public static let root = CommandSpec(
        "nfcbench", abstract: "Find and verify where the NFC antenna sits on the back of a phone.",
        discussion: """
            Zones are fractions of the phone's back, viewed from the back, origin top-left, y down.
            Exit codes: 0 success, 1 failure, 64 usage error; commands document any others.
            """,
        listing: [
            Subcommand(
                "run", abstract: "Guide a bench session: tap the phone at each position, record hits, score the prediction."
            ) { RunCommand.spec },
            Subcommand("plan", abstract: "Print the probe positions a run would use for a model.") { PlanCommand.spec },
            Subcommand("sessions", abstract: "List recorded sessions.") { SessionCommands.listSpec },
            Subcommand("show", abstract: "Redraw a session: the silhouette with its hits and misses, and its score.") {
                SessionCommands.showSpec
            },
            Subcommand("export", abstract: "Export taps as CSV (one row per tap; columns in docs/csv.md).") {
                ExportCommand.spec
            },
            Subcommand(
                "report",
                abstract: "Write a report a lab can file: HTML (default), PDF, SVG, JUnit XML, one CSV row per session, or JSON."
            ) { ReportCommand.spec },
            Subcommand("template", abstract: "Draw a life-size placement template of a phone's back (SVG, 1 mm = 1 mm at 100 %).")
            { TemplateCommand.spec },
            Subcommand("void", abstract: "Mark a session void: kept and listed, but left out of refine, reports and exports.") {
                VoidCommand.spec
            },
            Subcommand("annotate", abstract: "Add a note to a session's record: who, when and what; the taps stay as recorded.") {
                AnnotateCommand.spec
            },
            Subcommand("refine", abstract: "Refine unverified catalog zones from completed sessions; write a catalog patch.") {
                RefineCommand.spec
            },
            Subcommand("resolve", abstract: "Show where a phone model's NFC antenna is predicted to be.") { ResolveCommand.spec },
            Subcommand("catalog", abstract: "Inspect, check and compare antenna catalogs.") { CatalogCommand.spec },
            Subcommand("readers", abstract: "List readers reachable through libnfc and PC/SC.") { ReaderCommands.readersSpec },
            Subcommand("poll", abstract: "Wait for ISO 14443 A/B targets and print each one.") { ReaderCommands.pollSpec },
            Subcommand(
                "rig",
                abstract: "Set up a motion stage (GRBL or Marlin), check it against a plan, calibrate it, or clear its alarm."
            ) {
                RigCommand.spec
            },
            Subcommand("sim", abstract: "Run or steer the virtual bench (emulated PN532 and vpcd card).") { SimCommand.spec },
            Subcommand("doctor", abstract: "Check this machine's setup for NFC readers and say how to fix each problem.") {
                DoctorCommand.spec
            },
            Subcommand(
                "sync", abstract: "Push this bench's sessions to the lab store: what is new or changed since the last push."
            ) { SyncCommand.spec },
            Subcommand("labstore", abstract: "Set up the lab store (PostgreSQL) several benches share.") { LabStoreCommand.spec },
            Subcommand("manual", abstract: "Print a command's manual page (roff), or write every page to a folder.") {
                ManualCommand.spec
            },
            Subcommand("completions", abstract: "Print a shell completion script for bash, zsh or fish.") {
                CompletionsCommand.spec
            },
        ])

    /// What a command line comes to once parsed, on the calling thread.
    public enum Start: Sendable {
        /// `--version`, help or a usage error, answered already: the exit code. Such a
        /// line starts no task, so it starts none of the threads an async command needs.
        case answered(Int32)
        /// A command to run, its head start (`CommandSpec.headStart`) begun.
        case run(ParsedInvocation)
    }

    /// Parses one command line and answers it at once if it runs no command.
    public static func start(arguments: [String], context: CommandContext) -> Start {
        let parser = ArgumentParser(root: root)
        do {
            switch try parser.parse(arguments) {
            case .version:
                context.output.line(versionWithBuild)
                return .answered(ExitCode.success)
            case .help(let path):
                context.output.write(HelpFormatter(path: path, command: parser.command(at: path)).render())
                return .answered(ExitCode.success)
            case .run(var invocation):
                invocation.readerHeadStart = invocation.command.headStart?(invocation, context)
                return .run(invocation)
            }
        } catch {
            printUsageError(error, parser: parser, to: context.errors)
            return .answered(ExitCode.usage)
        }
    }

    /// Parses and runs one command line; returns the process exit code.
    public static func main(arguments: [String], context: CommandContext) async -> Int32 {
        switch start(arguments: arguments, context: context) {
        case .answered(let status): finished(status, context: context)
        case .run(let invocation): await run(invocation, context: context)
        }
    }

    /// `status`, unless standard output failed to take what the command wrote: then 1,
    /// with the reason (a reader that closed the pipe on purpose, `| head`, is not told).
    /// A script that writes `show ID --json > FILE` on a full disk must not get 0.
    public static func finished(_ status: Int32, context: CommandContext) -> Int32 {
        guard let failure = context.output.writeFailure else { return status }
        if failure != .brokenPipe {
            context.errors.line("Error: Could not write to standard output: \(failure).")
            context.errors.line("Hint: Check the disk or the file standard output goes to; the output is incomplete.")
        }
        return status == ExitCode.success ? ExitCode.failure : status
    }

    /// Runs a parsed command; returns the process exit code. A command that failed after
    /// Ctrl-C or SIGTERM failed because of it: its error is said, and the code is 130
    /// (interrupted), not the failure's own (a timeout, an unreachable store).
    public static func run(_ invocation: ParsedInvocation, context: CommandContext) async -> Int32 {
        let status = await runReportingErrors(invocation, context: context)
        guard SignalWaiter.interrupted, status != ExitCode.success, status != ExitCode.usage else { return status }
        return ExitCode.interrupted
    }

    private static func runReportingErrors(_ invocation: ParsedInvocation, context: CommandContext) async -> Int32 {
        do {
            // Ctrl-C cancels the command's task, so readers close and restore their
            // settings and sessions save; a second Ctrl-C ends the process at once.
            let handler = invocation.command.handler!
            let task = Task { try await handler(invocation, context) }
            SignalWaiter.onTermination { _ in task.cancel() }
            return finished(try await task.value, context: context)
        } catch let error as UsageError {
            printUsageError(error, parser: ArgumentParser(root: root), to: context.errors)
            return ExitCode.usage
        } catch let damaged as RecordDecodingError {
            // A value the store cannot hold, or one altered after it was written: the file
            // is damaged there, and the command stopped at it.
            let holder = DamageWarning.isLabRow(damaged) ? "lab store" : "session database"
            context.errors.line(
                "Error: The \(holder) holds a damaged row: \(TerminalSafeText.neutralise(damaged.description)). "
                    + "The command stopped there.")
            context.errors.line("Hint: \(DamageWarning.hint(for: damaged))")
            return ExitCode.damagedStore
        } catch let unstorable as UnstorableRecord {
            context.errors.line("Error: \(TerminalSafeText.neutralise(unstorable.description)).")
            context.errors.line(
                "Hint: Check the catalog the value came from with 'nfcbench catalog validate FILE'; "
                    + "a value outside these bounds is not a real phone.")
            return ExitCode.failure
        } catch let error as any TransientFailure {
            // A lab store read that could not finish in time, or a link that broke: try again.
            context.errors.line("Error: \(TerminalSafeText.neutralise(error.description)).")
            if error.isTransient {
                context.errors.line(
                    "Hint: The lab store is busy, locked or unreachable (NFCBENCH_LAB_TIMEOUT bounds each wait); try again later."
                )
                return ExitCode.unfinished
            }
            return ExitCode.failure
        } catch let failure as CommandFailure {
            context.errors.line("Error: \(failure.message)")
            if let hint = failure.hint { context.errors.line("Hint: \(hint)") }
            return failure.exitCode
        } catch let damage as any FileDamageSignal where damage.isDamage {
            // Met mid-read (a page the opening check did not reach): the same words and
            // code as a damaged file found at opening, never a raw SELECT (issue 49, F6).
            let failure = StoreOptions.damaged(StoreOptions.path(invocation, context), what: damage.damageMessage)
            context.errors.line("Error: \(failure.message)")
            if let hint = failure.hint { context.errors.line("Hint: \(hint)") }
            return failure.exitCode
        } catch {
            context.errors.line("Error: \(error)")
            return ExitCode.failure
        }
    }

    static func printUsageError(_ error: UsageError, parser: ArgumentParser, to out: any TextOutput) {
        let help = HelpFormatter(path: error.path, command: parser.command(at: error.path))
        out.line("Error: \(error.message)")
        out.line("Usage: \(help.usageLine)")
        out.line("  See '\(error.path.joined(separator: " ")) --help' for more information.")
    }
}
