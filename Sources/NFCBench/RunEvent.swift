import NFCBenchRecords
import NFCReaders

/// What the runner tells its front end, in order. The CLI prints these; tests read them.
public enum RunEvent: Sendable {
    case started(SessionRecord, resumedTaps: Int)
    /// A manual run waits here, before position 1, until the operator says the phone is ready.
    case readyCheck(SessionRecord)
    /// A machine positioner's plan of moves (`Positioner.announcement`), said before the
    /// ready gate, or before the first move in an unattended run.
    case machineAnnounced(String)
    /// What the reader's open put back that an earlier session left changed
    /// (`Reader.restoredAtOpen`); said before the first position.
    case readerRestored(String)
    /// The ready gate found something answering in the field before position 1 (a phone
    /// left on the reader): the run waits for it to be lifted (`lifted`) before it starts.
    case fieldOccupied(DetectedTarget)
    case position(step: Int, total: Int?, probe: Probe, attempt: Int)
    /// The run waits for the operator to say the phone is in place at `step` (Enter or
    /// Space); the reader already listens, so a phone that answers first is said.
    case awaitingPlacement(step: Int)
    /// The phone answered before the operator confirmed its placement (card mode): the run
    /// waits for the confirmation, and the window after it is the position's evidence.
    case answeredWhilePlacing(step: Int)
    /// The phone is in place: the tap window of `seconds` runs.
    case waitingForTap(seconds: Double)
    case tap(TapRecord)
    /// Something other than the phone answered (the tap, recorded as FOREIGN): the
    /// position is tapped again once the field is clear.
    case foreign(TapRecord, reason: String)
    case undone(TapRecord)
    /// The phone is (or may still be) on the reader: lift it. Said at once after a hit
    /// with an operator placing the phone.
    case waitingForLift
    /// The field is clear again after `waitingForLift`.
    case lifted
    case readerLost(ReaderError)
    /// The reader failed at a position (`step`; `nil` after its tap was recorded, while the
    /// phone was lifted): nothing was recorded for it, and the run waits for the reader
    /// to answer again.
    case readerFault(ReaderError, step: Int?)
    /// The reader answers again after a fault; the position `step` (if any) is tapped again.
    case readerRecovered(step: Int?)
    case finished(SessionRecord, SessionScore)
    case suspended(SessionRecord, reason: String)
}

/// What the operator asked for while the runner waited.
public enum OperatorCommand: Sendable {
    case retry, skip, undo, quit
    /// Enter or Space: the phone is ready (ready gate) or in place (each position).
    case proceed
}
