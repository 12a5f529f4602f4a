import Glibc

/// The process's umask, read without changing it: `umask(2)` can only be read by setting
/// it, which would race with files other threads create meanwhile.
public enum FileCreationMask {
    public static var current: mode_t {
        // Linux 4.7 and later report it in /proc/self/status ("Umask:\t0022").
        let fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return 0o022 }
        defer { close(fd) }
        let status = (try? FileDescriptor(rawValue: fd).read(upTo: 4096)) ?? []
        let text = String(decoding: status, as: UTF8.self)
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("Umask:") }),
            let value = mode_t(line.dropFirst("Umask:".count).filter { !$0.isWhitespace }, radix: 8)
        else { return 0o022 }
        return value
    }
}
