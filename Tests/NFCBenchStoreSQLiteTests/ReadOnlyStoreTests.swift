import Foundation
import NFCBenchRecords
import NFCReaders
import NFCStore
import NFCTestSupport
import Testing

@testable import NFCBenchStoreSQLite

/// Reading commands open the store read-only: archived copies, older schemas and damaged
/// files are read, migrated in memory or refused, and never written.
@Suite("Reading a bench store without writing it")
struct ReadOnlyStoreTests {
    let scratch: TemporaryDirectory
    init() throws { scratch = try TemporaryDirectory("read-only") }

    /// A store with `taps` taps in one session, closed (its WAL folded into the file).
    func filledStore(taps: Int) async throws -> String {
        let path = scratch.file("bench-\(UUID().uuidString.prefix(6)).sqlite")
        do {
            let store = try await SQLiteBenchStore.open(path: path)
            try await store.insert(try sampleSession())
            for step in 0..<taps { try await store.record(sampleTap(step: step, hit: step % 3 == 0)) }
        }
        return path
    }

    func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    @Test func anOlderSchemaIsMigratedInMemoryAndTheFileIsUntouched() async throws {
        let path = scratch.file("old.sqlite")
        do {
            let old = try SQLiteDatabase(path: path)
            try old.execute("CREATE TABLE schema_migration (id TEXT PRIMARY KEY, applied_at REAL NOT NULL)")
            try old.execute(BenchStoreFixture.migration001)
            try old.execute("INSERT INTO schema_migration VALUES ('001-sessions-and-taps', 0)")
            try old.execute(
                """
                INSERT INTO session (id, model_input, lookup_key, confidence, source, stale, aspect_ratio, reader_backend,
                    reader_name, plan_kind, plan_json, repeats, tap_timeout, status, started_at)
                VALUES ('S-old', 'SM-S911B', 'sm_s911b', 'exact', 'seedCatalog', 0, 0.4846, 'pcsc', 'pcsc:ACR122', 'grid', '[]',
                    1, 5, 'completed', 1700000000);
                """)
            for step in 0..<5000 {
                try old.execute(
                    "INSERT INTO tap (session_id, step, attempt, probe_x, probe_y, inside_predicted, result, timestamp) "
                        + "VALUES ('S-old', \(step), 0, 0.5, 0.5, 1, 'MISS', \(1_700_000_001 + step))")
            }
        }
        let before = try bytes(path)
        let store = try await SQLiteBenchStore.openForReading(path: path)
        #expect(store.reading == .inMemory)
        #expect(try await store.session("S-old")?.planFocus == nil)
        // Pages of the in-memory copy: every tap once, in order, across batch boundaries.
        let batches = try await store.tapBatches(sessions: nil)
        var steps: [Int] = []
        while case let batch = try await batches.next(), !batch.isEmpty { steps += batch.map(\.step) }
        #expect(steps == Array(0..<5000))
        let one = try await store.tapBatches(sessions: ["S-old", "S-none"])
        #expect(try await one.next().count == SQLiteTapBatches.batchSize)
        #expect(try bytes(path) == before, "the file itself is never migrated by a reader")
        #expect(try await SQLiteBenchStore.open(path: path).appliedMigrations().count == BenchSchema.migrations.count)
    }

    /// A store that lacks only an index a later nfcbench adds (migration 011) is read in
    /// place, not copied into memory: an archive of a million taps stays a file read.
    @Test func aStoreMissingOnlyAnIndexIsReadInPlace() async throws {
        let path = try await filledStore(taps: 40)
        do {
            let db = try SQLiteDatabase(path: path)
            try db.execute("DROP INDEX session_by_start")
            try db.execute("DELETE FROM schema_migration WHERE id = '011-session-start-order'")
        }
        let before = try bytes(path)
        let store = try await SQLiteBenchStore.openForReading(path: path)
        #expect(store.reading == .file(.readOnly))
        #expect(try await store.sessions(after: nil, limit: 10, lookupKeys: nil).map(\.id) == ["S-1"])
        #expect(try await store.taps("S-1").count == 40)
        #expect(try bytes(path) == before)
        // A file without the index that also has an object nfcbench never made is refused.
        do { try SQLiteDatabase(path: path).execute("CREATE INDEX planted ON tap(result)") }
        await #expect(throws: BenchStoreError.self) { try await SQLiteBenchStore.openForReading(path: path) }
    }

    @Test func aCurrentStoreIsReadInPlaceAndNothingIsWritten() async throws {
        let path = try await filledStore(taps: 40)
        let before = try bytes(path)
        let store = try await SQLiteBenchStore.openForReading(path: path)
        #expect(store.reading == .file(.readOnly))
        #expect(try await store.integrityProblems().isEmpty)
        #expect(try await store.taps("S-1").count == 40)
        await #expect(throws: SQLiteError.self) { try await store.void("S-1", reason: "no", at: Date()) }
        #expect(try bytes(path) == before)
    }

    /// A page of the tap table overwritten with junk: integrity_check names it.
    @Test func aDamagedPageIsFoundByTheCheck() async throws {
        let path = try await filledStore(taps: 600)
        var data = try bytes(path)
        let pageSize = 4096
        #expect(data.count > 6 * pageSize)
        var generator = SeededGenerator(seed: 3)
        for i in (4 * pageSize)..<(5 * pageSize) { data[i] = UInt8.random(in: 0...255, using: &generator) }
        try data.write(to: URL(fileURLWithPath: path))
        do {
            let store = try await SQLiteBenchStore.openForReading(path: path)
            let problems = try await store.integrityProblems()
            #expect(!problems.isEmpty, "integrity_check found nothing")
        } catch let error as SQLiteError {
            #expect(error.code == 11, "\(error)")  // SQLITE_CORRUPT at open is as good
        }
    }
}
