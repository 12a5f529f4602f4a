import Foundation
import NFCBenchRecords
import NFCBenchStoreSQLite
import NFCLocatorCore
import NFCPhysics
import NFCReaders

/// A bench database of real-reader sessions (not simulated) whose taps come from the
/// physics of two loops around a coil the test knows: what a lab's gantry raster on a
/// Galaxy S24 (70.6 x 147 mm, the seed catalog's published body) would record, with a
/// hand's 1.5 mm of placement spread, each read graded as `run --coupling` grades it. The published coil is then checked against the truth.
struct BenchEvidenceFixture {
    /// The coil the phone carries: 40 x 30 mm, its centre 35.3 mm from the left and 45 mm
    /// from the top of the back.
    static let coil = RectangularLoop(centreX: 35.3, centreY: 45, widthMm: 40, heightMm: 30, turns: 4, pitchMm: 0.6)
    static let bodyWidth = 70.6, bodyHeight = 147.0

    struct Bench {
        let unit: String
        let antennaMm: Double
        /// How far below `coil` this unit's coil sits, mm: a unit that is not the model the
        /// session names (a variant with another board, a mislabelled phone).
        var coilLowerByMm = 0.0
    }

    /// Writes one completed session per bench, and returns their ids.
    @discardableResult
    static func record(
        _ benches: [Bench], into path: String, model: String = "SM-S921B", simulated: Bool = false, idPrefix: String = "B",
        start: Date = Date(timeIntervalSince1970: 1_790_000_000), seed: UInt64 = 7
    ) async throws -> [String] {
        let store = try await SQLiteBenchStore.open(path: path)
        var generator = SplitMix(seed)
        var ids: [String] = []
        for (n, bench) in benches.enumerated() {
            let id = "\(idPrefix)\(n)-\(bench.unit)"
            let started = start.addingTimeInterval(Double(n) * 3600)
            let predicted = try NormalizedRect(x: 0.1, y: 0.36, width: 0.8, height: 0.38)
            var session = SessionRecord(
                id: id, modelInput: model, lookupKey: "sm_s921b", displayName: "Galaxy S24", predicted: predicted,
                confidence: .approximate, source: .seedCatalog, stale: false, catalogVersion: "seed-2026.11.1",
                aspectRatio: 0.4803, reader: .sim, readerFirmware: "PN532 v1.6", unit: bench.unit, operatorName: "Ana",
                plan: .raster, repeats: 1, tapTimeout: 2, startedAt: started, bodyHeightMm: bodyHeight, simulated: simulated)
            session.readerGeometry = ReaderGeometry(
                antennaWidthMm: bench.antennaMm, antennaHeightMm: bench.antennaMm, gapMm: 3, source: "option")
            try await store.insert(session)
            let physics = BenchPhysics(
                reader: ReaderAntenna(widthMm: bench.antennaMm, heightMm: bench.antennaMm),
                coil: coil.moved(dx: 0, dy: bench.coilLowerByMm), gapMm: 3,
                readHeightMm: 18)
            var step = 0
            for row in 0..<21 {
                for column in 0..<10 {
                    let x = 3.5 + 7 * Double(column), y = 3.5 + 7 * Double(row)
                    let placedX = x + 1.5 * generator.gaussian(), placedY = y + 1.5 * generator.gaussian()
                    let hit = physics.answers(strength: 1, readerAtX: placedX, y: placedY)
                    // Graded as `run --coupling` grades: by the weakest rung that still reads.
                    let ladder = CouplingLadder.standard
                    let weakest = ladder.profiles.indices.first {
                        physics.answers(strength: 1 - ladder.profiles[$0].threshold, readerAtX: placedX, y: placedY)
                    }
                    let coupling = hit ? weakest.map { ladder.coupling(weakestRead: $0) } : nil
                    let probe = Probe(x: x / bodyWidth, y: y / bodyHeight)
                    try await store.record(
                        TapRecord(
                            sessionID: id, step: step, attempt: 0, probe: probe,
                            insidePredicted: predicted.contains(x: probe.x, y: probe.y), result: hit ? .hit : .miss,
                            latencyMs: hit ? 40 : nil, technology: hit ? "ISO14443A" : nil, uid: hit ? "08A1B2C3" : nil,
                            timestamp: started.addingTimeInterval(2.5 * Double(step + 1)), coupling: coupling,
                            couplingTried: coupling == nil ? nil : "fixture", couplingLadder: coupling == nil ? nil : ladder.name)
                    )
                    step += 1
                }
            }
            try await store.finish(
                id, status: .completed, at: started.addingTimeInterval(600), verdict: .shifted, verdictReason: "fixture",
                measured: nil, iou: nil)
            ids.append(id)
        }
        return ids
    }

    /// A small deterministic generator, so a failing run can be repeated exactly.
    struct SplitMix {
        var state: UInt64
        init(_ seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func uniform() -> Double { Double(next() >> 11) / Double(1 << 53) }
        mutating func gaussian() -> Double {
            sqrt(-2 * log(max(uniform(), 1e-300))) * cos(2 * .pi * uniform())
        }
    }
}
