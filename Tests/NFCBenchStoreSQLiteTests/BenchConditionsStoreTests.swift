import Foundation
import NFCBenchRecords
import NFCStore
import NFCTestSupport
import Testing

@testable import NFCBenchStoreSQLite

/// The room's temperature and humidity in the bench store (migration 020): sealed by the
/// session's checksum; not recorded, and read so, for a session stored before it.
@Suite("A session's bench conditions in the bench store")
struct BenchConditionsStoreTests {
    let scratch: TemporaryDirectory
    init() throws { scratch = try TemporaryDirectory("conditions") }

    @Test func aSessionKeepsItsConditionsAndOneFigureAlone() async throws {
        let store = try await SQLiteBenchStore.open(path: scratch.file("bench.sqlite"))
        var both = try sampleSession("S-both")
        both.conditions = BenchConditions(temperatureC: -4.5, humidityPct: 61.2)
        var one = try sampleSession("S-one")
        one.conditions = BenchConditions(humidityPct: 30)
        try await store.insert(both)
        try await store.insert(one)
        #expect(try await store.session("S-both") == both)
        #expect(try await store.session("S-one")?.conditions == BenchConditions(humidityPct: 30))
    }

    /// A store from before migration 020: its session, with its checksum, reads as it was,
    /// its conditions not recorded; the store then takes sessions with them.
    @Test func aSessionFromBeforeTheMigrationReadsWithNoConditions() async throws {
        let path = scratch.file("old.sqlite")
        let old = try sampleSession("S-old")
        try await StoreFromBefore.write(
            old, to: path, before: "020-bench-conditions", columns: ["temperature_c", "humidity_pct"])
        let store = try await SQLiteBenchStore.open(path: path)
        #expect(try await store.appliedMigrations().contains("020-bench-conditions"))
        let read = try #require(try await store.session("S-old"))
        #expect(read == old && read.conditions.isEmpty)
        var new = try sampleSession("S-new")
        new.conditions = BenchConditions(temperatureC: 23, humidityPct: 40)
        try await store.insert(new)
        #expect(try await store.session("S-new")?.conditions == new.conditions)
    }

    /// A figure altered in the file is refused by name: past its range, or a changed value
    /// the checksum no longer covers.
    @Test(arguments: [
        "UPDATE session SET temperature_c = 1e308", "UPDATE session SET humidity_pct = -1",
        "UPDATE session SET temperature_c = 21.5",
    ])
    func anAlteredFigureIsRefused(change: String) async throws {
        var session = try sampleSession()
        session.conditions = BenchConditions(temperatureC: 22, humidityPct: 45)
        let error = try await StoreFromBefore.refusal(of: session, at: scratch.file("altered.sqlite"), after: change)
        #expect(["temperature_c", "humidity_pct", "checksum"].contains(error?.column ?? "read"), "\(String(describing: error))")
    }
}
