import Foundation
import NFCBenchUseCases
import NFCRig

/// `--rig FILE`, and the rig file a machine positioner reads without it: `rig.conf` in
/// the config folder (`$XDG_CONFIG_HOME/nfcbench/rig.conf`, else `~/.config/nfcbench/rig.conf`).
enum RigOptions {
    static let rig = Option<String>(
        "--rig", value: "file",
        help: "The rig file a gcode positioner reads (default rig.conf in the config folder; docs/rig.md).")

    static func defaultPath(_ context: CommandContext) -> String {
        let base =
            context.environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (context.environment["HOME"] ?? NSHomeDirectory()) + "/.config"
        return base + "/nfcbench/rig.conf"
    }

    /// Reads and checks the rig file; any problem is a usage error naming the file and
    /// line, so nothing opens and nothing moves.
    /// `requiringJig: false` (calibrate, unlock) also takes the file `rig init` writes.
    static func load(_ invocation: ParsedInvocation, _ context: CommandContext, requiringJig: Bool = true) throws
        -> LoadedRig
    {
        let given = invocation[rig]
        let path = given.map { context.url(forPath: $0).path } ?? defaultPath(context)
        guard FileManager.default.fileExists(atPath: path) else {
            throw UsageError(
                given == nil
                    ? "A gcode positioner needs a rig file: none at \(path). Give --rig FILE, or write a first one with "
                        + "'nfcbench rig init' and mark the jig with 'nfcbench rig calibrate' (docs/rig.md)."
                    : "No rig file at '\(path)'. Check the path, or write a first one with 'nfcbench rig init'.",
                path: invocation.path)
        }
        let data = try InputFile.read(URL(fileURLWithPath: path), limit: 1 << 16, what: "rig")
        do {
            return LoadedRig(
                configuration: try RigConfiguration.parse(bytes: Array(data), requiringJig: requiringJig), path: path)
        } catch {
            throw UsageError(
                "The rig file '\(path)', \(error.description). Fix the file (docs/rig.md lists every key).",
                path: invocation.path)
        }
    }
}
