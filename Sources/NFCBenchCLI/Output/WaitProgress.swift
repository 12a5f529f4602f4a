import Foundation
import NFCReaders
import Synchronization

/// A spinner with a countdown on a terminal; a single line otherwise (pipes, logs).
///
/// Frames and the clearing `stop` are written under one lock, and a frame only while its
/// spinner is still the current one: a frame computed as `stop` runs would otherwise land
/// after the clear, and the next line would start behind "waiting for the lift... 5 s".
final class WaitProgress: Sendable {
    private struct State {
        var task: Task<Void, Never>?
        /// Which spinner may draw; `stop` moves it on, so an old frame is dropped.
        var generation = 0
    }

    private let output: any TextOutput
    private let interactive: Bool
    private let state = Mutex(State())

    init(output: any TextOutput, interactive: Bool) {
        self.output = output
        self.interactive = interactive
    }

    /// `timeout`: the seconds counted down; `nil` shows the time waited instead.
    func start(_ message: String, timeout: Double?) {
        stop()
        guard interactive else {
            output.line(timeout.map { "\(message) (up to \(ReaderCommands.format($0)) s)..." } ?? "\(message)...")
            return
        }
        let output = self.output
        state.withLock { s in
            let mine = s.generation
            s.task = Task { [self] in
                let frames = Array("⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏")
                let start = ContinuousClock.now
                var i = 0
                while !Task.isCancelled {
                    let elapsed = (ContinuousClock.now - start).seconds
                    let clock = timeout.map { "\(Int(max(0, $0 - elapsed).rounded(.up))) s left" } ?? "\(Int(elapsed)) s"
                    let frame = "\r\u{1B}[2K\(frames[i % frames.count]) \(message)... \(clock)"
                    self.state.withLock { if $0.generation == mine { output.write(frame) } }
                    i += 1
                    try? await Task.sleep(for: .milliseconds(100))
                }
            }
        }
    }

    /// Ends the spinner and clears its line before returning: nothing of it is drawn after.
    func stop() {
        state.withLock { s in
            guard let running = s.task else { return }
            s.task = nil
            s.generation += 1
            running.cancel()
            if interactive { output.write("\r\u{1B}[2K") }
        }
    }
}
