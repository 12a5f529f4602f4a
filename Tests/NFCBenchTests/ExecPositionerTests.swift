import Foundation
import NFCBench
import NFCBenchRecords
import NFCBenchSeams
import NFCTestSupport
import Testing

/// A lab's gantry command: it may fail, hang, or be interrupted; the runner must hear
/// about each, promptly, with the command's own words.
@Suite("exec: positioner")
struct ExecPositionerTests {
    let scratch: TemporaryDirectory
    init() throws { scratch = try TemporaryDirectory("exec") }

    @Test func substitutesTheMoveAndSucceeds() async throws {
        let log = scratch.file("moves.log")
        let positioner = ExecPositioner(template: "echo {action} {index} {x} {y} >> \(log)")
        try await positioner.place(Probe(x: 0.5, y: 0.25), index: 3)
        try await positioner.lift(index: 3)
        #expect(try String(contentsOfFile: log, encoding: .utf8) == "place 3 0.5000 0.2500\nlift 3\n")
    }

    @Test func aFailureCarriesTheStatusAndStandardError() async throws {
        let positioner = ExecPositioner(template: "echo 'axis Y jammed at {index}' >&2; exit 7")
        await #expect {
            try await positioner.place(Probe(x: 0.1, y: 0.1), index: 4)
        } throws: { error in
            let e = error as? PositionerError
            return e?.isInterruption == false && e?.message.contains("exited with status 7") == true
                && e?.message.contains("axis Y jammed at 4") == true
        }
    }

    /// A stuck gantry is stopped at the timeout, with everything it started.
    @Test func aHungCommandIsStoppedAtItsTimeout() async throws {
        let pidFile = scratch.file("child.pid")
        let positioner = ExecPositioner(
            template: "echo moving >&2; sleep 30 & echo $! > \(pidFile).part && mv \(pidFile).part \(pidFile); wait",
            timeout: .seconds(1))
        let start = ContinuousClock.now
        await #expect {
            try await positioner.place(Probe(x: 0.5, y: 0.5), index: 0)
        } throws: { error in
            let message = (error as? PositionerError)?.message ?? ""
            return message.contains("did not finish within 1.0 s") && message.contains("moving")
        }
        #expect(ContinuousClock.now - start < .seconds(10))
        let child = try #require(
            Int32(try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(try await processGone(child), "the command's own child outlived the timeout")
    }

    /// The pid file is written aside and renamed into place, so the test never reads it
    /// half-written (a shell's `>` creates the file before `echo` fills it).
    /// Ctrl-C cancels the waiting task: the command and its children stop at once and the
    /// error says it was an interruption, not a gantry failure.
    @Test func cancellationStopsTheCommandAndSaysSo() async throws {
        let pidFile = scratch.file("child.pid")
        let positioner = ExecPositioner(
            template: "sleep 30 & echo $! > \(pidFile).part && mv \(pidFile).part \(pidFile); wait", timeout: .seconds(60))
        let move = Task { try await positioner.place(Probe(x: 0.5, y: 0.5), index: 0) }
        // Cancelled only once the command runs (its child's pid is written): on a loaded
        // machine starting the shell once took longer than a 10 s wait.
        let deadline = ContinuousClock.now + .seconds(60)
        while !FileManager.default.fileExists(atPath: pidFile), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        try #require(FileManager.default.fileExists(atPath: pidFile), "the command never started")
        let start = ContinuousClock.now
        move.cancel()
        let result = await move.result
        #expect(ContinuousClock.now - start < .seconds(3))
        guard case .failure(let error as PositionerError) = result else { Issue.record("not stopped: \(result)"); return }
        #expect(error.isInterruption)
        let child = try #require(
            Int32(try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(try await processGone(child))
    }

    /// Waits (up to 5 s) for `pid` to exit; signals 0 only ask whether it exists.
    func processGone(_ pid: Int32) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(5)
        while ContinuousClock.now < deadline {
            if kill(pid, 0) != 0 && errno == ESRCH { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return kill(pid, 0) != 0 && errno == ESRCH
    }
}
