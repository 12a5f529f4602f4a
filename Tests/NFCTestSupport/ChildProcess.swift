import Foundation

/// Runs the built `nfcbench` binary as a separate process.
public struct BuiltBinary {
    public static let root = Checkout.root

    /// `$NFCBENCH_BIN`, else the debug build next to the tests.
    public static var path: String {
        if let explicit = ProcessInfo.processInfo.environment["NFCBENCH_BIN"] { return explicit }
        return root.appendingPathComponent(".build/debug/nfcbench").path
    }

    public struct Result: Sendable {
        public let status: Int32
        public let stdout: String
        public let stderr: String
        /// When the child closed both its outputs (at its exit, unless it handed them on):
        /// a test timing the child reads this, not when the reaping was noticed, which on a
        /// loaded machine came half a minute late.
        public let outputEnded: Date
    }

    /// Runs to completion without holding a cooperative thread: Swift Testing runs many
    /// tests at once on a pool as wide as the machine (2 threads here), and a test that
    /// blocked a thread on a child process would stall unrelated timing-sensitive tests.
    public static func run(
        _ arguments: [String], environment: [String: String] = [:],
        currentDirectory: URL? = nil, binary: String = path
    ) async throws -> Result {
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "NFCBENCH_RESOURCES")
        env.merge(environment) { $1 }
        let (status, stdout, stderr, ended) = try await ChildProcess.runTimed(
            binary, arguments, environment: env,
            currentDirectory: currentDirectory)
        return Result(status: status, stdout: stdout, stderr: stderr, outputEnded: ended)
    }
}

/// A child process awaited through its termination handler, pipes drained off the pool.
public enum ChildProcess {
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String],
        currentDirectory: URL? = nil, mergeErrors: Bool = false, timeout: TimeInterval? = nil
    )
        async throws -> (status: Int32, stdout: String, stderr: String)
    {
        let (status, stdout, stderr, _) = try await runTimed(
            executable, arguments, environment: environment, currentDirectory: currentDirectory, mergeErrors: mergeErrors,
            timeout: timeout)
        return (status, stdout, stderr)
    }

    /// `run`, also telling when the child's outputs ended.
    public static func runTimed(
        _ executable: String, _ arguments: [String], environment: [String: String],
        currentDirectory: URL? = nil, mergeErrors: Bool = false, timeout: TimeInterval? = nil
    )
        async throws -> (status: Int32, stdout: String, stderr: String, outputEnded: Date)
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = mergeErrors ? out : err
        try process.run()
        if let timeout {
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { if process.isRunning { process.terminate() } }
        }
        async let stdout = drain(out)
        async let stderr = mergeErrors ? Data() : drain(err)
        let (o, e) = await (stdout, stderr)
        let ended = Date()
        await exit(of: process)
        return (process.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self), ended)
    }

    public static func drain(_ pipe: Pipe) async -> Data {
        await withCheckedContinuation { continuation in
            // A thread of its own: GCD's global pool on Linux adds no thread while its
            // workers block, so many children draining at once would wait for each other.
            Thread { continuation.resume(returning: pipe.fileHandleForReading.readDataToEndOfFile()) }.start()
        }
    }

    /// Reads `pipe` off the pool until `needle` appears (true) or the writer closes it
    /// (false): a child's own words that it is ready, instead of a guessed sleep that a
    /// loaded machine overruns.
    public static func waitForText(_ pipe: Pipe, _ needle: String) async -> Bool {
        await withCheckedContinuation { continuation in
            Thread {
                var text = ""
                while true {
                    let chunk = pipe.fileHandleForReading.availableData
                    if chunk.isEmpty { return continuation.resume(returning: false) }
                    text += String(decoding: chunk, as: UTF8.self)
                    if text.contains(needle) { return continuation.resume(returning: true) }
                }
            }.start()
        }
    }

    public static func exit(of process: Process) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread {
                process.waitUntilExit()
                continuation.resume()
            }.start()
        }
    }
}
