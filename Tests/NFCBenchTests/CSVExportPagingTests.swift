import Foundation
import NFCBench
import NFCBenchRecords
import NFCBenchStoreSQLite
import NFCLocatorCore
import NFCStore
import NFCTestSupport
import Testing

/// The export reads a page's taps while it writes the page before, a few batches ahead:
/// whatever the page size, every tap comes out once, in order, and a damaged session is
/// left out whole, even when its taps span batches and its neighbours are read meanwhile.
@Suite("CSV export across pages")
struct CSVExportPagingTests {
    let scratch: TemporaryDirectory
    init() throws { scratch = try TemporaryDirectory("csv-pages") }

    /// Taps per session: one session spans three of the reader's 4,096-tap batches.
    static let tapCounts = [3, 1, 9_000, 40, 0, 700, 2, 5_000, 15, 1, 1, 64, 300]
    static let damaged = "S-p07"

    func filledStore() async throws -> SQLiteBenchStore {
        let path = scratch.file("bench.sqlite")
        let store = try await SQLiteBenchStore.open(path: path)
        for (index, _) in Self.tapCounts.enumerated() {
            try await store.insert(
                testSession(
                    String(format: "S-p%02d", index), predicted: try NormalizedRect(x: 0.1, y: 0.3, width: 0.8, height: 0.4)))
        }
        // Rows written in bulk carry no row checksum, as rows from before migration 006.
        let db = try SQLiteDatabase(path: path)
        let insert = try db.prepare(
            """
            INSERT INTO tap (session_id, step, attempt, probe_x, probe_y, inside_predicted, result, timestamp)
            VALUES (?1, ?2, 0, 0.5, 0.5, 0, ?3, 1790000000 + ?2)
            """)
        try db.execute("BEGIN")
        for (index, count) in Self.tapCounts.enumerated() {
            let id = String(format: "S-p%02d", index)
            for step in 0..<count {
                // One tap deep inside the damaged session's second batch no longer decodes.
                let result = id == Self.damaged && step == 4_500 ? "BOGUS" : step % 3 == 0 ? "HIT" : "MISS"
                _ = try insert.bind([.text(id), .integer(Int64(step)), .text(result)]).step()
            }
        }
        try db.execute("COMMIT")
        return store
    }

    /// (session, step) of every data row, in file order.
    func rows(of csv: String) -> [String] {
        csv.split(separator: "\r\n").dropFirst().map { line in
            let cells = line.split(separator: ",", omittingEmptySubsequences: false)
            return "\(cells[0])/\(cells[21])"
        }
    }

    @Test(arguments: [1, 2, 5, 500])
    func everyTapOnceInOrderWithTheDamagedSessionLeftOutWhole(pageSize: Int) async throws {
        let store = try await filledStore()
        let sink = ExportSink.memory()
        let all = SessionSource(.stored(model: nil, includeVoid: true, includeSimulated: true), pageSize: pageSize)
        try await CSVTapExporter().export(all, from: store, to: sink)
        let expected = Self.tapCounts.enumerated().flatMap { index, count in
            let id = String(format: "S-p%02d", index)
            return id == Self.damaged ? [] : (0..<count).map { "\(id)/\($0)" }
        }
        let written = rows(of: sink.text)
        #expect(written.count == expected.count)
        // The first row out of place, named rather than both lists of 16,000 rows printed.
        let misplaced = zip(written, expected).enumerated().first { $0.element.0 != $0.element.1 }
        #expect(
            misplaced == nil,
            "row \(misplaced?.offset ?? 0): \(misplaced?.element.0 ?? "") where \(misplaced?.element.1 ?? "") belongs")
        #expect(store.damage.contains(Self.damaged))
    }
}
