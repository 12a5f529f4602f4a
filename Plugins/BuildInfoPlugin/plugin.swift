import Foundation
import PackagePlugin

/// Stamps the command with the source it was built from (commit, and whether the tree had
/// changes) and the build date, so a filed report names the exact build that wrote it.
/// A prebuild command runs before every build; `build-info.sh` rewrites its file only when
/// the stamp changes, so an unchanged tree recompiles nothing.
@main
struct BuildInfoPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let output = context.pluginWorkDirectoryURL.appending(path: "BuildInfo")
        let script = context.package.directoryURL.appending(path: "Plugins/BuildInfoPlugin/build-info.sh")
        return [
            .prebuildCommand(
                displayName: "Stamping \(target.name) with its commit and build date",
                executable: URL(fileURLWithPath: "/bin/sh"),
                arguments: [script.path, context.package.directoryURL.path, output.path],
                outputFilesDirectory: output)
        ]
    }
}
