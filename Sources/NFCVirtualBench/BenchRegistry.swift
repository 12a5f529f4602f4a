import Foundation

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
        return "/tmp/nfcbench-\(getuid())/benches"
    }

    /// Records `entry`; returns the file to remove when the bench stops.
    public static func register(_ entry: Entry, environment: [String: String]) throws -> String {
        let folder = folder(environment: environment)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/\(entry.pid).json"
        try JSONEncoder().encode(entry).write(to: URL(fileURLWithPath: path), options: .atomic)
        return path
    }

    public static func unregister(_ path: String) { try? FileManager.default.removeItem(atPath: path) }

    /// Benches whose process is alive and whose control socket exists.
    public static func running(environment: [String: String]) -> [Entry] {
        let folder = folder(environment: environment)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [] }
        return names.sorted().compactMap { name -> Entry? in
            guard name.hasSuffix(".json"), let data = FileManager.default.contents(atPath: folder + "/" + name),
                let entry = try? JSONDecoder().decode(Entry.self, from: data)
            else { return nil }
            let alive = kill(entry.pid, 0) == 0 || errno == EPERM
            return alive && FileManager.default.fileExists(atPath: entry.directory + "/control.sock") ? entry : nil
        }
    }
}
