import Dispatch
import Foundation
import NFCSystem
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// One child (`/bin/sh -c LINE`, or a program with its arguments) in a process group of its own, waited for on a dedicated
/// queue (never a cooperative thread), with its standard error captured. A timeout or
/// the waiting task's cancellation stops the whole group (SIGTERM, then SIGKILL after
/// two seconds), so a shell's own children cannot outlive it or hold the pipe open.
final class ChildCommand: Sendable {
    enum Outcome: Sendable, Equatable {
        case exited(Int32, stderr: String)
        case timedOut(stderr: String)
        case cancelled
    }

    private enum Stop { case none, timeout, cancel }

    private struct State {
        var child: SpawnedProcess?
        var reaped = false
        var stop = Stop.none
    }

    /// The program, then its arguments.
    let arguments: [String]
    private let state = Mutex(State())
    private let queue = DispatchQueue(label: "nfcbench.child")
    /// Standard error kept for the message: the tail, at most this many bytes.
    static let stderrLimit = 16_384

    init(shellLine: String) { arguments = ["/bin/sh", "-c", shellLine] }

    /// `executable` is a path, run as it is (no search, no shell).
    init(executable: String, arguments: [String]) { self.arguments = [executable] + arguments }

    /// Starts the child; the system's reason when it cannot be started.
    func start() throws(Errno) {
        let child = try SpawnedProcess.start(arguments)
        state.withLock { $0.child = child }
    }

    /// Waits for the child to exit, for `timeout` to pass, or for cancellation.
    func wait(timeout: Duration) async -> Outcome {
        let nanoseconds = Int(min(timeout.seconds, 86_400 * 365) * 1e9)
        queue.asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { [self] in stop(.timeout) }
        return await withTaskCancellationHandler {
            await BlockingWork.run("nfcbench.child.wait") { [self] in collect() }
        } onCancel: {
            stop(.cancel)
        }
    }

    /// Reads standard error to its end, then reaps the child. Blocking: dedicated queue only.
    private func collect() -> Outcome {
        guard let child = state.withLock({ $0.child }) else { return .exited(127, stderr: "") }
        var captured: [UInt8] = []
        while let chunk = try? child.standardError.descriptor.read(upTo: 4096), !chunk.isEmpty {
            captured.append(contentsOf: chunk)
            if captured.count > 2 * Self.stderrLimit { captured.removeFirst(captured.count - Self.stderrLimit) }
        }
        let status = child.reap()
        let stop = state.withLock { s -> Stop in
            s.reaped = true
            return s.stop
        }
        let text = String(decoding: captured.suffix(Self.stderrLimit), as: UTF8.self)
        switch stop {
        case .cancel: return .cancelled
        case .timeout: return .timedOut(stderr: text)
        case .none: return .exited(status, stderr: text)
        }
    }

    /// Stops the child's process group unless it already exited (and so its id may be reused).
    private func stop(_ reason: Stop) {
        let child: SpawnedProcess? = state.withLock { s in
            guard !s.reaped, let child = s.child, s.stop == .none else { return nil }
            s.stop = reason
            return child
        }
        guard let child else { return }
        child.signalGroup(SIGTERM)
        queue.asyncAfter(deadline: .now() + .seconds(2)) { [self] in
            if !state.withLock({ $0.reaped }) { child.signalGroup(SIGKILL) }
        }
    }
}
