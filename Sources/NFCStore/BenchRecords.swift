import Foundation

/// A bench session as stored: what was predicted, with what, by whom, and how it ended.
public struct SessionRecord: Sendable, Equatable {
    public enum Status: String, Sendable { case inProgress = "in_progress", completed, aborted }

    public var id: String
    public var modelInput: String
    public var lookupKey: String
    public var displayName: String?
    /// The resolved profile at the start: zone (x, y, w, h), confidence, source, staleness.
    public var predicted: [Double]?
    public var confidence: String
    public var source: String
    public var stale: Bool
    public var catalogVersion: String?
    public var aspectRatio: Double
    public var readerBackend: String
    public var readerName: String
    public var readerFirmware: String?
    public var unit: String?
    public var operatorName: String?
    public var planKind: String
    /// Which interleaved grid this session taps (`GridPlan.pass`): the number of earlier
    /// sessions of the same model when it started.
    public var planPass: Int
    /// The plan's probe points, as JSON `[[x, y], ...]`.
    public var planJSON: String
    public var repeats: Int
    public var tapTimeout: Double
    public var status: Status
    public var startedAt: Date
    public var endedAt: Date?
    public var verdict: String?
    public var measured: [Double]?
    public var iou: Double?

    public init(id: String, modelInput: String, lookupKey: String, displayName: String?, predicted: [Double]?,
                confidence: String, source: String, stale: Bool, catalogVersion: String?, aspectRatio: Double,
                readerBackend: String, readerName: String, readerFirmware: String?, unit: String?, operatorName: String?,
                planKind: String, planJSON: String, repeats: Int, tapTimeout: Double, status: Status = .inProgress,
                startedAt: Date, endedAt: Date? = nil, verdict: String? = nil, measured: [Double]? = nil, iou: Double? = nil,
                planPass: Int = 0) {
        self.id = id; self.modelInput = modelInput; self.lookupKey = lookupKey; self.displayName = displayName
        self.predicted = predicted; self.confidence = confidence; self.source = source; self.stale = stale
        self.catalogVersion = catalogVersion; self.aspectRatio = aspectRatio; self.readerBackend = readerBackend
        self.readerName = readerName; self.readerFirmware = readerFirmware; self.unit = unit
        self.operatorName = operatorName; self.planKind = planKind; self.planJSON = planJSON; self.repeats = repeats
        self.tapTimeout = tapTimeout; self.status = status; self.startedAt = startedAt; self.endedAt = endedAt
        self.verdict = verdict; self.measured = measured; self.iou = iou; self.planPass = planPass
    }
}

/// One tap: where the phone was, and what the reader saw.
public struct TapRecord: Sendable, Equatable {
    public enum Result: String, Sendable { case hit = "HIT", miss = "MISS", skipped = "SKIPPED" }

    public var sessionID: String
    /// Position in the plan.
    public var step: Int
    /// Repeat number at that position (0-based).
    public var attempt: Int
    public var probeX: Double
    public var probeY: Double
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

    public init(sessionID: String, step: Int, attempt: Int, probeX: Double, probeY: Double, insidePredicted: Bool,
                result: Result, latencyMs: Double? = nil, technology: String? = nil, uid: String? = nil,
                atqa: String? = nil, sak: String? = nil, ats: String? = nil, atr: String? = nil, timestamp: Date) {
        self.sessionID = sessionID; self.step = step; self.attempt = attempt; self.probeX = probeX
        self.probeY = probeY; self.insidePredicted = insidePredicted; self.result = result
        self.latencyMs = latencyMs; self.technology = technology; self.uid = uid; self.atqa = atqa
        self.sak = sak; self.ats = ats; self.atr = atr; self.timestamp = timestamp
    }
}
