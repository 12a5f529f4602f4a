import Foundation
import NFCBench
import NFCBenchRecords
import NFCBenchStoreSQLite
import NFCLocatorCore
import NFCReaders
import NFCTestSupport
import Testing

@Suite("Foreign responders")
struct ForeignResponderTests {
    let scratch: TemporaryDirectory
    let clock = VirtualBenchClock()
    init() throws { scratch = try TemporaryDirectory("foreign") }

    /// A MIFARE Classic card in the case behind the lower part of the back: every answer
    /// there is FOREIGN, never a HIT; an unattended run stops after three in a row, saved.
    /// With the card taken out, the resumed session completes on the phone's own reads.
    @Test func aCardInTheCaseIsForeignAndThePhonesOwnReadsStillCount() async throws {
        let predicted = try NormalizedRect(x: 0.1, y: 0.36, width: 0.8, height: 0.38)
        let store = try await SQLiteBenchStore.open(path: scratch.file("bench.sqlite"))
        let bench = PhoneOnBench(
            phone: SimulatedPhone(antenna: (0.1, 0.36, 0.8, 0.38), aspectRatio: 0.4803, missRate: 0), seed: 5, clock: clock)
        bench.setStrayCard(StrayCard(kind: .mifareClassic, region: (0, 0.62, 1, 0.38), uid: [0x5A, 0x1B, 0x2C, 0x3D]))
        let record = testSession("S-card", predicted: predicted)
        try await store.insert(record)
        let run = GuidedRun(
            session: record, strategy: GridPlan(around: predicted), reader: SimulatedReader(bench: bench),
            positioner: SimulatedPositioner(bench: bench), store: store)
        let stop = await #expect(throws: ForeignRespondersKeptAnswering.self) { try await run.run { _ in } }
        #expect(stop?.description.contains("a MIFARE Classic 1K card (UID 5A1B2C3D)") == true, "\(String(describing: stop))")
        let taps = try await store.taps("S-card")
        let foreign = taps.filter { $0.result == .foreign }
        #expect(foreign.count == GuidedRun.foreignInARowLimit && Set(foreign.map(\.step)).count == 1)
        #expect(foreign.allSatisfy { $0.uid == "5A1B2C3D" && $0.sak == "08" })
        // Never a HIT from the card, and the phone's answers before it were HITs.
        #expect(!taps.contains { $0.result == .hit && $0.uid == "5A1B2C3D" })
        #expect(taps.contains { $0.result == .hit })
        #expect(try await store.session("S-card")?.status == .inProgress)
        #expect(try await store.events("S-card").filter { $0.kind == .foreign }.count == foreign.count)

        bench.setStrayCard(nil)
        let resumed = GuidedRun(
            session: record, strategy: GridPlan(around: predicted), reader: SimulatedReader(bench: bench),
            positioner: SimulatedPositioner(bench: bench), store: store)
        let score = try #require(try await resumed.run { _ in })
        #expect(score.verdict == .confirmed, "\(score.reason)")
        let all = try await store.taps("S-card")
        // FOREIGN answers are no taps: the score counts one per position.
        #expect(score.taps == GridPlan(around: predicted).order.count)
        #expect(all.filter { $0.result == .foreign }.count == foreign.count)
        let kinds = try await store.events("S-card").map(\.kind)
        #expect(kinds.first == .started && kinds.contains(.resumed) && kinds.last == .finished)
    }

    @Test func signaturesLearnedFromThePhone() throws {
        let record = testSession("S-sig", predicted: try NormalizedRect(x: 0.1, y: 0.36, width: 0.8, height: 0.38))
        func target(_ uid: [UInt8], sak: UInt8 = 0x20, technology: TargetTechnology = .iso14443A) -> DetectedTarget {
            DetectedTarget(
                technology: technology, uid: uid, atqa: [0x00, 0x04], sak: sak, ats: [0x78], latency: .zero, reader: "r")
        }
        func tap(_ t: DetectedTarget) -> TapRecord {
            TapRecord(
                sessionID: "S-sig", step: 0, attempt: 0, probe: Probe(x: 0.5, y: 0.5), insidePredicted: true, result: .hit,
                technology: t.technology.rawValue, uid: Hex.string(t.uid), sak: Hex.string([t.sak ?? 0]),
                timestamp: Date())
        }
        var random = PhoneSignature(session: record, taps: [])
        // Before anything is learned: only ISO-DEP is asked for.
        #expect(random.fit(target([0x5A, 1, 2, 3], sak: 0x08)) != .phone)
        #expect(random.fit(target([0x5A, 1, 2, 3], sak: 0x28)) == .phone)
        random.learn(from: tap(target([0x08, 1, 2, 3])))
        #expect(random.fit(target([0x08, 9, 9, 9])) == .phone)
        #expect(random.fit(target([0x5A, 1, 2, 3], sak: 0x28)) != .phone)  // fixed UID after random ones
        #expect(random.fit(target([0x08, 9, 9, 9], technology: .iso14443B)) != .phone)
        var fixed = PhoneSignature(session: record, taps: [tap(target([0x04, 1, 2, 3, 4, 5, 6]))])
        #expect(fixed.fit(target([0x04, 1, 2, 3, 4, 5, 6])) == .phone)
        #expect(fixed.fit(target([0x04, 1, 2, 3, 4, 5, 7])) != .phone)
        fixed.learn(from: tap(target([0x08, 1, 2, 3])))  // already learned: unchanged
        #expect(fixed.fixedUID == [0x04, 1, 2, 3, 4, 5, 6])
        var tag = record
        tag.mode = .tag
        #expect(PhoneSignature(session: tag, taps: []).fit(target([0x5A, 1, 2, 3], sak: 0x08)) == .phone)
    }
}
