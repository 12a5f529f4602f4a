import Foundation
import NFCBenchStoreSQLite
import NFCStore
import NFCTestSupport
import Testing

/// A session driven by a person in a real terminal: tmux runs nfcbench, `send-keys`
/// types, `capture-pane` reads the screen. scripts/test.sh runs it in its solo pass: the
/// tmux server it starts inherits whatever descriptors the test process holds.
@Suite("Interactive run in a terminal", .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux")))
struct InteractiveRunTests {
    let scratch: TemporaryDirectory
    init() throws { scratch = try TemporaryDirectory("e2e") }

    @Test func promptsSkipUndoRetryAndQuit() async throws {
        let name = "run"
        let db = scratch.database()
        // A private tmux server: never the developer's, and gone at the end of the test.
        let socket = "/tmp/nfcb-tmux-\(UUID().uuidString.prefix(8))"
        let tmuxEnv = ["NO_COLOR": "1", "TERM": "xterm-256color"]
        let command =
            "\(BuiltBinary.path) run --model SM-S921B --reader sim --positioner manual --tap-timeout 20 --db \(db); sleep 30"
        // The tmux server outlives this call: started through sh with its descriptors on
        // /dev/null, so it holds none of ours, and sh (our child) reaps the tmux client.
        // Foundation leaves a pipe's original descriptors open in children; close them all.
        let launch = try await runTool(
            "/bin/bash",
            [
                "-c",
                "(for fd in $(ls /proc/$BASHPID/fd); do [ $fd -gt 2 ] && eval \"exec $fd>&-\"; done; "
                    + "exec tmux -S \(socket) new-session -d -s \(name) -x 120 -y 50 '\(command)' </dev/null >/dev/null 2>&1); echo started $?",
            ],
            environment: tmuxEnv, timeout: 10)
        #expect(launch.output.contains("started 0"), "\(launch.output)")

        func screen() async throws -> String {
            try await runTool("/usr/bin/tmux", ["-S", socket, "capture-pane", "-p", "-t", name, "-S", "-200"]).output
        }
        func waitFor(_ text: String) async throws -> String {
            let deadline = Date().addingTimeInterval(15)
            var last = ""
            while Date() < deadline {
                last = try await screen()
                if last.contains(text) { return last }
                try await Task.sleep(for: .milliseconds(100))
            }
            Issue.record("'\(text)' never appeared:\n\(last)")
            return last
        }
        func type(_ key: String) async throws {
            _ = try await runTool("/usr/bin/tmux", ["-S", socket, "send-keys", "-t", name, key, "Enter"])
        }

        let first = try await waitFor("Position 1/15")
        #expect(first.contains("Galaxy S24 (sm_s921b)") && first.contains("turn NFC on"))
        #expect(first.contains("(r retry, s skip, u undo, q quit, then Enter)"))
        #expect(first.contains("waiting for the phone"))  // the live countdown
        #expect(first.contains("╭"))  // the silhouette is drawn on a terminal
        try await type("s")
        _ = try await waitFor("Position 2/15")
        try await type("u")
        _ = try await waitFor("undone: position 1 (SKIPPED)")
        try await type("r")
        try await type("q")
        let last = try await waitFor("resume with: nfcbench run --resume")
        #expect(last.contains("quit by the operator"))
        let store = try await SQLiteBenchStore.open(path: db)
        let session = try #require(try await store.sessions().first)
        #expect(session.status == .inProgress)
        #expect(try await store.taps(session.id).isEmpty)
        _ = try await runTool("/usr/bin/tmux", ["-S", socket, "kill-server"])
        try? FileManager.default.removeItem(atPath: socket)
    }
}
