import Foundation
import NFCStore
import NFCTestSupport
import Testing

@Suite("SQLite wrapper")
struct SQLiteDatabaseTests {
    let scratch: TemporaryDirectory
    init() throws { scratch = try TemporaryDirectory("sqlite") }

    @Test func boundValuesRoundTripWhateverTheyHold() throws {
        let db = try SQLiteDatabase(path: scratch.database())
        try db.execute("CREATE TABLE t (a, b, c, d, e)")
        let hostile = "x'); DROP TABLE t; --\u{0}\u{1B}[2J"
        // A NUL inside a text once ended it there: stored shorter, silently.
        try db.prepare("INSERT INTO t VALUES (?, ?, ?, ?, ?)").run([
            .text(hostile), .integer(.min), .real(-0.0), .blob(Data([0, 255, 0])), .text(""),
        ])
        let read = try db.prepare("SELECT a, b, c, d, e FROM t")
        #expect(try read.step())
        #expect(read.value(0) == .text(hostile) && read.value(1) == .integer(.min))
        #expect(read.value(2) == .real(-0.0) && read.value(3) == .blob(Data([0, 255, 0])))
        #expect(read.value(4) == .text(""), "the empty text is text, not NULL")
        #expect(try read.step() == false)
    }

    @Test func aFailedTransactionLeavesNothingBehind() throws {
        struct Boom: Error {}
        let db = try SQLiteDatabase(path: scratch.database())
        try db.execute("CREATE TABLE t (v INTEGER)")
        #expect(throws: Boom.self) {
            try db.transaction {
                try db.prepare("INSERT INTO t VALUES (1)").run()
                throw Boom()
            }
        }
        let count = try db.prepare("SELECT count(*) FROM t")
        _ = try count.step()
        #expect(count.int(0) == 0)
    }

    @Test func badSQLIsATypedErrorNamingWhere() throws {
        let db = try SQLiteDatabase(path: scratch.database())
        do {
            _ = try db.prepare("SELEC nonsense")
            Issue.record("prepared bad SQL")
        } catch {
            #expect(error.description.contains("syntax error"), "\(error)")
        }
    }

    @Test func theChecksumSeesAFlippedBitAndTellsTypesApart() {
        let row: [SQLiteStatement.Value] = [.integer(42), .text("SM-S921B"), .real(0.25)]
        #expect(RowChecksum.of(row) == RowChecksum.of(row))
        #expect(RowChecksum.of(row) != RowChecksum.of([.integer(43), .text("SM-S921B"), .real(0.25)]))
        #expect(RowChecksum.of([.integer(1)]) != RowChecksum.of([.real(1)]))
        #expect(RowChecksum.of([.text("ab"), .text("c")]) != RowChecksum.of([.text("a"), .text("bc")]))
    }
}
