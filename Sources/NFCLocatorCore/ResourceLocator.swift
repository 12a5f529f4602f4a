import Foundation

/// Finds the shipped data files (`seed_catalog.json`, `Localizable.xcstrings`)
/// wherever the binary runs from.
///
/// Search order: `$NFCBENCH_RESOURCES`; then, walking up from the executable's real
/// location, an installed `share/nfcbench/` or a source checkout's `Resources/`.
/// The walk is what lets a tree staged under `DESTDIR` work before it is moved, and
/// a `.build/debug/nfcbench` find the checkout it was built from.
public struct ResourceLocator: Sendable {
    public let directory: URL

    public init(directory: URL) { self.directory = directory }

    public static let marker = "seed_catalog.json"

    /// The shipped resources, or `nil` when none can be found. `executable`, when given,
    /// may be a symbolic link; by default the running executable's real path is used.
    public static func shipped(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        executable: URL? = nil
    ) -> ResourceLocator? {
        let fm = FileManager.default
        if let explicit = environment["NFCBENCH_RESOURCES"], !explicit.isEmpty {
            return ResourceLocator(directory: URL(fileURLWithPath: explicit, isDirectory: true))
        }
        guard let real = executable.map({ $0.resolvingSymlinksInPath() }) ?? executableURL() else { return nil }
        var dir = real.deletingLastPathComponent()
        for _ in 0..<8 {
            for candidate in ["share/nfcbench", "Resources"] {
                let folder = dir.appendingPathComponent(candidate, isDirectory: true)
                if fm.fileExists(atPath: folder.appendingPathComponent(marker).path) {
                    return ResourceLocator(directory: folder)
                }
            }
            let parent = dir.deletingLastPathComponent()
            if parent.path == dir.path { break }
            dir = parent
        }
        return nil
    }

    /// The running executable's real path: `/proc/self/exe` on Linux, which the kernel
    /// resolves (so no walk over symbolic links is needed); elsewhere Bundle's, resolved.
    public static func executableURL() -> URL? {
        #if os(Linux)
            if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
                return URL(fileURLWithPath: path, isDirectory: false)
            }
        #endif
        return Bundle.main.executableURL?.resolvingSymlinksInPath()
    }

    public var seedCatalogURL: URL { directory.appendingPathComponent(Self.marker) }
    public var stringsURL: URL { directory.appendingPathComponent("Localizable.xcstrings") }
}
