import Foundation
import NFCLocatorCore
import NFCReaders

/// A bench session as stored: what was predicted, with what, by whom, and how it ended.
///
/// Every field is a domain value, so no caller re-parses a zone or defaults an unknown
/// string; a store that cannot decode a row into these types throws
/// `RecordDecodingError` instead of guessing.
public struct SessionRecord: Sendable, Equatable {
    public enum Status: String, Sendable, CaseIterable { case inProgress = "in_progress", completed, aborted }

    public var id: String
    public var modelInput: String
    public var lookupKey: String
    public var displayName: String?
    /// The resolved zone at the start; `nil` when the resolver had none (heuristic).
    public var predicted: NormalizedRect?
    public var confidence: Confidence
    public var source: DataSource
    public var stale: Bool
    public var catalogVersion: String?
    public var aspectRatio: Double
    /// How to open the reader again (`--resume` reopens it from this).
    public var reader: ReaderSpec
    public var readerFirmware: String?
    public var unit: String?
    public var operatorName: String?
    public var plan: PlanKind
    /// Which interleaved grid this session taps (`GridPlan.pass`): the number of earlier
    /// sessions of the same model when it started.
    public var planPass: Int
    /// The probes the plan expects when the prediction is right, for the record.
    public var plannedProbes: [Probe]
    public var repeats: Int
    public var tapTimeout: Double
    public var status: Status
    public var startedAt: Date
    public var endedAt: Date?
    public var verdict: SessionVerdict?
    public var measured: NormalizedRect?
    public var iou: Double?

    public init(
        id: String, modelInput: String, lookupKey: String, displayName: String?, predicted: NormalizedRect?,
        confidence: Confidence, source: DataSource, stale: Bool, catalogVersion: String?, aspectRatio: Double,
        reader: ReaderSpec, readerFirmware: String?, unit: String?, operatorName: String?, plan: PlanKind,
        planPass: Int = 0, plannedProbes: [Probe] = [], repeats: Int, tapTimeout: Double,
        status: Status = .inProgress, startedAt: Date, endedAt: Date? = nil, verdict: SessionVerdict? = nil,
        measured: NormalizedRect? = nil, iou: Double? = nil
    ) {
        precondition(Self.repeatCounts.contains(repeats), "taps per position are within SessionRecord.repeatCounts")
        precondition(Self.tapTimeouts.contains(tapTimeout), "a tap window is within SessionRecord.tapTimeouts")
        precondition(planPass >= 0, "grid passes count from 0")
        self.id = id; self.modelInput = modelInput; self.lookupKey = lookupKey; self.displayName = displayName
        self.predicted = predicted; self.confidence = confidence; self.source = source; self.stale = stale
        self.catalogVersion = catalogVersion; self.aspectRatio = aspectRatio; self.reader = reader
        self.readerFirmware = readerFirmware; self.unit = unit; self.operatorName = operatorName; self.plan = plan
        self.planPass = planPass; self.plannedProbes = plannedProbes; self.repeats = repeats
        self.tapTimeout = tapTimeout; self.status = status; self.startedAt = startedAt; self.endedAt = endedAt
        self.verdict = verdict; self.measured = measured; self.iou = iou
    }

    /// Tap windows a session may have, in seconds: long enough for any reader to poll,
    /// short enough that a stuck position is noticed and every clock computation stays
    /// in range. Options and stored rows are checked against it.
    public static let tapTimeouts: ClosedRange<Double> = 0.05...3600

    /// Taps per position a session may ask for.
    public static let repeatCounts: ClosedRange<Int> = 1...10

    /// The backend the reader spec names.
    public var readerBackend: ReaderBackend {
        switch reader {
        case .libnfc: .libnfc
        case .pcsc: .pcsc
        case .sim: .sim
        }
    }
}
