import Foundation
import NFCBenchUseCases
import Testing

/// Session ids sort by time and all have one length, whatever the random part.
@Suite("Session identifiers")
struct SessionIdentifierTests {
    @Test(arguments: [(UInt16(0), "0000"), (0x1e1, "01e1"), (0x6a7, "06a7"), (0x4f2a, "4f2a"), (0xffff, "ffff")])
    func theRandomPartKeepsItsLeadingZeros(suffix: UInt16, written: String) {
        let id = SessionIdentifier.make(now: Date(timeIntervalSince1970: 1_796_218_946), suffix: suffix)
        #expect(id == "S-20261202-134226-" + written)
    }

    @Test func everyIdHasTheSameShape() {
        let shape = /S-[0-9]{8}-[0-9]{6}-[0-9a-f]{4}/
        for _ in 0..<2_000 {
            let id = SessionIdentifier.make()
            #expect(id.count == 22 && id.wholeMatch(of: shape) != nil, "\(id)")
        }
    }
}
