import Foundation
import NFCBench
import NFCSystem
import Synchronization

/// Reader libraries write their own log lines straight to standard error (libnfc's
/// "error  libnfc.buses.usbbus  Unable to find USB busses" on a machine without USB), in
/// the middle of an operator's prompts, although every failure they report also reaches
/// nfcbench as a typed error with a hint. The command-line program diverts them: standard
/// error becomes a pipe, its lines that are a library's log go to a log file kept for
/// diagnosis, and everything else goes on to the terminal. nfcbench's own messages skip
/// the pipe (`StandardStream.error` writes to the real standard error), so none of them
/// can be held up or lost at exit. `--verbose` leaves standard error alone.
public enum LibraryLog {
    /// The real standard error once diverted; -1 before.
    static let realStandardError = Atomic<Int32>(-1)
    /// Signalled when the sorting thread has read the pipe to its end.
    private static let drained = DispatchSemaphore(value: 0)

    /// Where the diverted lines go: `$NFCBENCH_STATE_DIR`, else `$XDG_STATE_HOME/nfcbench`,
    /// else `~/.local/state/nfcbench`, as `library.log`.
    public static func path(environment: [String: String]) -> String {
        if let state = environment["NFCBENCH_STATE_DIR"], !state.isEmpty { return state + "/library.log" }
        if let xdg = environment["XDG_STATE_HOME"], !xdg.isEmpty { return xdg + "/nfcbench/library.log" }
        return (environment["HOME"] ?? NSHomeDirectory()) + "/.local/state/nfcbench/library.log"
    }

    /// Call first thing in `main`, with the raw arguments: `--verbose` anywhere keeps
    /// libnfc's full log on standard error instead. Standard error is diverted just
    /// before libnfc is first initialised, so commands that never open it (`resolve`,
    /// `export`, ...) start neither the pipe nor its thread.
    public static func divert(arguments: [String], environment: [String: String]) {
        let verbose = arguments.contains("--verbose")
        let logPath = path(environment: environment)
        ReaderSelection.configureLogging(verbose: verbose, environment: environment) {
            if !verbose { divert(to: logPath) }
        }
    }

    private static func divert(to logPath: String) {
        guard let diversion = try? StandardErrorDiversion.begin() else { return }
        do {
            try DetachedThread.start {
                sort(from: diversion.pipeReadEnd, to: diversion.realStandardError, logPath: logPath)
                drained.signal()
            }
        } catch {
            // No thread, no reader for the pipe: standard error goes back as it was.
            diversion.abandon()
            return
        }
        realStandardError.store(diversion.realStandardError.rawValue, ordering: .sequentiallyConsistent)
        atexit { LibraryLog.finish() }
    }

    /// At exit: standard error points at the terminal again, which closes the pipe's
    /// write end, and the lines still in the pipe are sorted before the process ends
    /// (half a second at most, if a child process still holds the pipe).
    static func finish() {
        let real = realStandardError.load(ordering: .sequentiallyConsistent)
        guard real >= 0 else { return }
        StandardErrorDiversion.restore(realStandardError: FileDescriptor(rawValue: real))
        _ = drained.wait(timeout: .now() + 0.5)
    }

    /// A library's log line: `level<TAB>library.category<TAB>message`, as libnfc writes them.
    static func isLibraryLog(_ line: Substring) -> Bool {
        let fields = line.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false)
        return fields.count == 3 && ["error", "info", "debug", "warning", "none"].contains(fields[0])
            && fields[1].hasPrefix("libnfc")
    }

    private static func sort(from pipe: FileDescriptor, to real: FileDescriptor, logPath: String) {
        var pending = Data()
        var log: FileHandle?
        while let chunk = try? pipe.read(upTo: 4096), !chunk.isEmpty {
            pending.append(contentsOf: chunk)
            while let newline = pending.firstIndex(of: 0x0A) {
                let line = pending[pending.startIndex...newline]
                pending.removeSubrange(pending.startIndex...newline)
                route(line, to: real, log: &log, logPath: logPath)
            }
        }
        // A last line without its newline still goes where it belongs.
        if !pending.isEmpty { route(pending, to: real, log: &log, logPath: logPath) }
    }

    private static func route(_ line: Data, to real: FileDescriptor, log: inout FileHandle?, logPath: String) {
        let text = String(decoding: line.last == 0x0A ? line.dropLast() : line, as: UTF8.self)
        if isLibraryLog(text[...]) {
            if log == nil { log = openLog(logPath) }
            log?.write(Data((ISO8601DateFormatter().string(from: Date()) + "\t" + text + "\n").utf8))
        } else {
            try? real.writeAll(line)
        }
    }

    private static func openLog(_ path: String) -> FileHandle? {
        let folder = (path as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(
            atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        if !FileManager.default.fileExists(atPath: path) {
            // A file that cannot be made shows as no handle just below.
            _ = FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600])
        }
        let handle = FileHandle(forWritingAtPath: path)
        handle?.seekToEndOfFile()
        return handle
    }
}
