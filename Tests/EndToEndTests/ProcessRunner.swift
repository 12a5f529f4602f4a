import Foundation

/// Runs the built `nfcbench` binary as a separate process.
struct BuiltBinary {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// `$NFCBENCH_BIN`, else the debug build next to the tests.
    static var path: String {
        if let explicit = ProcessInfo.processInfo.environment["NFCBENCH_BIN"] { return explicit }
        return root.appendingPathComponent(".build/debug/nfcbench").path
    }

    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    static func run(_ arguments: [String], environment: [String: String] = [:],
                    currentDirectory: URL? = nil, binary: String = path) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "NFCBENCH_RESOURCES")
        env.merge(environment) { $1 }
        process.environment = env
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                      stderr: String(decoding: stderr, as: UTF8.self))
    }
}
