import Foundation
import NFCBenchRecords
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

    /// One private tmux server running one command in a 120x50 pane.
    struct Tmux {
        let socket = "/tmp/nfcb-tmux-\(UUID().uuidString.prefix(8))"
        let name = "run"

        /// The tmux server outlives this call: started through sh with its descriptors on
        /// /dev/null, so it holds none of ours, and sh (our child) reaps the tmux client.
        /// Foundation leaves a pipe's original descriptors open in children; close them all.
        func start(_ command: String) async throws {
            let launch = try await runTool(
                "/bin/bash",
                [
                    "-c",
                    "(for fd in $(ls /proc/$BASHPID/fd); do [ $fd -gt 2 ] && eval \"exec $fd>&-\"; done; "
                        + "exec tmux -S \(socket) new-session -d -s \(name) -x 120 -y 50 '\(command)' </dev/null >/dev/null 2>&1); echo started $?",
                ],
                environment: ["NO_COLOR": "1", "TERM": "xterm-256color"], timeout: 10)
            #expect(launch.output.contains("started 0"), "\(launch.output)")
        }

        /// `start`, then Enter at the ready gate once it asks.
        func startPastTheGate(_ command: String) async throws {
            try await start(command)
            _ = try await waitFor("press Enter")
            try await press("Enter")
        }

        func screen() async throws -> String {
            try await runTool("/usr/bin/tmux", ["-S", socket, "capture-pane", "-p", "-t", name, "-S", "-200"]).output
        }

        /// The screen once `shows` holds for it, looking every 100 ms for up to 15 s, and
        /// once more after the deadline: when the test process itself was starved past the
        /// deadline (seen in a loaded end-to-end pass), the screen before the stall is no
        /// evidence that the run never drew it. `what` names it in the failure.
        func waitUntil(_ what: String, _ shows: (String) -> Bool) async throws -> String {
            let deadline = Date().addingTimeInterval(15)
            var last = ""
            repeat {
                last = try await screen()
                if shows(last) { return last }
                try await Task.sleep(for: .milliseconds(100))
            } while Date() < deadline
            last = try await screen()
            if shows(last) { return last }
            Issue.record("\(what) never appeared:\n\(last)")
            return last
        }

        /// The screen once `text` is on it.
        func waitFor(_ text: String) async throws -> String {
            try await waitUntil("'\(text)'") { $0.contains(text) }
        }

        /// The screen once `text` shows after the last `marker`: what a position draws
        /// after its heading.
        func waitFor(_ text: String, after marker: String) async throws -> String {
            try await waitUntil("'\(text)' after '\(marker)'") { screen in
                guard let range = screen.range(of: marker, options: .backwards) else { return false }
                return screen[range.upperBound...].contains(text)
            }
        }

        /// The screen once the run has asked for the placement `count` times in all: keys
        /// typed before a position's prompt are discarded (stale keys), so a test types a
        /// position's key only once its prompt is there.
        func waitForPrompt(_ count: Int) async throws -> String {
            let prompt = "Place the phone, then press Enter or Space: the tap window runs"
            return try await waitUntil("the placement prompt \(count) times") {
                $0.components(separatedBy: prompt).count - 1 >= count
            }
        }

        func type(_ key: String) async throws {
            _ = try await runTool("/usr/bin/tmux", ["-S", socket, "send-keys", "-t", name, key, "Enter"])
        }

        func press(_ key: String) async throws {
            _ = try await runTool("/usr/bin/tmux", ["-S", socket, "send-keys", "-t", name, key])
        }

        func stop() async throws {
            _ = try await runTool("/usr/bin/tmux", ["-S", socket, "kill-server"])
            try? FileManager.default.removeItem(atPath: socket)
        }
    }

    @Test func promptsSkipUndoRetryAndQuit() async throws {
        let db = scratch.database()
        let tmux = Tmux()
        try await tmux.start(
            "\(BuiltBinary.path) run --plan grid --model SM-S921B --reader sim --positioner manual --tap-timeout 20 --db \(db); sleep 30"
        )
        // The ready gate: the preparation is on screen and nothing is timed until Enter.
        let gate = try await tmux.waitFor("press Enter")
        #expect(gate.contains("Nothing is timed yet") && !gate.contains("Position 1/"))
        try await tmux.type("")
        let total = RunEndToEndTests.s24GridPositions
        _ = try await tmux.waitFor("Position 1/\(total)")
        // The placement wait is the last thing drawn for a position: everything before it is on screen.
        let first = try await tmux.waitFor("waiting for you to place the phone")
        #expect(first.contains("Galaxy S24 (sm_s921b)") && first.contains("turn NFC on"))
        #expect(first.contains("Place the phone, then press Enter or Space: the tap window runs, timed, from then."))
        #expect(first.contains("keys: r retry, s skip, u undo, q quit (no Enter needed)"))
        #expect(first.contains("mm below the top edge") && first.contains("mm from the left edge"))
        #expect(first.contains("╭"))  // the silhouette is drawn on a terminal
        try await tmux.press("s")
        _ = try await tmux.waitForPrompt(2)  // position 2 asks
        try await tmux.press("u")
        _ = try await tmux.waitFor("undone: position 1 (SKIPPED)")
        _ = try await tmux.waitForPrompt(3)  // position 1 again
        try await tmux.press("r")
        _ = try await tmux.waitForPrompt(4)  // tapped again
        try await tmux.press("q")
        let last = try await tmux.waitFor("resume with: nfcbench run --resume")
        #expect(last.contains("quit by the operator"))
        let store = try await SQLiteBenchStore.open(path: db)
        let session = try #require(try await store.sessions().first)
        #expect(session.status == .inProgress)
        #expect(try await store.taps(session.id).isEmpty)
        try await tmux.stop()
    }

    /// A person at a virtual bench: "lift" comes at once after a HIT, with a wait shown;
    /// single keys act without Enter and say what they did; the silhouette at each
    /// position shows every tap so far.
    @Test func liftPromptSingleKeysAndTheLiveMapInATerminal() async throws {
        let db = scratch.database()
        let bench = try TestBench(antenna: (0.1, 0.36, 0.8, 0.38))
        let tmux = Tmux()
        try await tmux.start(
            "\(BuiltBinary.path) run --plan grid --model SM-S921B --reader \(bench.spec) --positioner manual --tap-timeout 20"
                + " --db \(db) --no-report; sleep 30")
        _ = try await tmux.waitFor("press Enter")
        try await tmux.press("Enter")
        let total = RunEndToEndTests.s24GridPositions
        _ = try await tmux.waitFor("Position 1/\(total)")
        _ = try await tmux.waitFor("waiting for you to place the phone")
        try bench.placeOverCoil()
        // Issue 52: placed as the prompt asks, the phone answers before the key. That is said,
        // and the tap is the window after the key, timed from it.
        _ = try await tmux.waitFor("The phone answers at position 1")
        try await tmux.press("Enter")
        let start = ContinuousClock.now
        _ = try await tmux.waitFor("lift the phone off the reader")
        #expect(ContinuousClock.now - start < .seconds(5), "the lift prompt came late")
        let lift = try await tmux.waitFor("waiting for the lift")
        #expect(
            lift.contains("HIT") && lift.range(of: #"UID [0-9A-F]+ in [0-9.]+ ms"#, options: .regularExpression) != nil, "\(lift)"
        )
        #expect(!lift.contains("answered before the placement was confirmed"))
        bench.lift()
        let second = try await tmux.waitFor("to place the phone", after: "Position 2/\(total)")
        #expect(second.contains("lifted"))
        // The map at position 2 shows position 1's hit.
        let map = second.components(separatedBy: "Position 2/").last ?? ""
        #expect(map.contains("●"), "\(map)")
        try await tmux.press("s")  // a single key, no Enter
        let skipped = try await tmux.waitFor("to place the phone", after: "Position 3/\(total)")
        #expect(skipped.contains("SKIPPED"))
        #expect(!skipped.contains("s lefts"))  // the key never echoed onto the countdown
        try await tmux.press("u")
        _ = try await tmux.waitFor("undone: position 2 (SKIPPED)")
        _ = try await tmux.waitForPrompt(4)  // position 2 again (1, 2, 3, then 2)
        try await tmux.press("r")
        _ = try await tmux.waitFor("(r) retry: this position is tapped again")
        _ = try await tmux.waitForPrompt(5)
        try await tmux.press("q")
        _ = try await tmux.waitFor("resume with: nfcbench run --resume")
        let store = try await SQLiteBenchStore.open(path: db)
        let session = try #require(try await store.sessions().first)
        let taps = try await store.taps(session.id)
        #expect(taps.count == 1 && taps.first?.result == .hit)
        try await tmux.stop()
    }

    /// Issue 52: the map drawn after `--resume` starts with the taps the session already
    /// holds (it showed none, as if the session began at the resume).
    @Test func aResumedSessionsMapShowsItsEarlierTaps() async throws {
        let db = scratch.database()
        // Three positions, then the positioner fails: saved, three MISSes recorded (the
        // simulated phone is never brought to the reader by an exec: positioner).
        let first = try await BuiltBinary.run([
            "run", "--plan", "grid", "--model", "SM-S921B", "--reader", "sim", "--positioner", "exec:[ {index} -lt 3 ]",
            "--auto", "--tap-timeout", "0.1", "--db", db, "--no-report",
        ])
        #expect(first.status == 1, "\(first.stdout)\(first.stderr)")
        let store = try await SQLiteBenchStore.open(path: db)
        let session = try #require(try await store.sessions().first)
        #expect(try await store.taps(session.id).map(\.result) == [.miss, .miss, .miss])
        let tmux = Tmux()
        try await tmux.startPastTheGate(
            "\(BuiltBinary.path) run --resume \(session.id) --reader sim --positioner manual --db \(db) --no-report; sleep 30")
        let total = RunEndToEndTests.s24GridPositions
        let screen = try await tmux.waitFor("to place the phone", after: "Position 4/\(total)")
        let map = screen.components(separatedBy: "Position 4/").last ?? ""
        #expect(map.components(separatedBy: "×").count - 1 == 3, "the three earlier misses are not on the map:\n\(map)")
        try await tmux.press("q")
        _ = try await tmux.waitFor("resume with: nfcbench run --resume")
        try await tmux.stop()
    }

    /// A slow hand at a virtual bench (libnfc over the emulated PN532), the coil covering the
    /// whole back and 1 s windows: a technician who needs 2.5 s to place the phone gets no
    /// MISS before they confirm the placement; an Enter pressed while the run waits for
    /// the lift confirms nothing; Space confirms, and only then can a clean window be a MISS.
    @Test func aSlowHandGetsNoMissBeforeConfirmingAndAStaleEnterConfirmsNothing() async throws {
        let db = scratch.database()
        let bench = try TestBench(antenna: (0.02, 0.02, 0.96, 0.96))
        let tmux = Tmux()
        try await tmux.start(
            "\(BuiltBinary.path) run --plan grid --model SM-S921B --reader \(bench.spec) --tap-timeout 1"
                + " --db \(db) --no-report; sleep 30")
        _ = try await tmux.waitFor("press Enter")
        try await tmux.press("Enter")
        let total = RunEndToEndTests.s24GridPositions
        _ = try await tmux.waitFor("to place the phone", after: "Position 1/\(total)")
        try await Task.sleep(for: .milliseconds(2500))  // the slow hand: 2.5 windows' time
        try bench.placeOverCoil()
        _ = try await tmux.waitFor("The phone answers at position 1")
        try await tmux.press("Space")
        _ = try await tmux.waitFor("waiting for the lift")
        try await tmux.press("Enter")  // pressed while lifting: stale
        try await Task.sleep(for: .milliseconds(300))
        bench.lift()
        _ = try await tmux.waitFor("to place the phone", after: "Position 2/\(total)")
        try await Task.sleep(for: .milliseconds(2500))
        let waiting = try await tmux.screen()
        let second = waiting.components(separatedBy: "Position 2/").last ?? ""
        #expect(!second.contains("MISS") && !second.contains("placed; waiting"), "\(second)")
        try bench.placeOverCoil()
        _ = try await tmux.waitFor("The phone answers at position 2", after: "Position 2/\(total)")
        try await tmux.press("Space")
        _ = try await tmux.waitFor("waiting for the lift", after: "Position 2/\(total)")
        bench.lift()
        _ = try await tmux.waitFor("to place the phone", after: "Position 3/\(total)")
        // Confirmed with nothing on the reader: a clean 1 s window after it is a MISS. (A
        // confirmation within half a second of the prompt is taken for a stale key.)
        try await Task.sleep(for: .milliseconds(800))
        try await tmux.press("Space")
        _ = try await tmux.waitFor("MISS", after: "Position 3/\(total)")
        try await tmux.press("q")
        _ = try await tmux.waitFor("resume with: nfcbench run --resume")
        let store = try await SQLiteBenchStore.open(path: db)
        let session = try #require(try await store.sessions().first)
        let taps = try await store.taps(session.id)
        #expect(taps.map(\.result) == [.hit, .hit, .miss], "\(taps.map(\.result))")
        // Every tap timed from its confirmation; the answers while placing are in the trail.
        #expect(taps.allSatisfy { $0.placement == .confirmedByOperator && $0.windowSeconds == 1 })
        #expect(taps.prefix(2).allSatisfy { $0.latencyMs != nil })
        let trail = try await store.events(session.id)
        let placed = trail.filter { $0.kind == .placed }
        #expect(placed.map(\.step) == [0, 1, 2] && placed.allSatisfy { $0.details["by"] == "operator" })
        #expect(trail.filter { $0.kind == .answeredWhilePlacing }.map(\.step) == [0, 1])
        try await tmux.stop()
    }

    /// Issue 52: a phone left on the reader (real libnfc over the emulated PN532) was read
    /// at position 1 as a HIT there. The ready gate looks at the field, says what answers,
    /// and starts only once it is lifted; the trail records what the gate saw.
    @Test func aPhoneLeftOnTheReaderHoldsTheGateUntilLifted() async throws {
        let db = scratch.database()
        let bench = try TestBench(antenna: (0.02, 0.02, 0.96, 0.96))
        try bench.placeOverCoil()
        let tmux = Tmux()
        try await tmux.startPastTheGate(
            "\(BuiltBinary.path) run --plan grid --model SM-S921B --reader \(bench.spec) --tap-timeout 1"
                + " --db \(db) --no-report; sleep 30")
        let held = try await tmux.waitFor("Something answers in the reader's field")
        #expect(held.contains("The run starts when the field is clear") && !held.contains("Position 1/"), "\(held)")
        try await Task.sleep(for: .milliseconds(1500))
        #expect(try await !tmux.screen().contains("Position 1/"))
        bench.lift()
        let total = RunEndToEndTests.s24GridPositions
        _ = try await tmux.waitFor("to place the phone", after: "Position 1/\(total)")
        try await tmux.press("q")
        _ = try await tmux.waitFor("resume with: nfcbench run --resume")
        let store = try await SQLiteBenchStore.open(path: db)
        let session = try #require(try await store.sessions().first)
        #expect(try await store.taps(session.id).isEmpty, "a phone left on the reader was recorded")
        let ready = try #require(try await store.events(session.id).first { $0.kind == .ready })
        #expect(ready.details["field"]?.hasPrefix("occupied by ") == true, "\(ready.details)")
        try await tmux.stop()
    }

    /// Ctrl-C while the run waits for the phone: the session is saved, the resume command
    /// (with --db) is printed, and the exit code is 130, as documented.
    @Test func ctrlCDuringTheTapWaitInATerminal() async throws {
        let db = scratch.database()
        let tmux = Tmux()
        try await tmux.start(
            "\(BuiltBinary.path) run --model SM-S921B --reader sim --positioner manual --tap-timeout 30 --db \(db); "
                + "echo \"exit status $?\"; sleep 30")
        _ = try await tmux.waitFor("press Enter")
        try await tmux.type("")
        _ = try await tmux.waitFor("waiting for you to place the phone")
        try await Task.sleep(for: .milliseconds(800))
        try await tmux.press("Space")  // placed: the window runs
        _ = try await tmux.waitFor("placed; waiting for the phone")
        try await tmux.press("C-c")
        let screen = try await tmux.waitFor("exit status")
        #expect(screen.contains("exit status 130"), "\(screen)")
        let unwrapped = screen.replacingOccurrences(of: "\n", with: "")  // the pane wraps long lines
        #expect(
            unwrapped.contains("saved (interrupted); resume with: nfcbench run --resume S-") && unwrapped.contains("--db \(db)"))
        #expect(!screen.contains("CancellationError"))
        let store = try await SQLiteBenchStore.open(path: db)
        let session = try #require(try await store.sessions().first)
        #expect(session.status == .inProgress)
        try await tmux.stop()
    }
}
