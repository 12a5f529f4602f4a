import Foundation
import NFCReaders

/// Waiting out a reader fault: nothing is recorded until the reader answers again.
extension GuidedRun {
    /// Waits until the reader answers again: a clean window or a target (the phone may
    /// still be on it). An unplugged reader is reopened first. Throws `ReaderStayedFaulty`
    /// after `faultPolicy.patience`, `CancellationError` on Ctrl-C.
    func recover(from error: ReaderError) async throws {
        let start = clock.now
        var state = RecoveryState(last: error, needsReopen: error.code == .unplugged)
        while clock.now - start < faultPolicy.patience {
            try await clock.sleep(for: faultPolicy.interval)
            state = try await probeReader(state)
            if state.answered { return }
        }
        throw ReaderStayedFaulty(last: state.last, waited: faultPolicy.patience)
    }

    struct RecoveryState {
        var last: ReaderError
        var needsReopen: Bool
        var answered = false
        var faultyProbes = 0
    }

    /// Faulty probes in a row after which the reader is opened afresh: a reader that was
    /// replugged under the same name (a PN532 brought back from mute, a USB serial
    /// adapter re-enumerated) leaves the old handle failing forever, and only a new open
    /// reaches the new device. A reader that is merely garbling stays open (the reopen
    /// finds its port still held and keeps the old one).
    static let reopenAfterFaultyProbes = 4

    /// One look at the reader during recovery.
    private func probeReader(_ state: RecoveryState) async throws -> RecoveryState {
        var next = state
        if next.needsReopen {
            guard await readers.reopen() else { return next }
            next.needsReopen = false
        }
        switch await probeWindow() {
        case .success(.faulty(let fault)):
            next.last = fault
            next.faultyProbes += 1
            if next.faultyProbes % Self.reopenAfterFaultyProbes == 0 { next.needsReopen = true }
        case .success(.clean), .success(.target): next.answered = true
        case .failure(let error) where error.code == .unplugged:
            next.last = error
            next.needsReopen = true
        case .failure(let error): throw error
        }
        return next
    }

    private func probeWindow() async -> Result<TapWindow, ReaderError> {
        do throws(ReaderError) {
            return .success(try await readers.current.pollWindow(faultPolicy.probeWindow))
        } catch {
            return .failure(error)
        }
    }
}
