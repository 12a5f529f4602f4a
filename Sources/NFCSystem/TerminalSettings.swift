import Glibc

/// A terminal's line discipline, read and changed here only: the single-key mode a run
/// reads the operator's keys in, and the no-echo mode a password is typed in. Each is
/// applied from settings read first, which restore the terminal as it was.
public struct TerminalSettings: Sendable {
    private var settings: termios

    /// Whether `descriptor` is a terminal (not a pipe or a file).
    public static func isTerminal(_ descriptor: FileDescriptor) -> Bool { isatty(descriptor.rawValue) == 1 }

    /// The settings `descriptor`'s terminal has now.
    public static func current(of descriptor: FileDescriptor) throws(Errno) -> TerminalSettings {
        var settings = termios()
        guard tcgetattr(descriptor.rawValue, &settings) == 0 else { throw .current }
        return TerminalSettings(settings: settings)
    }

    /// Whether typed keys are shown.
    public var echoes: Bool { settings.c_lflag & tcflag_t(ECHO) != 0 }
    /// Whether input arrives a line at a time (after Enter), not key by key.
    public var readsLines: Bool { settings.c_lflag & tcflag_t(ICANON) != 0 }

    /// Keys arrive one at a time without Enter and are not echoed; Ctrl-C still
    /// interrupts (ISIG stays on).
    public var singleKeys: TerminalSettings {
        var changed = settings
        changed.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &changed.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        return TerminalSettings(settings: changed)
    }

    /// Lines as usual, but what is typed is not shown.
    public var withoutEcho: TerminalSettings {
        var changed = settings
        changed.c_lflag &= ~tcflag_t(ECHO)
        return TerminalSettings(settings: changed)
    }

    /// Makes these the terminal's settings. `discardingInput`: also drop what was typed
    /// and not yet read (a password prompt must not take keys typed before it).
    public func apply(to descriptor: FileDescriptor, discardingInput: Bool = false) throws(Errno) {
        var settings = settings
        guard tcsetattr(descriptor.rawValue, discardingInput ? TCSAFLUSH : TCSANOW, &settings) == 0 else { throw .current }
    }
}
