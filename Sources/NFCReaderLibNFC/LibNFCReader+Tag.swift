import Dispatch
import Foundation
import NFCReaders
import Synchronization

/// Tag mode through libnfc's target API (`nfc_target_init`, `nfc_target_receive_bytes`,
/// `nfc_target_send_bytes`): the PN532 emulates a Type 4 tag and the phone reads it.
extension LibNFCReader: TagEmulating {
    /// How long a phone may take between two commands before it counts as gone.
    static let commandGap: Int32 = 1000
    /// How long an exchange that started inside the window may run past its end.
    static let exchangeGrace = Duration.seconds(3)

    public var tagEmulation: TagEmulationSupport { .forLibNFC(firmware: info.firmware, name: info.name) }
    public var capabilities: ReaderCapabilities {
        ReaderCapabilities(tagEmulator: self, tagEmulation: tagEmulation, fieldSwitch: self, analogProfile: self)
    }

    /// Where a tag window's wait for a phone is, for the timer that ends it.
    enum WaitPhase: UInt8, AtomicRepresentable {
        case linkCheck, forPhone, over
    }

    /// What the window's timer reads from the libnfc queue. The phase is `.over` before a
    /// phone's exchange begins, so an exchange under way is never aborted.
    final class TagWait: Sendable {
        let phase = Atomic<WaitPhase>(.linkCheck)
    }

    /// Aborts the wait for a phone at the window's end, and again every 50 ms until the
    /// wait has returned: one abort can land before libnfc is waiting (a loaded host still
    /// running the opening check, or the moment between the check and the wait) and is then
    /// lost, which held a 600 ms window for 3.8 s, to its exchange deadline, in CI.
    private func abortWaitForPhone(after delay: Duration, _ wait: TagWait) {
        Self.timers.asyncAfter(deadline: .now() + max(0, delay.seconds)) { [weak self] in
            guard let self else { return }
            switch wait.phase.load(ordering: .relaxed) {
            case .over: return
            case .forPhone: device.abort()
            case .linkCheck: break
            }
            abortWaitForPhone(after: .milliseconds(50), wait)
        }
    }

    public func emulateTag(_ message: NDEFMessage, window: Duration) async throws(ReaderError) -> TagWindow {
        if case .unsupported(let reason) = tagEmulation { throw ReaderError(.unsupported, "Reader '\(info.name)': \(reason)") }
        let wait = TagWait()
        let windowEnd = ContinuousClock.now + window
        // The wait for a phone ends with the window; an exchange under way may finish.
        abortWaitForPhone(after: window, wait)
        let uid: [UInt8] = [0x08] + (0..<3).map { _ in UInt8.random(in: 0...255) }
        return try await interruptible(timeout: window + Self.exchangeGrace) { _, start in
            // A chip waiting as a target says nothing until a phone comes, so a link that
            // garbles or crawls would pass for an empty field: the window starts with a
            // round of commands whose answers and timing prove the link.
            if let fault = self.provenLink(within: Self.slowestCleanPoll, when: "") { return fault }
            // A host so loaded that the opening check outlasted the window: no wait at all.
            if ContinuousClock.now >= windowEnd {
                wait.phase.store(.over, ordering: .relaxed)
                return self.silentWindow()
            }
            wait.phase.store(.forPhone, ordering: .relaxed)
            let initStatus = self.device.targetInit(uid: uid)
            wait.phase.store(.over, ordering: .relaxed)
            if let status = initStatus {
                if self.cancelled.load(ordering: .relaxed) { return .failure(.cancelled(self.info.name)) }
                guard status == .aborted else { return self.faultyWindow(status) }
                return self.silentWindow()
            }
            let activatedAt = ContinuousClock.now
            var tag = Type4Tag(message: message)
            var lastRead: ContinuousClock.Instant?
            // How the exchange ended when the chip said "released" or went quiet: the phone
            // finished or left, unless the reader itself is gone (then it is lost, not a read).
            var ending: LibNFCStatus?
            while true {
                switch self.device.targetReceive(timeoutMs: Self.commandGap) {
                case .success(let command):
                    let answer = tag.respond(to: command)
                    if let status = self.device.targetSend(answer, timeoutMs: Self.commandGap) {
                        if status == .targetReleased || status == .timeout { ending = status; break }
                        return self.faultyWindow(status)
                    }
                    if command.count > 1, command[1] == 0xB0 { lastRead = ContinuousClock.now }
                    continue
                case .failure(let status) where status == .targetReleased || status == .timeout:
                    ending = status  // the phone finished or left
                case .failure(.aborted):
                    // Cancelled by the run, else the grace after the window ended.
                    if self.cancelled.load(ordering: .relaxed) { return .failure(.cancelled(self.info.name)) }
                case .failure(let status):
                    return self.faultyWindow(status)
                }
                break
            }
            if let ending, case let error = self.failure(ending), error.code == .unplugged { return .failure(error) }
            return .success(
                .read(
                    TagReadResult(
                        progress: tag.progress, messageBytes: tag.messageBytesRead, activation: activatedAt - start,
                        readTime: lastRead.map { $0 - activatedAt })))
        }
    }

    /// The link check that brackets a tag window, or the window it makes faulty: an error,
    /// or answers slower than `bound` twice in a row to commands the chip answers in
    /// milliseconds. One slow check is a slow link or a host that stalled (a loaded
    /// machine); asked again at once, a link that is only held up answers in time, while a
    /// slow link is late every time.
    func provenLink(within bound: Duration, when: String) -> Result<TagWindow, ReaderError>? {
        var (status, took) = timedLinkCheck()
        if status == nil, took > bound { (status, took) = timedLinkCheck() }
        if let status { return faultyWindow(status) }
        guard took > bound else { return nil }
        return .success(
            .faulty(
                ReaderError(
                    .failed,
                    "Reader '\(info.name)' took \(Int(took.seconds * 1000)) ms\(when) to answer a few commands it answers in milliseconds.",
                    hint: "Check the cable and the serial speed; unplug and replug the reader.")))
    }

    /// A libnfc error in a tag window: a vanished reader is thrown (the run waits for it),
    /// anything else makes the window faulty (nothing recorded, the position tapped again).
    /// A window that ended with no phone. A silence proves an empty field only if the link
    /// worked to the end: a chip that went mute or started garbling after the opening check
    /// would pass for one (a MISS recorded inside a fault). The same check card mode makes
    /// after a slow round closes every silent window.
    func silentWindow() -> Result<TagWindow, ReaderError> {
        provenLink(within: Self.quickLinkCheck, when: " at the window's end") ?? .success(.clean)
    }

    func faultyWindow(_ status: LibNFCStatus) -> Result<TagWindow, ReaderError> {
        let error = failure(status)
        return error.code == .unplugged ? .failure(error) : .success(.faulty(error))
    }
}
