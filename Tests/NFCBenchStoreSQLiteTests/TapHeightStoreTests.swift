import Foundation
import NFCBenchRecords
import NFCBenchStoreSQLite
import NFCTestSupport
import Testing

@Suite("A tap's height in the bench store")
struct TapHeightStoreTests {
    let scratch: TemporaryDirectory
    init() throws { scratch = try TemporaryDirectory("height") }

    /// A tap above the back keeps its height and its checksum; taps on the back stay as
    /// every earlier tap was stored (no height), so their checksums are unchanged.
    @Test func aTapAboveTheBackKeepsItsHeight() async throws {
        let store = try await SQLiteBenchStore.open(path: scratch.file("bench.sqlite"))
        try await store.insert(try sampleSession())
        let onBack = sampleTap(step: 0, hit: true)
        let above = TapRecord(
            sessionID: "S-1", step: 1, attempt: 0, probe: onBack.probe.at(heightMm: 7.5), insidePredicted: true, result: .miss,
            latencyMs: nil, technology: nil, uid: nil, timestamp: Date(timeIntervalSince1970: 1_790_000_001))
        try await store.record(onBack)
        try await store.record(above)
        let read = try await store.taps("S-1")
        #expect(read.map(\.probe.heightMm) == [0, 7.5])
        #expect(read == [onBack, above])
    }

    /// A graded HIT keeps its coupling and the profiles tried (migration 015), both inside
    /// its checksum; an ungraded tap stores neither, as before.
    @Test func aGradedHitKeepsItsCoupling() async throws {
        let store = try await SQLiteBenchStore.open(path: scratch.file("graded.sqlite"))
        try await store.insert(try sampleSession())
        var graded = sampleTap(step: 0, hit: true)
        graded.coupling = 2.0 / 3
        graded.couplingTried = "default read, CWGsP 30 read, CWGsP 24 read, CWGsP 18 read, CWGsP 10 no answer"
        let plain = sampleTap(step: 1, hit: false)
        try await store.record(graded)
        try await store.record(plain)
        let read = try await store.taps("S-1")
        #expect(read == [graded, plain])
        #expect(read.map(\.coupling) == [2.0 / 3, nil])
        // Stored before taps named their ladder (migration 016): the column stays empty,
        // and the row's checksum holds without it.
        #expect(read.map(\.couplingLadder) == [nil, nil])
    }

    /// A grade names the ladder it is a share of (migration 016), inside the checksum.
    @Test func aGradeKeepsItsLadder() async throws {
        let store = try await SQLiteBenchStore.open(path: scratch.file("ladder.sqlite"))
        try await store.insert(try sampleSession())
        var graded = sampleTap(step: 0, hit: true)
        graded.coupling = 0.2
        graded.couplingTried = "default read, CWGsP 3B read, CWGsP 37 read, CWGsP 33 no answer"
        graded.couplingLadder = "pn53x-11"
        var checked = sampleTap(step: 1, hit: false)
        checked.couplingTried = "default no answer, CWGsP 1F no answer"
        checked.couplingLadder = "pn53x-11"
        try await store.record(graded)
        try await store.record(checked)
        #expect(try await store.taps("S-1") == [graded, checked])
    }
}
