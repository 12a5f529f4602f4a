import Foundation
import NFCSystem

/// A password typed at the terminal, not echoed. Only on a terminal: a script gives
/// passwords through the environment, and a pipe is never read for one (it would take the
/// next line of whatever is piped in).
enum PasswordPrompt {
    /// The typed line without its newline, or `nil` when standard input is no terminal or
    /// the terminal closed before a line.
    static func read(_ prompt: String, to output: any TextOutput) -> [UInt8]? {
        guard TerminalSettings.isTerminal(.standardInput),
            let saved = try? TerminalSettings.current(of: .standardInput)
        else { return nil }
        output.write(prompt)
        guard (try? saved.withoutEcho.apply(to: .standardInput, discardingInput: true)) != nil else { return nil }
        defer {
            try? saved.apply(to: .standardInput, discardingInput: true)
            output.write("\n")
        }
        var typed: [UInt8] = []
        while let byte = try? FileDescriptor.standardInput.read(upTo: 1).first {
            if byte == 0x0A || byte == 0x0D { return typed }
            typed.append(byte)
            if typed.count > 1024 { return typed }  // minisign's own limit
        }
        return typed.isEmpty ? nil : typed
    }
}
