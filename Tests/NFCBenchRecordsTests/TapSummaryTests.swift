import Foundation
import NFCBenchRecords
import Testing

func tap(_ step: Int, _ result: TapRecord.Result, attempt: Int = 0) -> TapRecord {
    TapRecord(
        sessionID: "S-1", step: step, attempt: attempt, probe: Probe(x: 0.5, y: 0.5), insidePredicted: true, result: result,
        timestamp: Date(timeIntervalSince1970: 1_790_000_000))
}

@Suite("Records: tap counts, references, damage")
struct RecordsTests {
    @Test func aPartialReadIsAReadNeverAHitAndASkipIsNoTap() {
        let summary = TapSummary([
            tap(0, .hit), tap(1, .partial), tap(2, .miss), tap(3, .skipped), tap(4, .hit, attempt: 0),
            tap(4, .partial, attempt: 1),
        ])
        #expect(summary.taps == 5 && summary.hits == 2 && summary.partialReads == 2 && summary.skips == 1)
        #expect(summary.reads == 4 && summary.misses == 1)
        #expect(summary.hitsOfTaps == "2/5 +2 partial")
        #expect(TapSummary([tap(0, .hit), tap(1, .miss)]).hitsOfTaps == "1/2")
        let skippedOnly = TapSummary([tap(0, .skipped)])
        #expect(skippedOnly.taps == 0 && skippedOnly.skips == 1 && skippedOnly.hitsOfTaps == "0/0")
    }

    @Test func referencesSplitAtTheFirstSlashOnly() {
        let shared = SessionReference(parsing: "bench-2/S-20261201-101010-ab")
        #expect(
            shared.station == "bench-2" && shared.id == "S-20261201-101010-ab"
                && shared.description == "bench-2/S-20261201-101010-ab")
        let bare = SessionReference(parsing: "S-1")
        #expect(bare.station == nil && bare.id == "S-1" && bare.description == "S-1")
    }

    @Test(arguments: [
        ("bench-1", true), ("B.2_x-3", true), ("", false), ("-lead", false), (".hidden", false), ("a b", false),
        ("bench/1", false), ("bänch", false), (String(repeating: "a", count: 64), false), ("\u{1B}[2J", false),
    ])
    func stationNamesAreSafeEverywhere(name: String, valid: Bool) {
        #expect((StationName.validate(name) == nil) == valid)
    }

    @Test func aDamagedSessionIsNotedOnceUnderEitherName() {
        let log = DamageLog()
        let problem = RecordDecodingError(table: "tap", column: "probe_x", row: "S-1/3/0", value: "inf", expected: "a fraction")
        log.note(DamagedSession(reference: "bench-1/S-1", problem: problem, isVoid: false))
        log.note(DamagedSession(reference: "S-1", problem: problem, isVoid: false))
        #expect(log.sessions.count == 1)
        #expect(log.contains("S-1") && log.contains("bench-1/S-1") && !log.contains("bench-2/S-1") && !log.contains("S-2"))
    }

    @Test func theCursorOrdersByStartThenIdThenStation() {
        func session(_ id: String, _ seconds: Double, station: String? = nil) -> SessionRecord {
            var s = SessionRecord(
                id: id, modelInput: "SM-S921B", lookupKey: "sm_s921b", displayName: nil, predicted: nil,
                confidence: .unknown, source: .heuristic, stale: false, catalogVersion: nil, aspectRatio: 0.48,
                reader: .sim, readerFirmware: nil, unit: nil, operatorName: nil, plan: .grid, repeats: 1, tapTimeout: 1,
                startedAt: Date(timeIntervalSince1970: seconds))
            s.station = station
            return s
        }
        let cursor = SessionCursor(after: session("S-b", 100, station: "b"))
        #expect(cursor.precedes(session("S-a", 101)))
        #expect(cursor.precedes(session("S-c", 100)))
        #expect(cursor.precedes(session("S-b", 100, station: "c")))
        #expect(!cursor.precedes(session("S-b", 100, station: "a")) && !cursor.precedes(session("S-z", 99)))
    }
}
