import Foundation
import NFCBenchCLI

SignalWaiter.install()
let environment = CommandContext.processEnvironment()
LibraryLog.divert(arguments: CommandLine.arguments, environment: environment)
let context = CommandContext(
    environment: environment,
    output: StandardStream.output, errors: StandardStream.error)
let status = await CommandLineTool.main(arguments: Array(CommandLine.arguments.dropFirst()), context: context)
exit(status)
