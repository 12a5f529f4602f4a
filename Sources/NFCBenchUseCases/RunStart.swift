import Foundation
import NFCBench
import NFCBenchRecords
import NFCBenchSeams
import NFCLocatorCore
import NFCPhysics
import NFCReaders

/// A run ready to go: its session in the store, its reader open, its positioner built.
public struct PreparedRun: Sendable {
    public let session: SessionRecord
    /// A new session's resolution; `nil` when resumed (the session stored its prediction).
    public let resolution: AntennaResolution?
    public let isResumed: Bool
    public let readers: ReaderHolder
    public let positioner: any Positioner
    /// What a person must be told before the first position (tag mode on a limited reader).
    public let warnings: [String]
    /// A resumed session's tap window, when the request changed it: (before, after) seconds.
    public let tapWindowChange: (from: Double, to: Double)?
    /// Who moves the phone, as the operator named it (`manual`, `exec:...`): the audit
    /// trail records it at every start and resume.
    public let positionerName: String
    /// `--coupling`: the ladder each HIT is graded down.
    public var coupling: CouplingLadder? = nil
    /// A new machine session without `--tap-timeout`: the rig's window it took (seconds),
    /// said before the first position.
    public var tapWindowFromRig: Double? = nil
}

/// Starts a new session or resumes a saved one. Every rule that needs no reader is checked
/// first; the reader opens only then, and closes on every way out of `body`.
public enum RunStart {
    public static func prepare<Result: Sendable>(
        _ request: RunRequest, store: any BenchStoring, readerClosed: @Sendable ([String]) -> Void = { _ in },
        _ body: (PreparedRun) async throws -> Result
    ) async throws -> Result {
        let saved = try await resumable(request, store: store)
        var readerSpec = request.reader ?? saved?.reader
        if readerSpec == nil { readerSpec = try await ReaderInventory.onlyReader(environment: request.environment) }
        let positioner = request.positioner ?? Positioners.defaultChoice(for: readerSpec)
        if request.unattended && positioner.needsOperator { throw RunRefusal.unattendedNeedsMachine }
        let phone = simulatedPhone(request, saved: saved)
        let selection = ReaderSelection(environment: request.environment, feedback: request.readerFeedback)
        let reader = try await selection.open(readerSpec, simBench: phone)
        // A reader unplugged mid-run is reopened with the spec it was opened with.
        let openedSpec = try? ReaderSpec(recorded: reader.info.spec)
        let readers = ReaderHolder(reader) { () throws(ReaderError) in try await selection.open(openedSpec, simBench: phone) }
        return try await ReaderScope.using(readers, closed: readerClosed) { readers in
            let reader = readers.current
            let mode = saved?.mode ?? request.mode ?? .card
            let warnings = try TagModeReadiness.check(reader, mode: mode)
            if request.coupling == true { try couplingAllowed(mode: mode, reader: reader) }
            let readerGrades = (try? couplingAllowed(mode: mode, reader: reader)) != nil
            // Validate, then write: every refusal comes before the first change to the store,
            // so a refused start or resume leaves the database as it was.
            var change: (from: Double, to: Double)?
            var session: SessionRecord
            if let saved {
                session = saved
                session.readerFirmware = reader.info.firmware
                if let seconds = request.tapTimeout, seconds != saved.tapTimeout {
                    change = (saved.tapTimeout, seconds)
                    session.tapTimeout = seconds
                }
            } else {
                guard let openedSpec else { throw RunRefusal.readerSpecUnreadable(reader.info.spec) }
                session = try await newSession(
                    request, reader: reader, spec: openedSpec, canGrade: request.coupling != false && readerGrades, store: store)
            }
            if session.plan == .coil, PlanPhysics(session) == nil {
                throw RunRefusal.coilPlanNeedsGeometry(
                    reader: reader.info.name, antennaKnown: session.readerGeometry != nil,
                    bodyKnown: session.bodyHeightMm != nil)
            }
            let graded = request.coupling ?? (session.plan == .coil && readerGrades)
            var setup = PositionerBackend.Setup(
                reader: reader.info, readerSwitchesField: reader.capabilities.fieldSwitch != nil, phone: phone,
                virtualBenchDirectory: request.virtualBenchDirectory,
                timeout: request.positionerTimeout, session: session, rig: request.rig)
            setup.notice = request.notice
            let built = try await positioner.backend.build(positioner.argument, setup)
            if !built.placesAtHeights, session.plannedProbes.contains(where: { !$0.isAtTapHeight }) {
                throw RunRefusal.heightsNeedMachine(positioner: positioner.description)
            }
            if let change {
                try await store.setTapTimeout(session.id, seconds: change.to)
                try await store.record(
                    SessionEvent(
                        sessionID: session.id, kind: .tapWindowChanged,
                        details: ["from": FixedPoint.format(change.from, 3), "to": FixedPoint.format(change.to, 3)]))
            }
            if saved == nil { try await store.insert(session) }
            return try await body(
                PreparedRun(
                    session: session, resolution: request.resolution, isResumed: saved != nil, readers: readers,
                    positioner: built, warnings: warnings, tapWindowChange: change,
                    positionerName: positioner.description, coupling: graded ? .standard : nil,
                    tapWindowFromRig: saved == nil && request.tapTimeout == nil
                        ? request.rig?.configuration.defaultTapWindow : nil))
        }
    }

    /// The saved session a resume names, if every resume rule allows it; `nil` for a new session.
    static func resumable(_ request: RunRequest, store: any BenchStoring) async throws -> SessionRecord? {
        guard case .resume(let id) = request.subject else { return nil }
        guard let found = try await store.session(id) else { throw RunRefusal.noSuchSession(id: id) }
        guard found.status == .inProgress else { throw RunRefusal.notResumable(id: id, status: found.status) }
        guard !found.isVoid else { throw RunRefusal.voidSession(id: id, reason: found.voidReason ?? "") }
        guard request.givenFixedSettings.isEmpty else {
            throw RunRefusal.fixedOnResume(id: id, settings: request.givenFixedSettings)
        }
        if let asked = request.mode, asked != found.mode { throw RunRefusal.modeFixedOnResume(id: id, mode: found.mode) }
        return found
    }

    /// `--coupling` grades a phone's answer to the reader's weakened field: card mode, and a
    /// reader whose analog settings can be changed.
    static func couplingAllowed(mode: TapMode, reader: any Reader) throws {
        if mode != .card {
            throw RunRefusal.couplingUnsupported(reason: "it grades a phone's answer to the reader, so it needs card mode")
        }
        if reader.capabilities.analogProfile == nil {
            throw RunRefusal.couplingUnsupported(
                reason: "reader '\(reader.info.name)' cannot weaken its field "
                    + "(it needs a PN53x through libnfc, or an ACR122U through PC/SC)")
        }
    }

    /// A new session as the resolution predicts it. The model's earlier sessions are read
    /// once: their number is the grid pass this session takes (consecutive grid sessions
    /// interleave, `GridPlan`), their taps the focus of a plan that learns one.
    static func newSession(
        _ request: RunRequest, reader: any Reader, spec: ReaderSpec, canGrade: Bool, store: any BenchStoring
    ) async throws -> SessionRecord {
        guard case .model(let model, let resolution, let resolver) = request.subject else {
            preconditionFailure("a new session starts from a resolved model")
        }
        let geometry = ReaderAntennaProfile.geometry(
            antenna: request.readerAntenna, gapMm: request.gapMm,
            profile: ReaderAntennaProfile.matching(spec: spec, name: reader.info.name))
        let kind =
            request.plan ?? defaultPlan(geometry: geometry, bodyHeightMm: resolution.profile?.bodyHeightMm, canGrade: canGrade)
        let planned = try await RunPlanning.plan(
            model: model, kind: kind, zone: resolution.zone, aspectRatio: resolution.profile?.aspectRatio ?? 0.48,
            resolver: resolver, store: store, includeSimulated: request.includeSimulated,
            raster: RasterRequest(stepMm: request.rasterStepMm, bodyHeightMm: resolution.profile?.bodyHeightMm))
        var session = SessionRecord(
            id: SessionIdentifier.make(), model: model, resolution: resolution, plan: kind,
            planPass: planned.pass, planFocus: planned.focus, reader: spec, readerFirmware: reader.info.firmware,
            simulated: reader.info.isSimulated, unit: request.unit, operatorName: request.operatorName,
            repeats: request.repeats, tapTimeout: request.tapTimeout ?? request.rig?.configuration.defaultTapWindow ?? 5,
            startedAt: Date(),
            strategy: request.heights.count > 1
                ? HeightLayers(base: planned.strategy, heights: request.heights)
                : kind == .raster ? planned.strategy : nil)
        session.station = request.station
        session.mode = request.mode ?? .card
        session.modelTyped = request.modelTyped
        session.phone = request.phone
        session.conditions = request.conditions
        session.readerSerial = reader.info.serial
        session.readerGeometry = geometry
        // The coil plan chooses by the reader's antenna, known only now: the session stores
        // its first position, not the one the plan without its physics would have taken.
        if session.plan == .coil, PlanPhysics(session) != nil {
            session.plannedProbes = session.strategy.storedProbes(for: session.predicted)
        }
        return session
    }

    /// The plan a run takes when the operator names none: the coil plan where it measures
    /// the coil well, that is where the session records both its reader's antenna and the
    /// phone's body (`PlanPhysics`) and the reader can grade each read (card mode, a field
    /// it can weaken, no `--no-coupling`); else the adaptive plan, which needs none of them.
    /// On binary taps alone the coil plan's likelihood can have two hills (docs/physics.md):
    /// seen in tag mode, a 56 x 56 mm coil fitted 12 mm tall.
    static func defaultPlan(geometry: ReaderGeometry?, bodyHeightMm: Double?, canGrade: Bool) -> PlanKind {
        canGrade && geometry != nil && bodyHeightMm.map { $0 > 0 && $0.isFinite } == true ? .coil : .adaptive
    }

    /// The simulated phone behind the `sim` reader: its antenna is the one asked for, else
    /// the predicted zone, else a broad default.
    static func simulatedPhone(_ request: RunRequest, saved: SessionRecord?) -> PhoneOnBench {
        let predicted = saved?.predicted ?? request.resolution?.zone
        let aspectRatio = saved?.aspectRatio ?? request.resolution?.profile?.aspectRatio ?? 0.48
        let antenna =
            request.simulatedPhone.antenna
            ?? predicted.map { ($0.x, $0.y, $0.width, $0.height) } ?? (0.1, 0.1, 0.8, 0.4)
        var phone = SimulatedPhone(antenna: antenna, aspectRatio: aspectRatio)
        // With its reader's antenna known, the simulated phone couples as two loops do
        // (docs/physics.md); without it, by the linear model, which has no reader to size.
        let geometry =
            saved?.readerGeometry
            ?? ReaderAntennaProfile.geometry(antenna: request.readerAntenna, gapMm: request.gapMm, profile: nil)
        if let geometry, let bodyHeight = saved?.bodyHeightMm ?? request.resolution?.profile?.bodyHeightMm {
            phone.couplingModel = .mutualInductance(
                PhysicalBench(
                    reader: ReaderAntenna(widthMm: geometry.antennaWidthMm, heightMm: geometry.antennaHeightMm),
                    bodyHeightMm: bodyHeight, gapMm: geometry.gapMm))
        }
        // The simulated phone is of the model's platform: an iPhone's Wallet does not answer
        // Android's HCE SELECT.
        let key = saved?.lookupKey ?? request.resolution?.lookupKey ?? ""
        phone.answersAndroidHCE = PhonePlatform(modelIdentifier: key) != .iOS
        return PhoneOnBench(phone: phone, seed: request.simulatedPhone.seed)
    }
}

extension RunRequest {
    var resolution: AntennaResolution? {
        if case .model(_, let resolution, _) = subject { return resolution }
        return nil
    }
}

/// `S-20261129-161633-4f2a`: sortable, and unique enough for one lab. Always 22
/// characters: the random part keeps its leading zeros (`-01e1`, not `-1e1`), so ids line
/// up in listings and on filed reports.
public enum SessionIdentifier {
    public static func make(now: Date = Date(), suffix: UInt16 = .random(in: 0...UInt16.max)) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "yyyyMMdd-HHmmss"
        let hex = String(suffix, radix: 16)
        return "S-\(f.string(from: now))-" + String(repeating: "0", count: 4 - hex.count) + hex
    }
}
