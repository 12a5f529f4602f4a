import Foundation
import NFCBenchRecords
import NFCBenchStorePostgres
import NFCBenchStoreSQLite
import NFCLocatorCore

/// A lab for one test: a fresh database on the private PostgreSQL, migrated by the admin,
/// with a reader role and one bench role per station, each station registered to its role.
public struct LabFixture {
    public let database: String
    public let admin: String
    public let reader: String
    /// Station name -> the connection string of its bench role.
    public let benches: [String: String]

    /// `migrate` builds the schema from the admin's connection string; by default every
    /// migration this nfcbench knows (a test of an upgrade stops short of the newest).
    public init(
        stations: [String],
        migrate: (_ admin: String) async throws -> Void = { _ = try await PostgresLabStore.open($0, migrate: true) }
    ) async throws {
        database = try LabStoreServer.freshDatabase()
        admin = LabStoreServer.url(database: database)
        try await migrate(admin)
        let readerRole = try LabStoreServer.role(in: "nfcbench_reader")
        reader = LabStoreServer.url(database: database, user: readerRole.name, password: readerRole.password)
        var benches: [String: String] = [:]
        for station in stations {
            let role = try LabStoreServer.role(in: "nfcbench_bench")
            try LabStoreServer.admin(
                database, "INSERT INTO lab_station (name, role) VALUES ($1, $2)", [.text(station), .text(role.name)])
            benches[station] = LabStoreServer.url(database: database, user: role.name, password: role.password)
        }
        self.benches = benches
    }

    public static let predicted = try! NormalizedRect(x: 0.1, y: 0.36, width: 0.8, height: 0.38)

    /// A finished session of `taps` positions on `station`, stored in `store`.
    public static func session(
        _ id: String, station: String?, in store: SQLiteBenchStore, taps: Int = 6,
        start: Date = Date(timeIntervalSince1970: 1_790_000_000), geometry: ReaderGeometry? = nil,
        conditions: BenchConditions = BenchConditions()
    ) async throws -> SessionRecord {
        var session = SessionRecord(
            id: id, modelInput: "SM-S921B", lookupKey: "sm_s921b", displayName: "Galaxy S24", predicted: predicted,
            confidence: .approximate, source: .seedCatalog, stale: true, catalogVersion: "seed-2026-11",
            aspectRatio: 0.4803, reader: .sim, readerFirmware: "nfcbench-sim", unit: "unit-7", operatorName: "Ana",
            plan: .grid, plannedProbes: [Probe(x: 0.5, y: 0.55)], repeats: 1, tapTimeout: 2, startedAt: start,
            bodyHeightMm: 147, simulated: false, station: station, modelTyped: "galaxy s24",
            phone: PhoneDetails(os: "Android 15", build: "AP3A.240905.015", phoneCase: "none"), readerSerial: "RR174-002117")
        session.readerGeometry = geometry
        session.conditions = conditions
        try await store.insert(session)
        for step in 0..<taps {
            // The sixth tap is a motion stage's, 7.5 mm above the back: its height goes to the lab too.
            let probe = Probe(
                x: 0.1 + 0.1 * Double(step % 8), y: 0.2 + 0.05 * Double(step % 10), heightMm: step == 5 ? 7.5 : 0)
            let hit = predicted.contains(x: probe.x, y: probe.y)
            // Hits are graded (`run --coupling`): the grade and the profiles tried go to the lab too.
            try await store.record(
                TapRecord(
                    sessionID: id, step: step, attempt: 0, probe: probe, insidePredicted: hit, result: hit ? .hit : .miss,
                    latencyMs: hit ? 41.5 + Double(step) : nil, technology: hit ? "ISO14443A" : nil,
                    uid: hit ? "08A1B2C3" : nil, timestamp: start.addingTimeInterval(2.5 * Double(step + 1)),
                    coupling: hit ? Double(step % 11) / 10 : nil,
                    couplingTried: hit ? "default read, CWGsP 3B read, CWGsP 37 no answer" : nil,
                    couplingLadder: hit ? "pn53x-11" : nil))
        }
        try await store.finish(
            id, status: .completed, at: start.addingTimeInterval(60), verdict: .confirmed, verdictReason: "fixture",
            measured: predicted, iou: 1)
        return try await store.session(id)!
    }
}
