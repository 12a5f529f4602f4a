import Foundation
import NFCBench
import NFCBenchRecords
import NFCBenchStoreSQLite
import NFCLocatorCore

/// A fixed session for the report tests and their golden files: a Galaxy S24 predicted at
/// its catalog zone whose (simulated) antenna sits about a sixth of the height lower, tapped on the
/// grid plan with one position skipped. Every value, time included, is fixed.
enum ReportFixture {
    static let predicted = try! NormalizedRect(x: 0.1, y: 0.36, width: 0.8, height: 0.38)
    static let antenna = try! NormalizedRect(x: 0.15, y: 0.56, width: 0.7, height: 0.3)
    static let start = Date(timeIntervalSince1970: 1_790_000_000)
    static let generatedAt = Date(timeIntervalSince1970: 1_790_003_600)
    /// A fixed zone, not the machine's, so the golden files hold one offset everywhere.
    static let options = ReportOptions(
        toolVersion: "0.1.0", generatedAt: generatedAt, storeLocation: "bench.sqlite",
        clock: .fromEnvironment(["TZ": "Europe/Berlin"]), reviewer: "R. Reviewer")

    static func session(id: String = "S-20260921-141320-fix1", simulated: Bool = true, void: String? = nil) -> SessionRecord {
        SessionRecord(
            id: id, modelInput: "SM-S921B", lookupKey: "sm_s921b", displayName: "Galaxy S24", predicted: predicted,
            confidence: .approximate, source: .seedCatalog, stale: true, catalogVersion: "seed-2026-11",
            aspectRatio: 0.4803, reader: .sim, readerFirmware: "nfcbench-sim", unit: "unit-7", operatorName: "Ana",
            plan: .grid, repeats: 1, tapTimeout: 2, status: .inProgress, startedAt: start, bodyHeightMm: 147,
            simulated: simulated, voidReason: void, readerSerial: "RR174-002117",
            readerGeometry: ReaderGeometry(
                antennaWidthMm: 46, antennaHeightMm: 64, gapMm: 3,
                source: "acr122u: antenna from ACS's ACR122L specification (inferred for the ACR122U), gap inferred"))
    }

    /// Stores the session and its taps, finishes it with the score the taps give, and
    /// returns it as stored.
    static func store(_ session: SessionRecord, in store: SQLiteBenchStore) async throws -> SessionRecord {
        try await store.insert(session)
        let plan = ProbePlans.make(.grid, around: predicted, aspectRatio: session.aspectRatio)
        let probes = plan.expectedProbes(for: antenna)
        for (step, probe) in probes.enumerated() {
            let hit = antenna.contains(x: probe.x, y: probe.y)
            let result: TapRecord.Result = step == 4 ? .skipped : hit ? .hit : .miss
            try await store.record(
                TapRecord(
                    sessionID: session.id, step: step, attempt: 0, probe: probe,
                    insidePredicted: predicted.contains(x: probe.x, y: probe.y), result: result,
                    latencyMs: result == .hit ? 40 + Double(step) : nil, technology: result == .hit ? "ISO14443A" : nil,
                    uid: result == .hit ? "08A1B2C\(step % 10)" : nil, timestamp: start.addingTimeInterval(2.5 * Double(step + 1))
                ))
        }
        let report = ReportedSession(session, taps: try await store.taps(session.id))
        try await store.finish(
            session.id, status: .completed, at: start.addingTimeInterval(2.5 * Double(probes.count + 1)),
            verdict: report.score.verdict, verdictReason: report.score.reason, measured: report.score.measured,
            iou: report.score.iou)
        return try await store.session(session.id)!
    }
}
