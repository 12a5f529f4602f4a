/// GRBL 1.1's alarm and error numbers in words (gnea/grbl `doc/markdown/interface.md`
/// and the alarm and error tables of its wiki), so an operator reads "hard limit", not 1.
public enum GRBLCodes {
    public static func alarm(_ code: Int) -> String {
        switch code {
        case 1: "hard limit: a limit switch was hit; the position is likely lost, home again"
        case 2: "soft limit: a move's target exceeds the machine's travel; the position is kept"
        case 3: "reset while in motion: the position is likely lost, home again"
        case 4, 5: "probe fail"
        case 6: "homing failed: the homing cycle was reset"
        case 7: "homing failed: the safety door was opened during homing"
        case 8: "homing failed: pull-off did not clear the limit switch"
        case 9: "homing failed: no limit switch found within the search distance"
        default: "alarm \(code)"
        }
    }

    public static func error(_ code: Int) -> String {
        switch code {
        case 1: "expected a command letter"
        case 2: "bad number format"
        case 3: "'$' command not recognised"
        case 5: "homing is not enabled in the machine's settings ($22)"
        case 8: "a '$' command that needs the machine idle"
        case 9: "G-code locked out during alarm or jog: unlock needed"
        case 11: "line too long"
        case 15: "jog target exceeds the machine's travel"
        case 20: "unsupported G-code command"
        case 22: "feed rate not set"
        case 24, 25, 26, 33: "invalid motion command"
        default: "error \(code)"
        }
    }

    /// The alarms after which the machine no longer knows where it is.
    public static func losesPosition(_ alarm: Int) -> Bool { [1, 3, 6, 7, 8, 9].contains(alarm) }
}
