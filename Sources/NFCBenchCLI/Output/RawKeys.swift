import Foundation
import NFCBench
import NFCSystem
import Synchronization

/// Single key presses from a terminal: the operator's r, s, u and q take effect at once,
/// without Enter, and never land on the countdown line (echo is off while a run reads
/// keys). Ctrl-C still interrupts (ISIG stays on). The terminal's settings are restored
/// when the run ends, at exit, and before a second Ctrl-C ends the process.
enum RawKeys {
    /// The settings to restore, saved once when raw mode begins.
    private static let saved = Mutex<TerminalSettings?>(nil)

    static var isAvailable: Bool { TerminalSettings.isTerminal(.standardInput) }

    static func stream(feedback: any TextOutput) -> AsyncStream<OperatorCommand> {
        enable()
        return AsyncStream { continuation in
            Keyboard.read(
                threadName: "operator keys",
                each: { byte in
                    // One printable key, Space, or Enter (CR on a raw terminal, LF from a pipe).
                    guard byte == 0x0A || byte == 0x0D || (0x20...0x7E).contains(byte),
                        let command = OperatorKeys.command(String(UnicodeScalar(byte)))
                    else { return }
                    switch command {
                    case .retry: feedback.write("\r\u{1B}[2K  (r) retry: this position is tapped again\n")
                    case .quit: feedback.write("\r\u{1B}[2K  (q) quit: saving the session\n")
                    case .skip, .undo, .proceed: break  // the run says what it did (SKIPPED, undone: ...)
                    }
                    continuation.yield(command)
                }, end: { continuation.finish() })
            continuation.onTermination = { _ in restore() }
        }
    }

    /// Raw keys for a command that reads its own (`rig calibrate`); a pipe is left as it is.
    static func enableForKeys() { if isAvailable { enable() } }

    private static func enable() {
        guard let settings = try? TerminalSettings.current(of: .standardInput) else { return }
        let first = saved.withLock { current -> Bool in
            guard current == nil else { return false }
            current = settings
            return true
        }
        guard first else { return }
        atexit { RawKeys.restore() }
        SignalWaiter.beforeImmediateExit { RawKeys.restore() }
        try? settings.singleKeys.apply(to: .standardInput)
    }

    static func restore() {
        try? saved.withLock({ $0 })?.apply(to: .standardInput)
    }
}
