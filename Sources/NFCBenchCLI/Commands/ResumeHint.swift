import Foundation

/// The command that continues a stopped session the way it was running. The session
/// stores its plan, reader and window, but not who moves the phone: a gantry run's hint
/// said `run --resume ID --db PATH`, which resumed it by hand, its `--positioner gcode
/// --rig FILE` lost (issue 52). Settings a resume refuses to change are never carried.
enum ResumeHint {
    /// How the run was driven, none of it stored with the session.
    static let carriedOptions = [
        RunOptions.reader.spec, RunOptions.positioner.spec, RigOptions.rig.spec, RunOptions.positionerTimeout.spec,
        RunOptions.simBench.spec, RunOptions.faultTimeout.spec,
    ]
    static let carriedFlags = [
        RunOptions.auto.spec, RunOptions.confirmEach.spec, RunOptions.noFeedback.spec, RunOptions.coupling.spec,
    ]

    static func command(sessionID: String, databasePath: String, _ invocation: ParsedInvocation) -> String {
        var words = ["nfcbench", "run", "--resume", sessionID, "--db", databasePath]
        for option in carriedOptions {
            if let value = invocation.values[option.name]?.last { words += [option.name, value] }
        }
        for flag in carriedFlags where invocation.flags.contains(flag.name) { words.append(flag.name) }
        return TerminalSafeText.neutralise(words.map(shellWord).joined(separator: " "))
    }

    /// `word` as a POSIX shell reads it back: bare when it holds only characters no shell
    /// treats specially, else in single quotes.
    static func shellWord(_ word: String) -> String {
        let plain = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./:=@%+,-")
        if !word.isEmpty && word.allSatisfy(plain.contains) { return word }
        return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
