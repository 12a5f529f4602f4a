import Foundation
import NFCReaders
import Synchronization

/// A spinner with a countdown on a terminal; a single line otherwise (pipes, logs).
final class WaitProgress: Sendable {
    private let output: any TextOutput
    private let interactive: Bool
    private let task = Mutex<Task<Void, Never>?>(nil)

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
        let spinner = Task {
            let frames = Array("⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏")
            let start = ContinuousClock.now
            var i = 0
            while !Task.isCancelled {
                let elapsed = (ContinuousClock.now - start).seconds
                let clock = timeout.map { "\(Int(max(0, $0 - elapsed).rounded(.up))) s left" } ?? "\(Int(elapsed)) s"
                output.write("\r\u{1B}[2K\(frames[i % frames.count]) \(message)... \(clock)")
                i += 1
                try? await Task.sleep(for: .milliseconds(100))
            }
            output.write("\r\u{1B}[2K")
        }
        task.withLock { $0 = spinner }
    }

    func stop() {
        let running = task.withLock { current -> Task<Void, Never>? in
            let t = current
            current = nil
            return t
        }
        guard let running else { return }
        running.cancel()
        // Clear the spinner line now, so the next line does not start behind it.
        if interactive { output.write("\r\u{1B}[2K") }
    }
}
