import Foundation
import NFCBenchCLI

SignalWaiter.install()
let environment = CommandContext.processEnvironment()
LibraryLog.divert(arguments: CommandLine.arguments, environment: environment)
let context = CommandContext(
    environment: environment,
    output: StandardStream.output, errors: StandardStream.error)
let arguments = Array(CommandLine.arguments.dropFirst())
if let answer = CommandLineTool.answerWithoutRunning(arguments: arguments, context: context) { exit(answer) }
let status = await CommandLineTool.main(arguments: arguments, context: context)
exit(status)
