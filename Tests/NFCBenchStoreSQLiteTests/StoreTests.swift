import Foundation
import NFCBenchRecords
import NFCLocatorCore
import NFCReaderLibNFC
import NFCReaders
import NFCStore
import NFCTestSupport
import Testing

@testable import NFCBenchStoreSQLite

func sampleSession(_ id: String = "S-1", reader: ReaderSpec = .libnfc(connstring: "pn532_uart:/dev/ttyUSB0")) throws
    -> SessionRecord
{
    SessionRecord(
        id: id, modelInput: "SM-S921B", lookupKey: "sm_s921b", displayName: "Galaxy S24",
        predicted: try NormalizedRect(x: 0.1, y: 0.36, width: 0.8, height: 0.38), confidence: .approximate,
        source: .seedCatalog, stale: true, catalogVersion: "seed-1", aspectRatio: 0.4803, reader: reader,
        readerFirmware: "PN532 v1.6", unit: "unit-7", operatorName: "ops", plan: .adaptive, planPass: 2,
        plannedProbes: [Probe(x: 0.5, y: 0.55), Probe(x: 0.15, y: 0.55)], repeats: 2, tapTimeout: 1.5,
        startedAt: Date(timeIntervalSince1970: 1_790_000_000), readerSerial: "RR174-002117")
}

func sampleTap(_ session: String = "S-1", step: Int, attempt: Int = 0, hit: Bool) -> TapRecord {
    TapRecord(
        sessionID: session, step: step, attempt: attempt, probe: Probe(x: 0.5, y: 0.1 * Double(step % 10)),
        insidePredicted: step % 2 == 0, result: hit ? .hit : .miss, latencyMs: hit ? 41.5 : nil,
        technology: hit ? "ISO14443A" : nil, uid: hit ? "08A1B2C3" : nil,
        timestamp: Date(timeIntervalSince1970: 1_790_000_000 + Double(step)))
}

@Suite("SQLite bench store")
struct StoreTests {
    let scratch: TemporaryDirectory
    init() throws { scratch = try TemporaryDirectory("store") }

    var path: String { scratch.file("bench.sqlite") }

    @Test func sessionsAndTapsRoundTripAsTypedRecords() async throws {
        let store = try await SQLiteBenchStore.open(path: path)
        let session = try sampleSession()
        try await store.insert(session)
        #expect(try await store.session("S-1") == session)
        let taps = (0..<5).map { sampleTap(step: $0, hit: $0 % 2 == 0) }
        for tap in taps { try await store.record(tap) }
        #expect(try await store.taps("S-1") == taps)
        let measured = try NormalizedRect(x: 0.2, y: 0.3, width: 0.5, height: 0.2)
        let end = Date(timeIntervalSince1970: 1_790_000_100)
        try await store.finish(
            "S-1", status: .completed, at: end, verdict: .shifted, verdictReason: "because", measured: measured, iou: 0.42)
        let finished = try #require(try await store.session("S-1"))
        #expect(finished.status == .completed && finished.verdict == .shifted && finished.measured == measured)
        #expect(finished.iou == 0.42 && finished.endedAt == end)
        try await store.suspend("S-1")
        #expect(try await store.session("S-1")?.status == .inProgress)
        #expect(try await store.undoLastTap("S-1") == taps[4])
        #expect(try await store.taps("S-1").count == 4)
    }

    @Test func aTapRecordedTwiceIsAnErrorNotADuplicate() async throws {
        let store = try await SQLiteBenchStore.open(path: path)
        try await store.insert(try sampleSession())
        try await store.record(sampleTap(step: 0, hit: true))
        await #expect(throws: SQLiteError.self) { try await store.record(sampleTap(step: 0, hit: false)) }
        #expect(try await store.taps("S-1").map(\.result) == [.hit])
    }

    @Test func batchesStreamEveryTapInOrderFromOneSnapshot() async throws {
        let store = try await SQLiteBenchStore.open(path: path)
        for id in ["S-a", "S-b"] { try await store.insert(try sampleSession(id)) }
        let count = SQLiteTapBatches.batchSize + 10
        for step in 0..<count { try await store.record(sampleTap("S-b", step: step, hit: true)) }
        for step in 0..<3 { try await store.record(sampleTap("S-a", step: step, hit: false)) }
        let batches = try await store.tapBatches(sessions: ["S-b", "S-a"])
        // A tap committed after the read began is not part of it.
        try await store.record(sampleTap("S-a", step: 3, hit: true))
        var seen: [TapRecord] = []
        var sizes: [Int] = []
        while case let batch = try await batches.next(), !batch.isEmpty {
            sizes.append(batch.count)
            seen += batch
        }
        #expect(sizes == [SQLiteTapBatches.batchSize, 13])
        #expect(
            seen.prefix(count).allSatisfy { $0.sessionID == "S-b" }
                && seen.dropFirst(count).map(\.sessionID) == ["S-a", "S-a", "S-a"])
        #expect(seen.prefix(count).map(\.step) == Array(0..<count), "steps out of order")
        let all = try await store.tapBatches(sessions: nil)
        var total = 0
        while case let batch = try await all.next(), !batch.isEmpty { total += batch.count }
        #expect(total == count + 4)
    }

    /// Every kind of bad stored value, put there behind the store's back: each is a
    /// typed error naming table, column, row and value, for every read path.
    @Test(arguments: [
        ("UPDATE tap SET probe_x = 1e20", "tap", "probe_x", "1e+20"),
        ("UPDATE tap SET timestamp = 1e300", "tap", "timestamp", "1e+300"),
        ("UPDATE tap SET result = 'MAYBE'", "tap", "result", "'MAYBE'"),
        ("UPDATE tap SET step = -1", "tap", "step", "-1"),
        ("UPDATE tap SET probe_y = 'x'", "tap", "probe_y", "'x'"),
        ("UPDATE session SET plan_pass = -1", "session", "plan_pass", "-1"),
        ("UPDATE session SET status = 'paused'", "session", "status", "'paused'"),
        ("UPDATE session SET plan_kind = 'spiral'", "session", "plan_kind", "'spiral'"),
        ("UPDATE session SET confidence = 'certain'", "session", "confidence", "'certain'"),
        ("UPDATE session SET zone_width = 2", "session", "zone_width", "2"),
        ("UPDATE session SET zone_x = NULL", "session", "zone_x", "NULL"),
        ("UPDATE session SET tap_timeout = 1e20", "session", "tap_timeout", "1e+20"),
        ("UPDATE session SET started_at = 1e300", "session", "started_at", "1e+300"),
        ("UPDATE session SET reader_name = 'usb'", "session", "reader_name", "'usb'"),
        ("UPDATE session SET verdict = 'GOOD'", "session", "verdict", "'GOOD'"),
        ("UPDATE session SET iou = 1.5", "session", "iou", "1.5"),
        ("UPDATE session SET plan_json = '[[0.5]]'", "session", "plan_json", "'[[0.5]]'"),
        ("UPDATE session SET plan_focus = 'sessions=1 left=nan,0,1'", "session", "plan_focus", "'sessions=1"),
        // In range, but not what was written: only the row's checksum can tell.
        ("UPDATE tap SET probe_y = 0.30000001", "tap", "checksum", ""),
        ("UPDATE tap SET uid = '08A1B2C4'", "tap", "checksum", ""),
        ("UPDATE tap SET height_mm = 1e309", "tap", "height_mm", "inf"),
        ("UPDATE tap SET height_mm = 5", "tap", "checksum", ""),
        ("UPDATE tap SET coupling = 1.5", "tap", "coupling", "1.5"),
        ("UPDATE tap SET coupling = 0.5", "tap", "checksum", ""),
        ("UPDATE tap SET coupling_tried = 'default read'", "tap", "checksum", ""),
        // Another ladder's name would make the grade read on another scale.
        ("UPDATE tap SET coupling_ladder = 'pn53x-7'", "tap", "checksum", ""),
        ("UPDATE session SET zone_x = 0.1000001", "session", "checksum", ""),
        ("UPDATE session SET unit = 'unit-8'", "session", "checksum", ""),
    ])
    func badStoredValuesAreTypedErrors(sql: String, table: String, column: String, value: String) async throws {
        do {
            let store = try await SQLiteBenchStore.open(path: path)
            try await store.insert(try sampleSession())
            try await store.record(sampleTap(step: 0, hit: true))
        }
        try SQLiteDatabase(path: path).execute(sql)
        let store = try await SQLiteBenchStore.open(path: path)
        func check(_ what: String, _ body: () async throws -> Void) async {
            do {
                try await body()
                Issue.record("\(what) read \(sql) without an error")
            } catch let error as RecordDecodingError {
                #expect(error.table == table && error.column == column && error.value.hasPrefix(value), "\(what): \(error)")
                #expect(error.row.hasPrefix("S-1"), "\(what): \(error)")
            } catch {
                Issue.record("\(what): \(error) is not a RecordDecodingError")
            }
        }
        if table == "session" {
            await check("session(_:)") { _ = try await store.session("S-1") }
            // A listing leaves the damaged session out and notes why, instead of stopping.
            #expect(try await store.sessions().isEmpty)
        } else {
            await check("taps(_:)") { _ = try await store.taps("S-1") }
            await check("undoLastTap") { _ = try await store.undoLastTap("S-1") }
            #expect(try await store.tapBatches(sessions: ["S-1"]).next().isEmpty)
        }
        let noted = try #require(store.damage.sessions.first, "the listing noted the damage")
        #expect(noted.reference == "S-1" && noted.problem.table == table && noted.problem.column == column, "\(noted)")
    }

    @Test func aDecodingErrorSaysWhereAndWhat() {
        let error = RecordDecodingError(
            table: "tap", column: "probe_x", row: "S-1 step 3 attempt 0", value: "1e+20",
            expected: "a finite number in 0.0...1.0")
        #expect(error.description == "tap.probe_x of row S-1 step 3 attempt 0 holds 1e+20, expected a finite number in 0.0...1.0")
    }

    @Test func migratesAnOlderSchemaKeepingItsRecords() async throws {
        let path = self.path
        // A database as the first release wrote it: only migration 001.
        let old = try SQLiteDatabase(path: path)
        try old.execute("CREATE TABLE schema_migration (id TEXT PRIMARY KEY, applied_at REAL NOT NULL)")
        try old.execute(BenchStoreFixture.migration001)
        try old.execute("INSERT INTO schema_migration VALUES ('001-sessions-and-taps', 0)")
        try old.execute(
            """
            INSERT INTO session (id, model_input, lookup_key, confidence, source, stale, aspect_ratio, reader_backend, reader_name,
                plan_kind, plan_json, repeats, tap_timeout, status, started_at)
            VALUES ('S-old', 'SM-S911B', 'sm_s911b', 'exact', 'seedCatalog', 0, 0.4846, 'pcsc', 'pcsc:ACR122', 'grid', '[]', 1, 5,
                'completed', 1700000000);
            INSERT INTO tap (session_id, step, attempt, probe_x, probe_y, inside_predicted, result, timestamp)
            VALUES ('S-old', 0, 0, 0.5, 0.5, 1, 'HIT', 1700000001);
            """)
        let store = try await SQLiteBenchStore.open(path: path)
        #expect(
            try await store.appliedMigrations() == [
                "001-sessions-and-taps", "002-session-score", "003-grid-pass", "004-evidence", "005-plan-focus",
                "006-tap-checksum", "007-session-checksum", "008-lab-sync", "009-tag-mode", "010-placement-and-events",
                "011-session-start-order", "012-phone-details", "013-reader-serial", "014-tap-height", "015-tap-coupling",
                "016-tap-coupling-ladder", "017-lab-sync-refusals", "018-reader-geometry", "019-lab-sync-holds",
                "020-bench-conditions",
            ])
        let s = try #require(try await store.session("S-old"))
        let oldTaps = try await store.taps("S-old")
        #expect(s.modelInput == "SM-S911B" && s.verdict == nil && s.planPass == 0 && s.planFocus == nil && oldTaps.count == 1)
    }

    @Test func aNewerSchemaIsRefused() async throws {
        let path = self.path
        _ = try await SQLiteBenchStore.open(path: path)
        try SQLiteDatabase(path: path).execute("INSERT INTO schema_migration VALUES ('999-from-the-future', 0)")
        await #expect(throws: BenchStoreError.self) { try await SQLiteBenchStore.open(path: path) }
    }
}

enum BenchStoreFixture {
    /// Migration 001's SQL, frozen here as the first release shipped it.
    static let migration001 = """
        CREATE TABLE session (id TEXT PRIMARY KEY, model_input TEXT NOT NULL, lookup_key TEXT NOT NULL, display_name TEXT,
            zone_x REAL, zone_y REAL, zone_width REAL, zone_height REAL, confidence TEXT NOT NULL, source TEXT NOT NULL,
            stale INTEGER NOT NULL, catalog_version TEXT, aspect_ratio REAL NOT NULL, reader_backend TEXT NOT NULL,
            reader_name TEXT NOT NULL, reader_firmware TEXT, unit TEXT, operator TEXT, plan_kind TEXT NOT NULL,
            plan_json TEXT NOT NULL, repeats INTEGER NOT NULL, tap_timeout REAL NOT NULL, status TEXT NOT NULL,
            started_at REAL NOT NULL, ended_at REAL);
        CREATE TABLE tap (session_id TEXT NOT NULL REFERENCES session(id) ON DELETE CASCADE, step INTEGER NOT NULL,
            attempt INTEGER NOT NULL, probe_x REAL NOT NULL, probe_y REAL NOT NULL, inside_predicted INTEGER NOT NULL,
            result TEXT NOT NULL, latency_ms REAL, technology TEXT, uid TEXT, atqa TEXT, sak TEXT, ats TEXT, atr TEXT,
            timestamp REAL NOT NULL, PRIMARY KEY (session_id, step, attempt));
        CREATE INDEX session_by_model ON session(lookup_key, started_at);
        """
}
