import Foundation
import NFCBench
import NFCBenchRecords
import NFCLocatorCore

/// The `nfcbench` command tree and its entry point.
public enum CommandLineTool {
    public static let version = "0.1.0"

    public static let root = CommandSpec(
        "nfcbench", abstract: "Find and verify where the NFC antenna sits on the back of a phone.",
        discussion: """
            Zones are fractions of the phone's back, viewed from the back, origin top-left, y down.
            Exit codes: 0 success, 1 failure, 64 usage error; commands document any others.
            """,
        subcommands: [
            RunCommand.spec, PlanCommand.spec, SessionCommands.listSpec, SessionCommands.showSpec,
            ExportCommand.spec, ReportCommand.spec, TemplateCommand.spec, VoidCommand.spec, RefineCommand.spec,
            ResolveCommand.spec,
            CatalogCommand.spec,
            ReaderCommands.readersSpec, ReaderCommands.pollSpec, SimCommand.spec, DoctorCommand.spec, SyncCommand.spec,
            LabStoreCommand.spec,
        ])

    /// Parses and runs one command line; returns the process exit code.
    public static func main(arguments: [String], context: CommandContext) async -> Int32 {
        let parser = ArgumentParser(root: root)
        do {
            switch try parser.parse(arguments) {
            case .version:
                context.output.line(version)
                return ExitCode.success
            case .help(let path):
                context.output.write(HelpFormatter(path: path, command: parser.command(at: path)).render())
                return ExitCode.success
            case .run(let invocation):
                // Ctrl-C cancels the command's task, so readers close and restore their
                // settings and sessions save; a second Ctrl-C ends the process at once.
                let handler = invocation.command.handler!
                let task = Task { try await handler(invocation, context) }
                SignalWaiter.onTermination { _ in task.cancel() }
                return try await task.value
            }
        } catch let error as UsageError {
            printUsageError(error, parser: parser, to: context.errors)
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
