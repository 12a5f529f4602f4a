import NFCSystem

/// Setting up or talking to a virtual bench failed: which step, on which path, and, for a
/// system call, its `Errno`, kept as a value so a caller can tell a missing bench
/// (`.connect` with `.noSuchFile` or `.connectionRefused`) from a broken one.
public enum VirtualBenchError: Error, Sendable, Equatable, CustomStringConvertible {
    case pseudoTerminal(Errno)
    case link(path: String, Errno)
    case lockFile(path: String, Errno)
    case controlSocket(path: String, Errno)
    case gantryLog(path: String)
    case connect(path: String, Errno)
    case conversation(path: String, Errno)
    case closedConnection(path: String)
    case unreadableReply(path: String)
    /// The bench answered, and refused the command: its own words.
    case refused(String)

    public var description: String {
        switch self {
        case .pseudoTerminal(let error): "open a pseudo-terminal failed: \(error)"
        case .link(let path, let error): "symlink \(path) failed: \(error)"
        case .lockFile(let path, let error): "create \(path) failed: \(error)"
        case .controlSocket(let path, let error): "listen on \(path) failed: \(error)"
        case .gantryLog(let path): "cannot write \(path)"
        case .connect(let path, let error): "connect \(path) failed: \(error)"
        case .conversation(let path, let error): "talk to \(path) failed: \(error)"
        case .closedConnection(let path): "the bench at \(path) closed the connection"
        case .unreadableReply(let path): "the bench at \(path) answered something that is not a reply"
        case .refused(let words): words
        }
    }
}
