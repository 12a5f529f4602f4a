import Foundation
import NFCBenchCLI

SignalWaiter.install()
let environment = CommandContext.processEnvironment()
LibraryLog.divert(arguments: CommandLine.arguments, environment: environment)
let context = CommandContext(
    environment: environment,
    output: StandardStream.output, errors: StandardStream.error)
let arguments = Array(CommandLine.arguments.dropFirst())
switch CommandLineTool.start(arguments: arguments, context: context) {
case .answered(let status): exit(status)
case .run(let invocation): exit(await CommandLineTool.run(invocation, context: context))
}
