import Foundation
import Synchronization

/// How far a long push has got. A bench's first sync against a fresh lab store pushes every
/// session it ever recorded, one transaction each (about a thousand a second): without a
/// word, a bench with years of sessions looks hung. Short pushes (a run's own session)
/// stay silent.
final class SyncProgress: Sendable {
    /// Pending sessions from which progress is shown.
    static let shownFrom = 50
    private let output: any TextOutput
    private let interactive: Bool
    /// How often a line is written when not on a terminal (logs keep every line).
    private let every: Duration
    /// When a line was last written, and whether a terminal line is still showing.
    private let state = Mutex<(last: ContinuousClock.Instant?, showing: Bool)>((nil, false))

    init(output: any TextOutput, interactive: Bool, every: Duration = .seconds(5)) {
        self.output = output
        self.interactive = interactive
        self.every = every
    }

    /// `done` of `total` pending sessions handled; called with 0 before the first.
    func update(done: Int, total: Int, destination: String) {
        guard total >= Self.shownFrom else { return }
        let now = ContinuousClock.now
        let gap = interactive ? Duration.milliseconds(100) : every
        let due = state.withLock { state in
            guard done == 0 || done == total || state.last.map({ now - $0 >= gap }) ?? true else { return false }
            state.last = now
            state.showing = interactive && done < total
            return true
        }
        guard due else { return }
        let percent = total > 0 ? done * 100 / total : 100
        if interactive {
            output.write(
                "\r\u{1B}[2K" + (done < total ? "Pushing to \(destination): \(done) of \(total) sessions (\(percent)%)" : ""))
        } else if done == 0 {
            output.line("Pushing \(total) sessions to \(destination)...")
        } else if done < total {
            output.line("  \(done) of \(total) sessions pushed (\(percent)%)")
        }
    }

    /// Clears a terminal line left showing (a push that stopped part way), so what comes
    /// next starts on a line of its own.
    func finish() {
        let showing = state.withLock { state in
            defer { state.showing = false }
            return state.showing
        }
        if showing { output.write("\r\u{1B}[2K") }
    }
}
