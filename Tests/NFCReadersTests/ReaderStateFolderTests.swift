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
}
