/// Why the machine did not do what it was asked, in words an operator can act on.
public enum MachineError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Nothing came back in time (a stalled board, a wrong port or baud rate).
    case noAnswer(to: String, seconds: Double)
    case alarm(code: Int)
    /// GRBL refused a line (`error:N`).
    case refused(line: String, code: Int)
    /// Marlin said `Error:...`.
    case firmware(String)
    /// The machine restarted (its banner) while the run used it.
    case reset(banner: String)
    /// The machine is not in a state that takes motion (GRBL `Alarm`, `Door`, `Sleep`...).
    case notReady(state: String)
    case port(String)
    /// Ctrl-C: the machine was halted (feed hold and reset, or quick stop).
    case interrupted

    public var description: String {
        switch self {
        case .noAnswer(let line, let seconds):
            "the machine did not answer '\(line)' within \(RigConfiguration.number(seconds)) s "
                + "(check the cable, the device and the baud rate)"
        case .alarm(let code):
            "ALARM:\(code), \(GRBLCodes.alarm(code)); unlock with 'nfcbench rig unlock' once the cause is cleared"
        case .refused(let line, let code):
            "the machine refused '\(line)': error:\(code), \(GRBLCodes.error(code))"
        case .firmware(let text):
            "the firmware reported an error: \(text); fix it, then unlock with 'nfcbench rig unlock' (sends M999)"
        case .reset(let banner):
            "the machine reset itself mid-run ('\(banner)'): its position may be lost; home it before resuming"
        case .notReady(let state):
            "the machine is in state '\(state)', not idle"
                + (state.lowercased().hasPrefix("alarm") ? "; unlock it with 'nfcbench rig unlock'" : "")
        case .port(let text): text
        case .interrupted: "interrupted: the machine was halted"
        }
    }
}
