import Foundation
import NFCReaders

/// One tap: where the phone was, and what the reader saw.
public struct TapRecord: Sendable, Equatable {
    public enum Result: String, Sendable, CaseIterable {
        case hit = "HIT", miss = "MISS", skipped = "SKIPPED"
        /// Tag mode: the phone activated the emulated tag and began the NDEF read but did not
        /// finish it (`tagProgress` says how far it got).
        case partial = "PARTIAL"
        /// Something other than the phone under test answered (a card in the phone's case,
        /// a badge on the bench, a second target in the field): its identity is kept, and it
        /// is never a hit or a miss. The position is tapped again once the field is clear.
        case foreign = "FOREIGN"

        /// The phone's field reached the reader: a hit, or a tag read that started. Plans and
        /// verdicts take it as a read; refine weighs a partial read as half of one.
        public var read: Bool { self == .hit || self == .partial }
    }

    public var sessionID: String
    /// Position in the plan.
    public var step: Int
    /// Repeat number at that position (0-based).
    public var attempt: Int
    public var probe: Probe
    public var insidePredicted: Bool
    public var result: Result
    public var latencyMs: Double?
    public var technology: String?
    public var uid: String?
    public var atqa: String?
    public var sak: String?
    public var ats: String?
    public var atr: String?
    public var timestamp: Date
    /// Tag mode: how far the phone got through the NFC Forum read (`TagProgress`); `nil` in card mode.
    public var tagProgress: TagProgress?
    /// Who said the phone was in place when the window opened; `nil` for taps recorded
    /// before placements were recorded (migration 010).
    public var placement: TapPlacement?
    /// The length of this tap's window in seconds (a resumed session may have changed it);
    /// `nil` for taps recorded before migration 010.
    public var windowSeconds: Double?
    /// What the Android HCE probe found out about the responder (`AndroidHCEProbe`);
    /// `nil` when it was not asked (no ISO-DEP, tag mode, older taps).
    public var platformProbe: PlatformProbe?
    /// `run --coupling`: the share of the analog ladder below the weakest profile that
    /// still read here, 0 (only the default field) to 1 (the weakest); `nil` when not
    /// measured (a miss, or a run without `--coupling`).
    public var coupling: Double?
    /// Every profile tried for `coupling`, in order, with what it saw: `default read,
    /// CWGsP 3B read, CWGsP 37 no answer`.
    public var couplingTried: String?
    /// The ladder `coupling` and `couplingTried` are on (`CouplingLadder.name`): a grade is
    /// a share of its own ladder. `nil` when nothing was tried, and for taps graded before
    /// the ladder was stored (migration 016), whose walk names it (`CouplingLadder.recognising`).
    public var couplingLadder: String?

    public init(
        sessionID: String, step: Int, attempt: Int, probe: Probe, insidePredicted: Bool,
        result: Result, latencyMs: Double? = nil, technology: String? = nil, uid: String? = nil,
        atqa: String? = nil, sak: String? = nil, ats: String? = nil, atr: String? = nil, timestamp: Date,
        tagProgress: TagProgress? = nil, placement: TapPlacement? = nil, windowSeconds: Double? = nil,
        platformProbe: PlatformProbe? = nil, coupling: Double? = nil, couplingTried: String? = nil,
        couplingLadder: String? = nil
    ) {
        precondition(step >= 0 && attempt >= 0, "steps and attempts count from 0")
        precondition(coupling.map { (0...1).contains($0) } ?? true, "a coupling index is a share of the ladder")
        self.coupling = coupling; self.couplingTried = couplingTried; self.couplingLadder = couplingLadder
        self.sessionID = sessionID; self.step = step; self.attempt = attempt; self.probe = probe
        self.insidePredicted = insidePredicted; self.result = result
        self.latencyMs = latencyMs; self.technology = technology; self.uid = uid; self.atqa = atqa
        self.sak = sak; self.ats = ats; self.atr = atr; self.timestamp = timestamp; self.tagProgress = tagProgress
        self.placement = placement; self.windowSeconds = windowSeconds; self.platformProbe = platformProbe
    }

    public var probeX: Double { probe.x }
    public var probeY: Double { probe.y }
}

/// How the run knew the phone was in place for a tap.
///
/// Evidence rule: a MISS needs `.confirmedByOperator` or `.reportedByPositioner` and a
/// clean window of the full length; a HIT may come before the confirmation (the phone
/// answered, so it was there), and says so.
public enum TapPlacement: String, Sendable, CaseIterable {
    /// The operator pressed Enter or Space once the phone was in place; the window ran after that.
    case confirmedByOperator = "operator"
    /// The phone answered while the run waited for the operator's confirmation.
    case answeredBeforeConfirmation = "before-confirmation"
    /// A machine positioner (sim, exec:, gcode:) reported its move complete.
    case reportedByPositioner = "positioner"
}
