import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The process's umask, read without changing it: `umask(2)` can only be read by setting
/// it, which would race with files other threads create meanwhile.
public enum FileCreationMask {
    public static var current: mode_t {
        // Linux 4.7 and later report it in /proc/self/status ("Umask:\t0022").
        if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Umask:") }),
            let value = mode_t(line.dropFirst("Umask:".count).trimmingCharacters(in: .whitespaces), radix: 8)
        {
            return value
        }
        return 0o022
    }
}
