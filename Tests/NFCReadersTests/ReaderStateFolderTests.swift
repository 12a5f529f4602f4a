import Foundation
import NFCReaders
import Testing

@Suite struct ReaderStateFolderTests {
    @Test func theStateDirectoryWinsThenXDGThenHome() {
        let all = ["NFCBENCH_STATE_DIR": "/lab/state", "XDG_STATE_HOME": "/xdg", "HOME": "/home/tech"]
        #expect(ReaderStateFolder.path("analog", environment: all) == "/lab/state/analog")
        var noState = all
        noState["NFCBENCH_STATE_DIR"] = ""
        #expect(ReaderStateFolder.path("analog", environment: noState) == "/xdg/nfcbench/analog")
        noState["XDG_STATE_HOME"] = ""
        #expect(ReaderStateFolder.path("picc", environment: noState) == "/home/tech/.local/state/nfcbench/picc")
        #expect(ReaderStateFolder.path("picc", environment: ["HOME": "/h"]) == "/h/.local/state/nfcbench/picc")
    }

    @Test func oneSlashBetweenFolderAndNameAndTheURLNamesTheSamePlace() {
        #expect(ReaderStateFolder.path("analog", environment: ["NFCBENCH_STATE_DIR": "/lab/state/"]) == "/lab/state/analog")
        #expect(ReaderStateFolder.path("analog", environment: ["XDG_STATE_HOME": "/x/"]) == "/x/nfcbench/analog")
        for env in [["NFCBENCH_STATE_DIR": "/lab/state/"], ["XDG_STATE_HOME": "/x"], ["HOME": "/home/tech"]] {
            #expect(ReaderStateFolder.url("analog", environment: env).path == ReaderStateFolder.path("analog", environment: env))
        }
    }

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
}
