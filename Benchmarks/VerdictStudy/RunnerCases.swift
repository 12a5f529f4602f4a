import Foundation
import NFCBench
import NFCBenchRecords
import NFCBenchSeams
import NFCBenchStoreSQLite
import NFCLocatorCore
import NFCReaders
import Synchronization

/// The verdict study's runner cases: whole sessions through `GuidedRun` (the evidence
/// rules themselves, not a model of them) on the simulated reader in virtual time.
///
/// - Slow hand: a manual run whose operator places the phone 0–4 s after each prompt and
///   confirms it a moment later. Counted: MISSes recorded while the phone was not in place
///   (target 0), and the verdicts (truth = prediction: CONFIRMED >= 98%, never NO_FIELD).
/// - Stray card: a MIFARE Classic card in the case over a random fifth of the back, an
///   unattended run. Counted: HITs whose responder was the card (target 0), and how the
///   sessions ended (completed, or stopped saying to remove the card).
enum RunnerCases {
    struct Tally {
        var sessions = 0
        var verdicts: [SessionVerdict: Int] = [:]
        var missesBeforePlacement = 0
        var misses = 0
        var hitsFromForeign = 0
        var foreign = 0
        var stoppedForForeign = 0
        /// Why sessions were not CONFIRMED, per plan.
        var reasons: [String: Int] = [:]
    }

    /// What the scripted operator did, read by the test of each MISS.
    final class Operator: Sendable {
        let bench: PhoneOnBench
        let clock: VirtualBenchClock
        let keys: AsyncStream<OperatorCommand>.Continuation
        /// How far a placement lands from the position asked for, per axis, in fractions of
        /// the back's width and height (a hand's 1.5 mm in the physical world; 0 in the toy's).
        let spread: (x: Double, y: Double)
        /// `position`: counts prompts, so a hand still on its way for one position never
        /// confirms the next (an operator who saw "HIT, lift" does not press Enter).
        private let state = Mutex<(probe: Probe?, placed: Bool, position: Int, delays: SeededGenerator)>(
            (nil, false, 0, SeededGenerator(seed: 7)))

        init(
            bench: PhoneOnBench, clock: VirtualBenchClock, keys: AsyncStream<OperatorCommand>.Continuation, seed: UInt64,
            spread: (x: Double, y: Double) = (0, 0)
        ) {
            self.bench = bench
            self.spread = spread
            self.clock = clock
            self.keys = keys
            state.withLock { $0.delays = SeededGenerator(seed: seed) }
        }

        var placed: Bool { state.withLock { $0.placed } }

        func handle(_ event: RunEvent) {
            switch event {
            case .readyCheck: keys.yield(.proceed)
            case .position(_, _, let probe, _): state.withLock { $0.probe = probe }
            case .awaitingPlacement:
                // The hand takes 0–4 s to place the phone, then confirms 0.1–0.5 s later.
                let (probe, delay, confirm, position, off) = state.withLock { s in
                    s.position += 1
                    return (
                        s.probe, Double.random(in: 0...4, using: &s.delays), Double.random(in: 0.1...0.5, using: &s.delays),
                        s.position, (PhysicalWorld.normal(&s.delays) * spread.x, PhysicalWorld.normal(&s.delays) * spread.y)
                    )
                }
                guard let probe else { return }
                let start = clock.now
                Task { [self] in
                    while clock.now - start < .milliseconds(Int64(delay * 1000)) { await Task.yield() }
                    guard state.withLock({ $0.position == position }) else { return }
                    bench.place(x: min(max(probe.x + off.0, 0), 1), y: min(max(probe.y + off.1, 0), 1))
                    state.withLock { $0.placed = true }
                    // The hand's own wait moves the clock: once the phone answered while being
                    // placed, the run waits for the key alone and polls nothing.
                    try? await clock.sleep(for: .milliseconds(Int64(confirm * 1000)))
                    // Already answered (HIT, lift): nothing to confirm.
                    guard state.withLock({ $0.position == position && $0.placed }) else { return }
                    keys.yield(.proceed)
                }
            case .tap, .waitingForLift:
                bench.lift()
                state.withLock { $0.placed = false }
            default: break
            }
        }
    }

    /// `world`: the physical world's bench (the session records its reader, a coil plan
    /// grades); `nil`: the toy model.
    static func slowHand(
        profile: DeviceAntennaProfile, coil: (Double, Double, Double, Double), plan: PlanKind, seed: Int,
        store: SQLiteBenchStore, tally: Tally, world: PhysicalWorld.Bench? = nil
    ) async throws -> Tally {
        var tally = tally
        let clock = VirtualBenchClock()
        let bench = PhoneOnBench(
            phone: world?.phone(profile, coil: coil) ?? phone(profile, coil: coil), seed: UInt64(seed), clock: clock)
        let (stream, keys) = AsyncStream<OperatorCommand>.makeStream()
        let spread =
            world == nil ? (x: 0.0, y: 0.0) : (1.5 / (profile.bodyHeightMm! * profile.aspectRatio), 1.5 / profile.bodyHeightMm!)
        let hand = Operator(bench: bench, clock: clock, keys: keys, seed: UInt64(seed) &* 31 &+ 1, spread: spread)
        let session = record(
            "S-slow-\(coil.1)-\(profile.lookupKey)-\(plan.rawValue)-\(seed)", profile: profile, plan: plan, pass: seed % 3,
            world: world)
        try await store.insert(session)
        let wrongMisses = Mutex(0)
        var run = GuidedRun(
            session: session, strategy: session.strategy, reader: SimulatedReader(bench: bench),
            positioner: ManualPositioner(), store: store)
        run.minimumPlacementTime = .zero  // the hand's times are virtual
        if plan == .coil { run.coupling = .standard }  // as `run` grades the coil plan where the reader can
        let score = try await run.run(commands: stream) { event in
            if case .tap(let t) = event, t.result == .miss, !hand.placed { wrongMisses.withLock { $0 += 1 } }
            hand.handle(event)
        }
        keys.finish()
        tally.sessions += 1
        if let score {
            tally.verdicts[score.verdict, default: 0] += 1
            if score.verdict != .confirmed { tally.reasons["\(plan.rawValue): \(score.reason)", default: 0] += 1 }
        }
        let taps = try await store.taps(session.id)
        tally.misses += taps.filter { $0.result == .miss }.count
        tally.missesBeforePlacement += wrongMisses.withLock { $0 }
        return tally
    }

    static func strayCard(
        profile: DeviceAntennaProfile, plan: PlanKind, seed: Int, store: SQLiteBenchStore, tally: Tally,
        world: PhysicalWorld.Bench? = nil
    ) async throws -> Tally {
        var tally = tally
        var generator = SeededGenerator(seed: UInt64(seed) &+ 99)
        let clock = VirtualBenchClock()
        let coil = rect(profile.zone)
        let bench = PhoneOnBench(
            phone: world?.phone(profile, coil: coil) ?? phone(profile, coil: coil), seed: UInt64(seed), clock: clock)
        let w = 0.45, h = 0.45
        let card = StrayCard(
            kind: .mifareClassic,
            region: (Double.random(in: 0...(1 - w), using: &generator), Double.random(in: 0...(1 - h), using: &generator), w, h),
            uid: [0x5A, 0x1B, 0x2C, 0x3D])
        bench.setStrayCard(card)
        let session = record(
            "S-card-\(profile.lookupKey)-\(plan.rawValue)-\(seed)", profile: profile, plan: plan, pass: seed % 3, world: world)
        try await store.insert(session)
        var run = GuidedRun(
            session: session, strategy: session.strategy, reader: SimulatedReader(bench: bench),
            positioner: SimulatedPositioner(bench: bench), store: store)
        if plan == .coil { run.coupling = .standard }
        tally.sessions += 1
        do {
            if let score = try await run.run(events: { _ in }) { tally.verdicts[score.verdict, default: 0] += 1 }
        } catch is ForeignRespondersKeptAnswering {
            tally.stoppedForForeign += 1
        }
        let taps = try await store.taps(session.id)
        tally.hitsFromForeign += taps.filter { $0.result == .hit && $0.uid == "5A1B2C3D" }.count
        tally.foreign += taps.filter { $0.result == .foreign }.count
        return tally
    }

    /// The simulated phone of the profile's platform: an iPhone does not answer Android's HCE SELECT.
    static func phone(_ profile: DeviceAntennaProfile, coil: (Double, Double, Double, Double)) -> SimulatedPhone {
        var phone = SimulatedPhone(antenna: coil, aspectRatio: profile.aspectRatio)
        phone.answersAndroidHCE = PhonePlatform(modelIdentifier: profile.lookupKey) != .iOS
        return phone
    }

    static func rect(_ z: NormalizedRect) -> (Double, Double, Double, Double) { (z.x, z.y, z.width, z.height) }

    static func record(
        _ id: String, profile: DeviceAntennaProfile, plan: PlanKind, pass: Int, world: PhysicalWorld.Bench? = nil
    ) -> SessionRecord {
        SessionRecord(
            id: id, modelInput: profile.modelIdentifier, lookupKey: profile.lookupKey, displayName: profile.displayName,
            predicted: profile.zone, confidence: .approximate, source: .seedCatalog, stale: false, catalogVersion: "study",
            aspectRatio: profile.aspectRatio, reader: .sim, readerFirmware: "nfcbench-sim", unit: nil, operatorName: "study",
            plan: plan, planPass: pass, repeats: 1, tapTimeout: 1, startedAt: Date(timeIntervalSince1970: 1_790_000_000),
            bodyHeightMm: world == nil ? nil : profile.bodyHeightMm, readerGeometry: world?.geometry)
    }
}
