import Foundation
import NFCBenchRecords
import NFCStore
import NFCTestSupport
import Testing

@testable import NFCBenchStoreSQLite

/// The reader's antenna and gap in the bench store (migration 018): kept whole inside the
/// session's checksum; unknown, and said so, for a session stored before it.
@Suite("A reader's geometry in the bench store")
struct ReaderGeometryStoreTests {
    let scratch: TemporaryDirectory
    init() throws { scratch = try TemporaryDirectory("geometry") }

    @Test func aSessionKeepsItsReadersGeometry() async throws {
        let store = try await SQLiteBenchStore.open(path: scratch.file("bench.sqlite"))
        var session = try sampleSession()
        session.readerGeometry = ReaderGeometry(
            antennaWidthMm: 46, antennaHeightMm: 64, gapMm: 3.25, source: "acr122u: antenna from ACS (inferred)")
        try await store.insert(session)
        #expect(try await store.session("S-1") == session)
    }

    /// A store from before migration 018: its session, with its checksum, reads as it was,
    /// its reader's antenna unknown; the store takes new sessions with a geometry.
    @Test func aSessionFromBeforeTheMigrationReadsWithItsAntennaUnknown() async throws {
        let path = scratch.file("old.sqlite")
        let old = try sampleSession("S-old")
        // A store from before 018 has none of what later migrations add either.
        try await StoreFromBefore.write(
            old, to: path, before: "018-reader-geometry",
            columns: [
                "reader_antenna_width_mm", "reader_antenna_height_mm", "reader_gap_mm", "reader_geometry_source",
                "temperature_c", "humidity_pct",
            ], tables: ["lab_sync_hold"])
        let store = try await SQLiteBenchStore.open(path: path)
        #expect(try await store.appliedMigrations().contains("018-reader-geometry"))
        let read = try #require(try await store.session("S-old"))
        #expect(read == old && read.readerGeometry == nil)
        var new = try sampleSession("S-new")
        new.readerGeometry = ReaderGeometry(antennaWidthMm: 40, antennaHeightMm: 40, gapMm: 2, source: "operator")
        try await store.insert(new)
        #expect(try await store.session("S-new")?.readerGeometry == new.readerGeometry)
    }

    /// A geometry altered in the file is refused by name: half of one, or a gap past its range.
    @Test(arguments: [
        "UPDATE session SET reader_gap_mm = NULL", "UPDATE session SET reader_gap_mm = 1e308",
        "UPDATE session SET reader_antenna_width_mm = -4",
    ])
    func anAlteredGeometryIsRefusedByName(change: String) async throws {
        var session = try sampleSession()
        session.readerGeometry = ReaderGeometry(antennaWidthMm: 46, antennaHeightMm: 64, gapMm: 3, source: "operator")
        let error = try await StoreFromBefore.refusal(of: session, at: scratch.file("altered.sqlite"), after: change)
        #expect(error?.column.hasPrefix("reader_") == true, "\(String(describing: error))")
    }
}
