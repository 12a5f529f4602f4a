import NFCRig

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
    /// GRBL in a critical alarm (a hard or soft limit): it reads no line until a reset, so
    /// a `$H` would wait out its whole timeout and look like a cable fault.
    case awaitingReset
    /// The machine was still carrying out queued moves (a dead run's) after the wait.
    case stillMoving(state: String, seconds: Double)
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
        case .awaitingReset:
            "the machine is in alarm and ignores every command until it is reset (a limit switch or the travel "
                + "was hit); free the axis, then unlock it with 'nfcbench rig unlock'"
        case .stillMoving(let state, let seconds):
            "the machine was still moving (state '\(state)') after \(RigConfiguration.number(seconds)) s; "
                + "let it stop (or stop it), then try again"
        case .port(let text): text
        case .interrupted: "interrupted: the machine was halted"
        }
    }
}
