import Foundation

/// A loopback server from Tests/Fixtures (a Python script that binds 127.0.0.1 on a free
/// port and prints the port on its first line), one instance per test, stopped and
/// reaped when released.
public final class FixtureServer {
    public let port: Int
    private let process: Process

    /// Starts `script` (a path under Tests/Fixtures) with `arguments`.
    public init(script: String, arguments: [String] = []) async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Checkout.root.appendingPathComponent("Tests/Fixtures/" + script).path] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let handle = output.fileHandleForReading
        let line = await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: handle.availableLine(timeout: 30)) }.start()
        }
        guard let line, let port = Int(line) else {
            Self.stop(process.processIdentifier)
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "\(script) printed no port"])
        }
        self.process = process
        self.port = port
    }

    /// `http://127.0.0.1:PORT/path`.
    public func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)/\(path)")! }

    /// Reaps the server itself with `waitpid`, bounded, instead of `Process.waitUntilExit`:
    /// Foundation learns of a child's exit from a SIGCHLD dispatch source, which can miss
    /// the signal when a thread has it unblocked, and then waits for ever, spinning the run
    /// loop on a cooperative thread (seen: both of the pool's threads stuck so, every other
    /// test of the pass waiting on them, the servers left as zombies).
    deinit { Self.stop(process.processIdentifier) }

    private static func stop(_ pid: pid_t) {
        kill(pid, SIGTERM)
        var status: Int32 = 0
        let deadline = Date().addingTimeInterval(3)
        var reaped = waitpid(pid, &status, WNOHANG)
        while reaped == 0 && Date() < deadline {
            usleep(10_000)
            reaped = waitpid(pid, &status, WNOHANG)
        }
        if reaped == 0 {
            kill(pid, SIGKILL)
            _ = waitpid(pid, &status, 0)
        }
    }
}
