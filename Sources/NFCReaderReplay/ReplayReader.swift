import Foundation
import NFCReaders
import Synchronization

/// A reader that answers each tap window as a recorded session's reader did, in order:
/// a HIT gives the target it saw, a MISS a clean window. For re-running a real session's
/// observations through a newer plan, score or report, with no reader attached. Everything
/// it answers is a replay, never an observation: its sessions are marked simulated.
public final class ReplayReader: Reader {
    /// One recorded tap the reader observed (skips were the operator's, not the reader's).
    struct Answer: Sendable {
        let target: DetectedTarget?
    }

    public let info: ReaderInfo
    private let answers: Mutex<[Answer]>

    init(info: ReaderInfo, answers: [Answer]) {
        self.info = info
        self.answers = Mutex(answers.reversed())
    }

    /// The recorded session in `path`, as `nfcbench show ID --json` writes it.
    public static func open(path: String) throws(ReaderError) -> ReplayReader {
        let hint = "Write one with: nfcbench show SESSION --json > FILE"
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ReaderError(.noReader, "No recorded session at '\(path)'.", hint: hint)
        }
        let recording: ReplayRecording
        do { recording = try ReplayRecording(json: data) } catch {
            throw ReaderError(.invalidSpec, "'\(path)' is not a recorded session: \(error.reason).", hint: hint)
        }
        guard recording.mode == "card" else {
            throw ReaderError(
                .unsupported, "'\(path)' was recorded in \(recording.mode) mode; a replay answers card-mode sessions only.")
        }
        let name = "Replay of \(recording.sessionID)"
        let answers = recording.taps.map { tap in
            Answer(
                target: tap.uid.map {
                    DetectedTarget(
                        technology: tap.technology, uid: $0, latency: .milliseconds(Int64(tap.latencyMs ?? 0)), reader: name)
                })
        }
        return ReplayReader(
            info: ReaderInfo(
                backend: .replay, name: name, spec: "replay:\(path)", firmware: "nfcbench-replay", isSimulated: true),
            answers: answers)
    }

    /// The next recorded answer: its target for a HIT, `nil` for a MISS. A recording that
    /// ran out is a fault, never a miss: nothing was observed there.
    public func waitForTarget(timeout: Duration) async throws(ReaderError) -> DetectedTarget? {
        if Task.isCancelled { throw .cancelled(info.name) }
        guard let next = answers.withLock({ $0.popLast() }) else {
            throw ReaderError(
                .failed, "The recording replayed by '\(info.name)' has no tap left.",
                hint: "This run asked for more positions than the recorded one; replay it with the same model and plan.")
        }
        return next.target
    }

    /// A replay has no phone on it between taps.
    public func waitForRemoval(timeout: Duration) async throws(ReaderError) -> Bool { true }
    /// A replay has no field to look at: its answers are the recorded session's, in order,
    /// and a look must not take one of them.
    public func fieldOccupant() async throws(ReaderError) -> DetectedTarget? { nil }

    public func close() async {}

    public var capabilities: ReaderCapabilities {
        .pollingOnly("'\(info.name)' replays a card-mode session; it has no target mode")
    }
}
