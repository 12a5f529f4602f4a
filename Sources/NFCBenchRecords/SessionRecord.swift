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
    /// The reader's serial number, where its driver gave one: which of a lab's readers
    /// of one model took the session.
    public var readerSerial: String?
    /// The reader's antenna and the gap, which the physical model needs (`ReaderGeometry`);
    /// `nil`: unknown (a session from before migration 018, or a reader without a profile
    /// whose operator gave none).
    public var readerGeometry: ReaderGeometry?
    /// The room's temperature and humidity as the operator gave them (`BenchConditions`).
    public var conditions: BenchConditions
    public var unit: String?
    public var operatorName: String?
    public var plan: PlanKind
    /// Which interleaved grid this session taps (`GridPlan.pass`): the number of earlier
    /// sessions of the same model when it started.
    public var planPass: Int
    /// Where earlier sessions left the zone's edges uncertain, when the plan learned from
    /// them (`AdaptivePlan`); stored so a resumed session plans from the same numbers.
    public var planFocus: PlanFocus?
    /// The probes the plan expects when the prediction is right, for the record.
    public var plannedProbes: [Probe]
    public var repeats: Int
    public var tapTimeout: Double
    public var status: Status
    public var startedAt: Date
    public var endedAt: Date?
    public var verdict: SessionVerdict?
    /// The verdict's reason, in words.
    public var verdictReason: String?
    public var measured: NormalizedRect?
    public var iou: Double?
    /// Body height in millimetres, when the catalog publishes it: positions and shifts
    /// are told in millimetres with it.
    public var bodyHeightMm: Double?
    /// Taken with a simulated reader (`--reader sim`) or a virtual bench: never bench
    /// evidence, so refine and promotion leave it out unless asked.
    public var simulated: Bool
    /// Why the session was voided (`nfcbench void`); `nil` for a valid session. Void
    /// sessions are kept and listed, and left out of refine, reports and exports.
    public var voidReason: String?
    public var voidedAt: Date?
    /// The bench (station) that took the session, when one was configured: with the id,
    /// what names the session in a lab store that pools several benches.
    public var station: String?
    /// Card mode (the reader polls the phone) or tag mode (the phone reads an emulated tag).
    public var mode: TapMode
    /// What the operator typed for `--model` when it was not the identifier itself (a
    /// name such as "Galaxy S24", a spelling): `modelInput` holds the identifier resolved.
    public var modelTyped: String?
    /// The phone as the operator described it, for the filed record.
    public var phone: PhoneDetails

    public init(
        id: String, modelInput: String, lookupKey: String, displayName: String?, predicted: NormalizedRect?,
        confidence: Confidence, source: DataSource, stale: Bool, catalogVersion: String?, aspectRatio: Double,
        reader: ReaderSpec, readerFirmware: String?, unit: String?, operatorName: String?, plan: PlanKind,
        planPass: Int = 0, plannedProbes: [Probe] = [], repeats: Int, tapTimeout: Double,
        status: Status = .inProgress, startedAt: Date, endedAt: Date? = nil, verdict: SessionVerdict? = nil,
        measured: NormalizedRect? = nil, iou: Double? = nil, bodyHeightMm: Double? = nil, simulated: Bool = false,
        verdictReason: String? = nil, voidReason: String? = nil, voidedAt: Date? = nil, planFocus: PlanFocus? = nil,
        station: String? = nil, mode: TapMode = .card, modelTyped: String? = nil, phone: PhoneDetails = PhoneDetails(),
        readerSerial: String? = nil, readerGeometry: ReaderGeometry? = nil, conditions: BenchConditions = BenchConditions()
    ) {
        precondition(Self.repeatCounts.contains(repeats), "taps per position are within SessionRecord.repeatCounts")
        precondition(Self.storedTapTimeouts.contains(tapTimeout), "a tap window is within SessionRecord.storedTapTimeouts")
        precondition(planPass >= 0, "grid passes count from 0")
        self.id = id; self.modelInput = modelInput; self.lookupKey = lookupKey; self.displayName = displayName
        self.predicted = predicted; self.confidence = confidence; self.source = source; self.stale = stale
        self.catalogVersion = catalogVersion; self.aspectRatio = aspectRatio; self.reader = reader
        self.readerFirmware = readerFirmware; self.unit = unit; self.operatorName = operatorName; self.plan = plan
        self.planPass = planPass; self.plannedProbes = plannedProbes; self.repeats = repeats
        self.tapTimeout = tapTimeout; self.status = status; self.startedAt = startedAt; self.endedAt = endedAt
        self.verdict = verdict; self.measured = measured; self.iou = iou
        self.bodyHeightMm = bodyHeightMm; self.simulated = simulated; self.verdictReason = verdictReason
        self.voidReason = voidReason; self.voidedAt = voidedAt; self.planFocus = planFocus; self.station = station
        self.mode = mode; self.modelTyped = modelTyped; self.phone = phone
        self.readerSerial = readerSerial
        self.readerGeometry = readerGeometry
        self.conditions = conditions
    }

    /// How a store is asked for this session: `station/id` when the session has a
    /// station (unique across a lab by construction: ids are unique within a station's
    /// own database, station names within the lab), else the id.
    public var reference: String { SessionReference(station: station, id: id).description }

    /// Tap windows a session may have, in seconds: at least a phone's activation and one
    /// reader poll (a shorter window records misses that are the window's, not the
    /// phone's), short enough that a stuck position is noticed and every clock
    /// computation stays in range. Options and stored rows are checked against it.
    public static let tapTimeouts: ClosedRange<Double> = 0.1...3600

    /// What a stored session may hold: anything earlier versions accepted that keeps the
    /// clock arithmetic in range. New sessions take `tapTimeouts`.
    public static let storedTapTimeouts: ClosedRange<Double> = 0.001...86_400

    /// Taps per position a session may ask for.
    public static let repeatCounts: ClosedRange<Int> = 1...10

    public var isVoid: Bool { voidReason != nil }

    /// The backend the reader spec names.
    public var readerBackend: ReaderBackend { reader.backend }
}
