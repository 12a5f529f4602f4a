import Foundation
import NFCBench

/// Every writer's `-o`/`--svg`/`--report` path, checked before anything is opened:
/// never the session database (the one `--db`, `NFCBENCH_DB` or the default names) or
/// its journal files, never renamed over a device or pipe.
enum OutputPath {
    static func check(_ path: String, _ invocation: ParsedInvocation, _ context: CommandContext) throws -> OutputDestination {
        try check(path, protecting: StoreOptions.path(invocation, context), context)
    }

    static func check(_ path: String, protecting database: String, _ context: CommandContext) throws -> OutputDestination {
        do { return try OutputDestination.check(context.url(forPath: path).path, protecting: [database]) } catch {
            throw CommandFailure(error.description, hint: error.hint)
        }
    }

    /// Writes `body`'s bytes there, turning a refused or failed destination into a failure
    /// that names the fix.
    static func write(_ destination: OutputDestination, _ body: (ExportSink) async throws -> Void) async throws {
        do { try await destination.write(body) } catch let error as DestinationError {
            throw CommandFailure(error.description, hint: error.hint)
        }
    }
}
