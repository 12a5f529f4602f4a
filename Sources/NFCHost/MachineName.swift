import Foundation

/// How this computer names itself to the lab store, so the lab can see two machines
/// pushing under one station name. The host name for people, with the start of the
/// systemd machine id (`/etc/machine-id`) because host names repeat across a lab's
/// freshly installed benches; `NFCBENCH_MACHINE` overrides both (containers often share
/// or lack a machine id).
public enum MachineName {
    public static func current(environment: [String: String], roots: SystemRoots = SystemRoots()) -> String {
        if let named = environment["NFCBENCH_MACHINE"]?.trimmingCharacters(in: .whitespaces), !named.isEmpty {
            return String(named.prefix(255))
        }
        let host = ProcessInfo.processInfo.hostName.split(separator: ".").first.map(String.init) ?? "unknown-host"
        let id = (try? String(contentsOfFile: roots.etc + "/machine-id", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines)
        guard let id, id.count >= 8, id.allSatisfy(\.isHexDigit) else { return host }
        return "\(host) (\(id.prefix(8)))"
    }
}
