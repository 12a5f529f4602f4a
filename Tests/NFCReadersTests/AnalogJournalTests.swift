import Foundation
import NFCReaders
import Testing

/// The analog journal: what a reader's field was before nfcbench weakened it, read back on
/// the next open (docs/coupling.md).
@Suite struct AnalogJournalTests {
    @Test func aJournalWrittenIsReadBackPendingAndCleared() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nfcb-journal-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let journal = AnalogJournal.fromEnvironment(["NFCBENCH_STATE_DIR": folder])
        #expect(journal.directoryPath == folder + "/analog")
        #expect(journal.original(for: "pn532_uart:/dev/ttyUSB0") == nil)
        let weakened: [UInt8] = [0x29, 0xF4, 0x11, 0x11, 0x4D, 0x85, 0x61, 0x6F, 0x26, 0x62, 0x87]
        #expect(journal.record(weakened, for: "pn532_uart:/dev/ttyUSB0"))
        #expect(journal.original(for: "pn532_uart:/dev/ttyUSB0") == weakened)
        #expect(journal.pending() == ["pn532_uart:/dev/ttyUSB0"])
        journal.clear(for: "pn532_uart:/dev/ttyUSB0")
        #expect(journal.original(for: "pn532_uart:/dev/ttyUSB0") == nil)
        #expect(journal.pending().isEmpty)
    }

    /// A journal file that is not the journal's text (bytes that are not UTF-8, a short
    /// line) is damaged, not absent: the reader gets the PN532's defaults back.
    @Test func aDamagedJournalReadsAsTheDefaults() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nfcb-journal-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let journal = AnalogJournal(path: folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let file = folder + "/" + ReaderStateFolder.fileName("pn532_uart:/dev/ttyUSB0")
        for damage in [Data([0x29, 0x20, 0xFF, 0xFE, 0x0A]), Data("29 F4\npn532_uart:/dev/ttyUSB0\n".utf8)] {
            try damage.write(to: URL(fileURLWithPath: file))
            #expect(journal.original(for: "pn532_uart:/dev/ttyUSB0") == AnalogProfile.pn532Default.settings)
        }
    }
}
