import Foundation
import NFCBench
import NFCBenchRecords
import NFCBenchStoreSQLite
import NFCLocatorCore
import NFCTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The tap CSV through the exporter seam, with no CLI in between.
@Suite("CSV tap exporter")
struct CSVTapExporterTests {
    let scratch: TemporaryDirectory
    init() throws { scratch = try TemporaryDirectory("csv") }

    func filledStore() async throws -> (SQLiteBenchStore, SessionRecord) {
        let store = try await SQLiteBenchStore.open(path: scratch.file("bench.sqlite"))
        var session = testSession("S-csv", predicted: try NormalizedRect(x: 0.1, y: 0.36, width: 0.8, height: 0.38))
        session.operatorName = "=cmd|' /C calc'!A0"
        try await store.insert(session)
        for step in 0..<3 {
            try await store.record(
                TapRecord(
                    sessionID: "S-csv", step: step, attempt: 0, probe: Probe(x: 0.5, y: 0.2 * Double(step + 1)),
                    insidePredicted: step > 0, result: step == 1 ? .hit : .miss, latencyMs: step == 1 ? 42.25 : nil,
                    technology: step == 1 ? "ISO14443A" : nil, uid: step == 1 ? "08A1B2C3" : nil,
                    timestamp: Date(timeIntervalSince1970: 1_790_000_000 + Double(step))))
        }
        return (store, session)
    }

    @Test func oneRowPerTapWithTheSessionCellsAndNeutralisedText() async throws {
        let (store, session) = try await filledStore()
        let sink = ExportSink.memory()
        try await CSVTapExporter().export([session], from: store, to: sink)
        let rows = sink.text.components(separatedBy: "\r\n")
        #expect(rows[0] == CSVFormat.columns.joined(separator: ","))
        #expect(rows.count == 5 && rows[4].isEmpty)  // header, 3 taps, trailing empty
        #expect(
            rows[1].hasPrefix("S-csv,in_progress,SM-S921B,sm_s921b,Galaxy S24,unit-1,'=cmd|' /C calc'!A0,sim,nfcbench-sim,grid,,")
        )
        // printf's rounding of the exact binary value: 42.25 is exact, so half to even.
        #expect(
            rows[2].hasSuffix(
                ",1,0,0.5000,0.4000,true,HIT,42.2,ISO14443A,08A1B2C3,,,,,2026-09-21T14:13:21.000Z,false,,,card,,,,,0.000,,,,"),
            "\(rows[2])"
        )
    }

    /// A write that fails (a full disk) is an error with its reason, never a silent success.
    /// The ladder cell says what scale the grade is on: the stored name, quoted and
    /// neutralised like any stored text (a database may hold anything), or for a tap
    /// stored before the name was, the ladder its walk identifies.
    @Test func theLadderCellNamesTheGradesScale() throws {
        let session = testSession("S-csv", predicted: try NormalizedRect(x: 0.1, y: 0.36, width: 0.8, height: 0.38))
        var tap = TapRecord(
            sessionID: "S-csv", step: 0, attempt: 0, probe: Probe(x: 0.5, y: 0.5), insidePredicted: false, result: .hit,
            timestamp: Date(timeIntervalSince1970: 1_790_000_000), coupling: 0.5,
            couplingTried: "default read, CWGsP 30 read, CWGsP 24 read, CWGsP 18 read, CWGsP 10 no answer")
        #expect(CSVFormat.row(session, tap).hasSuffix(",0.5000,pn53x-7,,\r\n"))
        tap.couplingLadder = "=HYPERLINK(\"x\",\"y\")"
        #expect(CSVFormat.row(session, tap).hasSuffix(",0.5000,\"'=HYPERLINK(\"\"x\"\",\"\"y\"\")\",,\r\n"))
        tap.coupling = nil; tap.couplingTried = nil; tap.couplingLadder = nil
        #expect(CSVFormat.row(session, tap).hasSuffix(",0.000,,,,\r\n"))
    }

    @Test func aFailedWriteIsReported() async throws {
        let (store, session) = try await filledStore()
        let full = open("/dev/full", O_WRONLY)
        try #require(full >= 0)
        defer { close(full) }
        await #expect(throws: ExportError.self) {
            try await CSVTapExporter().export([session], from: store, to: ExportSink(descriptor: full, name: "/dev/full"))
        }
    }

    /// A unit held back in the sink (an export's session) is written whole or not at all,
    /// even when it spans several 64 KiB flushes of what came before it.
    @Test func aDroppedUnitLeavesNoByteAndAKeptOneSpansFlushes() throws {
        let path = scratch.file("units.out")
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        #expect(fd >= 0)
        let sink = ExportSink(descriptor: fd, name: path)
        let kept = [UInt8](repeating: UInt8(ascii: "k"), count: 100_000)
        let dropped = [UInt8](repeating: UInt8(ascii: "d"), count: 150_000)
        try sink.append("head\n")
        sink.startUnit()
        for chunk in stride(from: 0, to: kept.count, by: 1000) { try sink.append(Array(kept[chunk..<chunk + 1000])) }
        sink.endUnit(keep: true)
        sink.startUnit()
        for chunk in stride(from: 0, to: dropped.count, by: 1000) { try sink.append(Array(dropped[chunk..<chunk + 1000])) }
        sink.endUnit(keep: false)
        try sink.append("tail\n")
        try sink.flush()
        close(fd)
        let written = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(written == Data("head\n".utf8) + Data(kept) + Data("tail\n".utf8))
        #expect(sink.bytesWritten == written.count)
    }
}
