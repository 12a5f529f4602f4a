import Foundation
import NFCBenchRecords
import NFCStore
import NFCTestSupport
import Testing

@testable import NFCBenchStoreSQLite

/// One bad row never blocks the rest: a record no reader could read back is never
/// written, and a damaged stored row is left out of listings and tap streams, noted.
@Suite("SQLite bench store: damaged rows")
struct DamagedRowTests {
    let scratch: TemporaryDirectory
    init() throws { scratch = try TemporaryDirectory("damaged") }

    var path: String { scratch.file("bench.sqlite") }

    @Test func aSessionOrTapNoReaderCouldReadIsNeverWritten() async throws {
        let store = try await SQLiteBenchStore.open(path: path)
        var tall = try sampleSession("S-TALL")
        tall.bodyHeightMm = 5000
        await #expect(throws: UnstorableRecord.self) { try await store.insert(tall) }
        #expect(try await store.session("S-TALL") == nil, "rolled back")
        try await store.insert(try sampleSession("S-1"))
        var wild = sampleTap(step: 1, hit: true)
        wild.latencyMs = 1e12
        await #expect(throws: UnstorableRecord.self) { try await store.record(wild) }
        #expect(try await store.taps("S-1").isEmpty)
        #expect(try await store.sessions().map(\.id) == ["S-1"])
    }

    @Test func listingsAndTapStreamsLeaveADamagedSessionOutAndNoteIt() async throws {
        let store = try await SQLiteBenchStore.open(path: path)
        for (i, id) in ["S-1", "S-2", "S-3"].enumerated() {
            var s = try sampleSession(id)
            s.startedAt = Date(timeIntervalSince1970: 1_790_000_000 + Double(i))
            try await store.insert(s)
            for step in 0..<3 { try await store.record(sampleTap(id, step: step, hit: true)) }
        }
        let db = try SQLiteDatabase(path: path)
        try db.execute("UPDATE session SET body_height_mm = 5000 WHERE id = 'S-1'")
        try db.execute("UPDATE tap SET probe_x = 'NaN' WHERE session_id = 'S-2' AND step = 1")
        // Pages of one: a damaged row must not end the listing early.
        var cursor: SessionCursor?
        var paged: [String] = []
        while case let page = try await store.sessions(after: cursor, limit: 1, lookupKeys: nil), let last = page.last {
            paged += page.map(\.id)
            cursor = SessionCursor(after: last)
        }
        #expect(paged == ["S-2", "S-3"])
        #expect(try await store.sessions().map(\.id) == ["S-2", "S-3"])
        let batches = try await store.tapBatches(sessions: nil)
        var streamed: [String] = []
        while case let batch = try await batches.next(), !batch.isEmpty { streamed += batch.map(\.sessionID) }
        #expect(streamed.filter { $0 == "S-2" }.count == 2 && streamed.filter { $0 == "S-3" }.count == 3)
        let damaged = store.damage.sessions.map(\.reference)
        #expect(damaged == ["S-1", "S-2"], "\(damaged)")
        #expect(store.damage.sessions[0].problem.column == "body_height_mm")
        // By id, a damaged session still says exactly what is wrong.
        await #expect(throws: RecordDecodingError.self) { _ = try await store.session("S-1") }
    }

    @Test func voidingADamagedSessionNeverVouchesForItsValues() async throws {
        let store = try await SQLiteBenchStore.open(path: path)
        try await store.insert(try sampleSession("S-1"))
        try SQLiteDatabase(path: path).execute("UPDATE session SET unit = 'altered' WHERE id = 'S-1'")
        try await store.void("S-1", reason: "altered after the run", at: Date(timeIntervalSince1970: 1_790_000_500))
        // Still refused: the checksum was not recomputed over the altered value.
        await #expect(throws: RecordDecodingError.self) { _ = try await store.session("S-1") }
        _ = try await store.sessions()
        #expect(store.damage.sessions.first?.isVoid == true)
    }
}
