import Foundation
import NFCSystem

/// The virtual benches running on this machine, so `nfcbench readers` can point at them
/// (libnfc's autoscan never finds a pseudo-terminal), each a small JSON file named after
/// the serving process. A file whose process is gone is ignored, so a killed bench leaves
/// nothing that misleads.
public enum BenchRegistry {
    public struct Entry: Sendable, Codable, Equatable {
        public let pid: Int32
        public let directory: String
        /// The emulated PN532's libnfc connstring, when the bench has one.
        public let connstring: String?
        public let vpcdPort: UInt16?

        public init(pid: Int32, directory: String, connstring: String?, vpcdPort: UInt16?) {
            self.pid = pid
            self.directory = directory
            self.connstring = connstring
            self.vpcdPort = vpcdPort
        }
    }

    /// `$NFCBENCH_STATE_DIR/benches`, else `$XDG_RUNTIME_DIR/nfcbench/benches`, else a
    /// per-user folder in /tmp.
    public static func folder(environment: [String: String]) -> String {
        if let state = environment["NFCBENCH_STATE_DIR"], !state.isEmpty { return state + "/benches" }
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty { return runtime + "/nfcbench/benches" }
        return sharedFallback(environment) + "/benches"
    }

    /// The fallback in the shared temporary folder (`$TMPDIR`, else /tmp): anyone could
    /// create it first and plant entries that `readers` would list (a pty of theirs
    /// passing for a bench).
    static func sharedFallback(_ environment: [String: String]) -> String {
        let tmp = environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        return (tmp.hasSuffix("/") ? String(tmp.dropLast()) : tmp) + "/nfcbench-\(getuid())"
    }

    /// Why the registry's folder cannot be trusted, or `nil`: the /tmp fallback must be a
    /// real folder of this user's, writable by no one else. (`$NFCBENCH_STATE_DIR` and
    /// `$XDG_RUNTIME_DIR` are the user's own choice.)
    public static func untrusted(environment: [String: String]) -> String? {
        let fallback = sharedFallback(environment)
        guard folder(environment: environment).hasPrefix(fallback + "/") else { return nil }
        for path in [fallback, fallback + "/benches"] {
            var info = stat()
            guard lstat(path, &info) == 0 else { return nil }  // made as it should be when first needed
            if info.st_mode & S_IFMT != S_IFDIR { return "\(path) is not a folder (a link or a file put there)" }
            if info.st_uid != getuid() { return "\(path) belongs to user \(info.st_uid), not to you" }
            if info.st_mode & 0o022 != 0 { return "\(path) can be written by other users" }
        }
        return nil
    }

    /// Records `entry`; returns the file to remove when the bench stops.
    public static func register(_ entry: Entry, environment: [String: String]) throws -> String {
        let folder = folder(environment: environment)
        let fallback = sharedFallback(environment)
        if folder.hasPrefix(fallback + "/") {
            // Created private (0700) before anything goes in, then checked.
            for path in [fallback, folder] {
                do throws(Errno) { try FileSystemCalls.makeFolder(path, mode: 0o700) } catch {
                    throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
                }
            }
            if let problem = untrusted(environment: environment) {
                throw CocoaError(
                    .fileWriteNoPermission,
                    userInfo: [
                        NSLocalizedDescriptionKey: "not registering the bench: \(problem); remove it or set XDG_RUNTIME_DIR"
                    ])
            }
        }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/\(entry.pid).json"
        try JSONEncoder().encode(entry).write(to: URL(fileURLWithPath: path), options: .atomic)
        return path
    }

    public static func unregister(_ path: String) { try? FileManager.default.removeItem(atPath: path) }

    /// Benches whose process is alive and whose control socket exists; none from a folder
    /// that is `untrusted`.
    public static func running(environment: [String: String]) -> [Entry] {
        guard untrusted(environment: environment) == nil else { return [] }
        let folder = folder(environment: environment)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [] }
        return names.sorted().compactMap { name -> Entry? in
            guard name.hasSuffix(".json"), let data = FileManager.default.contents(atPath: folder + "/" + name),
                let entry = try? JSONDecoder().decode(Entry.self, from: data)
            else { return nil }
            return ProcessStatus.isAlive(entry.pid) && FileManager.default.fileExists(atPath: entry.directory + "/control.sock")
                ? entry : nil
        }
    }
}
