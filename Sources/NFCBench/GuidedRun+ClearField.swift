import Foundation
import NFCBenchRecords
import NFCReaders

extension GuidedRun {
    /// The ready gate's look at the field (issue 52). Each position waits for the field to
    /// clear, but a reader follows only a target it saw: a phone left on the reader from
    /// before would answer at position 1 as a HIT there, wherever position 1 is. So once
    /// the operator says the phone is ready, the reader looks; while something answers the
    /// run does not start, says why, and waits until it is lifted.
    ///
    /// Card mode with a person placing the phone only: a machine's head may rest over the
    /// phone on its jig before the first move, and in tag mode the reader does not poll.
    /// Returns what the audit trail's `ready` event records: `clear`, or what answered and
    /// how long it stayed.
    func clearFieldBeforeFirstPosition(events: @Sendable (RunEvent) -> Void) async throws -> String {
        guard session.mode == .card, positioner.needsOperator else { return "not checked (\(uncheckedReason))" }
        let reader = readers.current
        guard let occupant = try await reader.fieldOccupant() else { return "clear" }
        let seen = Date()
        events(.fieldOccupied(occupant))
        while try await !reader.waitForRemoval(timeout: .seconds(3600)) {}
        events(.lifted)
        let waited = FixedPoint.format(Date().timeIntervalSince(seen), 1)
        return "occupied by \(ResponderWords.describe(occupant)); clear after \(waited) s"
    }

    private var uncheckedReason: String {
        session.mode != .card ? "tag mode" : "a machine places the phone"
    }
}
