import Glibc

/// The file-system calls the virtual bench makes on its own folders and links.
public enum FileSystemCalls {
    /// `mkdir` with `mode`; a folder already there is no error (the caller checks whose it is).
    public static func makeFolder(_ path: String, mode: mode_t) throws(Errno) {
        guard mkdir(path, mode) == 0 else {
            let error = Errno.current
            if error == .fileExists { return }
            throw error
        }
    }

    /// Points `link` at `target` in one step: a new link is made beside it and renamed
    /// over it (`rename(2)` replaces atomically), so a reader opening `link` meets the old
    /// target or the new one, never nothing. A regular file at `link` is replaced the same way.
    public static func swapLink(_ link: String, to target: String) throws(Errno) {
        let staged = link + ".swap-\(getpid())"
        unlink(staged)
        guard symlink(target, staged) == 0 else { throw .current }
        guard rename(staged, link) == 0 else {
            let error = Errno.current
            unlink(staged)
            throw error
        }
    }

    /// A symbolic link at `link` to `target`, replacing a link (or file) already there: a
    /// pseudo-terminal's number changes, its stable name does not.
    public static func replaceLink(_ link: String, to target: String) throws(Errno) {
        unlink(link)
        guard symlink(target, link) == 0 else { throw .current }
    }
}

/// Whether a process is alive, for a registry of processes that may have died unannounced.
public enum ProcessStatus {
    /// `kill(pid, 0)`: alive when it may be signalled, or when it exists but belongs to
    /// someone else (EPERM).
    public static func isAlive(_ pid: pid_t) -> Bool {
        kill(pid, 0) == 0 || Errno.current == .notPermitted
    }
}
