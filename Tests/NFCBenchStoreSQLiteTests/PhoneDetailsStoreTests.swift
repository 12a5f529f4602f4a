import Foundation
import NFCBenchRecords
import NFCStore
import NFCTestSupport
import Testing

@testable import NFCBenchStoreSQLite

/// The filed record's phone details (migration 012) are stored, read back and sealed like
/// every other session value; rows from before keep their checksums.
@Suite("SQLite bench store: phone details")
struct PhoneDetailsStoreTests {
    let scratch: TemporaryDirectory
    init() throws { scratch = try TemporaryDirectory("phone-details") }

    var path: String { scratch.file("bench.sqlite") }

    @Test func detailsRoundTripAndAnAlteredOneIsRefused() async throws {
        let store = try await SQLiteBenchStore.open(path: path)
        var described = try sampleSession("S-1")
        described.modelTyped = "galaxy s24"
        described.phone = PhoneDetails(os: "Android 15", build: "AP3A.240905.015", phoneCase: "none")
        try await store.insert(described)
        try await store.insert(try sampleSession("S-2"))
        #expect(try await store.session("S-1") == described)
        let plain = try #require(try await store.session("S-2"))
        #expect(plain.phone.isEmpty && plain.modelTyped == nil)
        #expect(try await store.appliedMigrations().contains("012-phone-details"))

        // A value changed on disk, or one written into a row that had none, breaks the seal.
        let db = try SQLiteDatabase(path: path)
        try db.execute("UPDATE session SET phone_case = 'Spigen' WHERE id = 'S-1'")
        try db.execute("UPDATE session SET model_typed = 'pixel 8' WHERE id = 'S-2'")
        for id in ["S-1", "S-2"] {
            await #expect(throws: RecordDecodingError.self, "\(id)") { _ = try await store.session(id) }
        }
    }
}
