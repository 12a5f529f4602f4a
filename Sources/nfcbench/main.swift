import Foundation
import NFCBenchCLI
import NFCSystem

MallocArenas.useOne()
SignalWaiter.install()
let environment = CommandContext.processEnvironment()
LibraryLog.divert(arguments: CommandLine.arguments, environment: environment)
let context = CommandContext(
    environment: environment,
    output: StandardStream.output, errors: StandardStream.error)
let arguments = Array(CommandLine.arguments.dropFirst())
switch CommandLineTool.start(arguments: arguments, context: context) {
case .answered(let status): exit(CommandLineTool.finished(status, context: context))
case .run(let invocation):
    // Exit from the task that ran the command: coming back to the main actor first would
    // have Dispatch start a thread only to call exit on it.
    await Task.detached { exit(await CommandLineTool.run(invocation, context: context)) }.value
}
