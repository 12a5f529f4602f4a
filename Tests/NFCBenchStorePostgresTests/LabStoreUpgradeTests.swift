import Foundation
import NFCBenchRecords
import NFCBenchStoreSQLite
import NFCBenchUseCases
import NFCLabTestSupport
import NFCPostgres
import NFCTestSupport
import Testing

@testable import NFCBenchStorePostgres

/// A lab store made by the previous nfcbench (migrations up to 007) meets this one: a
/// bench is told what the administrator must run, the migration adds the reader's serial
/// number, and the push it replaces stores and updates it.
@Suite(
    "Lab store upgrade (PostgreSQL)",
    .enabled(if: LabStoreServer.isAvailable, "needs the private PostgreSQL: run scripts/test.sh"))
struct LabStoreUpgradeTests {
    let scratch = try! TemporaryDirectory()

    /// The schema as an nfcbench that knew migrations up to `last` left it.
    static func migrated(through last: String) -> (String) async throws -> Void {
        { admin in
            let c = try PostgresConnection(admin)
            try c.execute(
                "CREATE TABLE lab_schema_migration (id text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())")
            for migration in LabSchema.migrations where migration.id <= last {
                try c.executeScript(migration.sql)
                try c.execute("INSERT INTO lab_schema_migration (id) VALUES ($1)", [.text(migration.id)])
            }
        }
    }

    @Test func aStoreFromBeforeTheReaderSerialUpgradesAndCarriesIt() async throws {
        let lab = try await LabFixture(stations: ["bench-a"], migrate: Self.migrated(through: "007-phone-details"))
        let local = try await SQLiteBenchStore.open(path: scratch.database())
        let session = try await LabFixture.session("S-20261202-100000-up01", station: "bench-a", in: local)
        #expect(session.readerSerial == "RR174-002117")
        // A bench role may not migrate: it is told which migration is missing.
        do {
            _ = try await PostgresLabStore.open(lab.benches["bench-a"]!)
            Issue.record("a bench opened a lab store that lacks migration 008")
        } catch {
            #expect("\(error)".contains("008-reader-serial"), "\(error)")
        }
        _ = try await PostgresLabStore.open(lab.admin, migrate: true)
        let store = try await PostgresLabStore.open(lab.benches["bench-a"]!)
        let first = await LabSync.run(from: local, to: store, station: "bench-a")
        #expect(first.succeeded, "\(String(describing: first.error))")
        let reader = try await PostgresLabStore.open(lab.reader)
        #expect(try await reader.session("S-20261202-100000-up01") == session)
        // A serial learned later reaches the lab's copy: the push updates the column on a conflict.
        try await local.setReaderDetails(session.id, firmware: String?.none, serial: "RR174-009999")
        let second = await LabSync.run(from: local, to: store, station: "bench-a")
        #expect(second.pushed == ["bench-a/\(session.id)"], "\(String(describing: second.error))")
        let updated = try #require(try await reader.session("S-20261202-100000-up01"))
        #expect(updated.readerSerial == "RR174-009999" && updated.readerFirmware == "nfcbench-sim")
    }

    /// A lab store from before migration 014 keeps its sessions (their reader's antenna
    /// unknown) and, upgraded, stores a bench's geometry and takes it back whole; a
    /// half-geometry or one out of range is refused by the store itself.
    @Test func aStoreFromBeforeTheReaderGeometryUpgradesAndCarriesIt() async throws {
        let lab = try await LabFixture(stations: ["bench-a"], migrate: Self.migrated(through: "013-operator-text-bounds"))
        let local = try await SQLiteBenchStore.open(path: scratch.database())
        let before = try await LabFixture.session("S-20261206-100000-geo1", station: "bench-a", in: local)
        _ = try await PostgresLabStore.open(lab.admin, migrate: true)
        let store = try await PostgresLabStore.open(lab.benches["bench-a"]!)
        let after = try await LabFixture.session(
            "S-20261206-110000-geo2", station: "bench-a", in: local, start: Date(timeIntervalSince1970: 1_790_003_600),
            geometry: ReaderGeometry(antennaWidthMm: 46, antennaHeightMm: 64, gapMm: 2.5, source: "operator"))
        let sync = await LabSync.run(from: local, to: store, station: "bench-a")
        #expect(sync.succeeded, "\(String(describing: sync.error))")
        let reader = try await PostgresLabStore.open(lab.reader)
        #expect(try await reader.session("S-20261206-100000-geo1")?.readerGeometry == nil)
        #expect(try await reader.session("S-20261206-100000-geo1") == before)
        #expect(try await reader.session("S-20261206-110000-geo2")?.readerGeometry == after.readerGeometry)
        let admin = try PostgresConnection(lab.admin)
        for change in ["reader_gap_mm = NULL", "reader_gap_mm = 1e300", "reader_antenna_width_mm = 'NaN'"] {
            #expect(throws: PostgresError.self, "\(change)") {
                try admin.execute("UPDATE lab_session SET \(change) WHERE id = 'S-20261206-110000-geo2'")
            }
        }
    }

    /// A lab store from before migration 015 keeps its sessions (conditions not recorded)
    /// and, upgraded, stores a bench's temperature and humidity and gives them back; a
    /// figure out of range is refused by the store itself.
    @Test func aStoreFromBeforeTheBenchConditionsUpgradesAndCarriesThem() async throws {
        let lab = try await LabFixture(stations: ["bench-a"], migrate: Self.migrated(through: "014-reader-geometry"))
        let local = try await SQLiteBenchStore.open(path: scratch.database())
        let before = try await LabFixture.session("S-20261207-100000-env1", station: "bench-a", in: local)
        _ = try await PostgresLabStore.open(lab.admin, migrate: true)
        let store = try await PostgresLabStore.open(lab.benches["bench-a"]!)
        let after = try await LabFixture.session(
            "S-20261207-110000-env2", station: "bench-a", in: local, start: Date(timeIntervalSince1970: 1_790_003_600),
            conditions: BenchConditions(temperatureC: 22.5, humidityPct: 45))
        let sync = await LabSync.run(from: local, to: store, station: "bench-a")
        #expect(sync.succeeded, "\(String(describing: sync.error))")
        let reader = try await PostgresLabStore.open(lab.reader)
        #expect(try await reader.session("S-20261207-100000-env1") == before)
        #expect(try await reader.session("S-20261207-110000-env2") == after)
        #expect(try await reader.session("S-20261207-110000-env2")?.conditions.temperatureC == 22.5)
        let admin = try PostgresConnection(lab.admin)
        for change in ["temperature_c = 300", "humidity_pct = -2", "humidity_pct = 'NaN'"] {
            #expect(throws: PostgresError.self, "\(change)") {
                try admin.execute("UPDATE lab_session SET \(change) WHERE id = 'S-20261207-110000-env2'")
            }
        }
    }
}
