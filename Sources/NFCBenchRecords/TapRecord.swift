import Foundation

/// One tap: where the phone was, and what the reader saw.
public struct TapRecord: Sendable, Equatable {
    public enum Result: String, Sendable, CaseIterable { case hit = "HIT", miss = "MISS", skipped = "SKIPPED" }

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

    public init(
        sessionID: String, step: Int, attempt: Int, probe: Probe, insidePredicted: Bool,
        result: Result, latencyMs: Double? = nil, technology: String? = nil, uid: String? = nil,
        atqa: String? = nil, sak: String? = nil, ats: String? = nil, atr: String? = nil, timestamp: Date
    ) {
        precondition(step >= 0 && attempt >= 0, "steps and attempts count from 0")
        self.sessionID = sessionID; self.step = step; self.attempt = attempt; self.probe = probe
        self.insidePredicted = insidePredicted; self.result = result
        self.latencyMs = latencyMs; self.technology = technology; self.uid = uid; self.atqa = atqa
        self.sak = sak; self.ats = ats; self.atr = atr; self.timestamp = timestamp
    }

    public var probeX: Double { probe.x }
    public var probeY: Double { probe.y }
}
