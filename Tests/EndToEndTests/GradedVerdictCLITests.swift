import Foundation
import NFCBenchRecords
import NFCBenchStoreSQLite
import NFCLocatorCore
import NFCTestSupport
import Testing

/// A graded session's verdict through the reports a lab files: the same HITs and MISSes
/// are CONFIRMED ungraded, and SHIFTED once the grades show the field strongest outside
/// the predicted zone (docs/coupling.md, "The verdict").
@Suite("Graded verdict through the CLI")
struct GradedVerdictCLITests {
    let scratch: TemporaryDirectory
    init() throws { scratch = try TemporaryDirectory("graded-verdict") }

    static let predicted = try! NormalizedRect(x: 0.1, y: 0.36, width: 0.8, height: 0.38)
    static let start = Date(timeIntervalSince1970: 1_790_000_000)

    /// The S24 grid's positions with what they read: the middle rows and the middle of
    /// the row just above the zone. Grades, when given, are weak inside and strong there.
    static let taps: [(x: Double, y: Double, hit: Bool, grade: Double?)] = [
        (0.5, 0.55, true, 0.1), (0.3, 0.55, true, 0), (0.7, 0.55, true, 0), (0.5, 0.5, true, 0.1),
        (0.5, 0.7, true, 0), (0.167, 0.5, true, 0), (0.833, 0.5, true, 0),
        (0.5, 0.3, true, 0.6), (0.167, 0.3, false, nil), (0.833, 0.3, false, nil),
        (0.5, 0.9, false, nil), (0.167, 0.9, false, nil), (0.5, 0.1, false, nil),
    ]

    func store(graded: Bool) async throws -> (db: String, id: String) {
        let db = scratch.database()
        let store = try await SQLiteBenchStore.open(path: db)
        let id = graded ? "S-20260921-141320-grd1" : "S-20260921-141320-bin1"
        try await store.insert(
            SessionRecord(
                id: id, modelInput: "SM-S921B", lookupKey: "sm_s921b", displayName: "Galaxy S24",
                predicted: Self.predicted, confidence: .approximate, source: .seedCatalog, stale: false,
                catalogVersion: nil, aspectRatio: 0.4803, reader: .libnfc(connstring: "pn532_uart:/dev/ttyUSB0"),
                readerFirmware: "PN532 v1.6", unit: "unit-1", operatorName: "Ana", plan: .grid, repeats: 1, tapTimeout: 2,
                startedAt: Self.start, bodyHeightMm: 147))
        for (step, tap) in Self.taps.enumerated() {
            try await store.record(
                TapRecord(
                    sessionID: id, step: step, attempt: 0, probe: Probe(x: tap.x, y: tap.y),
                    insidePredicted: Self.predicted.contains(x: tap.x, y: tap.y), result: tap.hit ? .hit : .miss,
                    latencyMs: tap.hit ? 40 : nil, technology: tap.hit ? "ISO14443A" : nil, uid: tap.hit ? "08A1B2C3" : nil,
                    timestamp: Self.start.addingTimeInterval(3 * Double(step + 1)),
                    coupling: graded ? tap.grade : nil, couplingTried: graded && tap.hit ? "default read" : nil,
                    couplingLadder: graded && tap.hit ? "pn53x-11" : nil))
        }
        try await store.finish(
            id, status: .completed, at: Self.start.addingTimeInterval(60), verdict: nil, verdictReason: nil, measured: nil,
            iou: nil)
        return (db, id)
    }

    @Test func theSameTapsAreConfirmedUngradedAndShiftedGraded() async throws {
        for graded in [false, true] {
            let (db, id) = try await store(graded: graded)
            let junit = scratch.file("junit-\(graded).xml")
            let r = try await BuiltBinary.run(["report", "--session", id, "--format", "junit", "--db", db, "-o", junit])
            #expect(r.status == 0, "\(r.stderr)")
            let xml = try String(contentsOfFile: junit, encoding: .utf8)
            if graded {
                #expect(xml.contains("session verdict: SHIFTED"), "\(xml)")
                #expect(xml.contains("couples more strongly (grade 0.60) than any inside it (grade 0.10)"), "\(xml)")
            } else {
                #expect(xml.contains("session verdict: CONFIRMED"), "\(xml)")
            }

            // The filed page lists the graded criterion with what this session showed.
            let html = scratch.file("report-\(graded).html")
            let page = try await BuiltBinary.run(["report", "--session", id, "--db", db, "-o", html])
            #expect(page.status == 0, "\(page.stderr)")
            let text = try String(contentsOfFile: html, encoding: .utf8)
            #expect(text.contains("Graded taps (run --coupling): nothing outside the zone couples more strongly"))
            #expect(text.contains(graded ? "strongest inside 0.10, outside 0.60" : "not graded"), "\(graded)")
        }
    }
}
