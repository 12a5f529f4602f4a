import Foundation
import NFCBenchCLI

SignalWaiter.install()
let context = CommandContext(
    environment: CommandContext.processEnvironment(),
    output: StandardStream.output, errors: StandardStream.error)
let status = await NFCBench.main(arguments: Array(CommandLine.arguments.dropFirst()), context: context)
exit(status)
