import Foundation
import Testing

@testable import NFCLocatorCore

/// The hand-read form of catalog dates must give what Foundation gives, and leave to
/// Foundation everything it does not read itself.
@Suite("ISO 8601 dates read by hand")
struct ISO8601FastPathTests {
    @Test(arguments: [
        "1970-01-01T00:00:00Z", "2024-02-29T23:59:59Z", "2000-02-29T12:00:00Z", "2026-11-29T00:00:00Z",
        "2100-12-31T08:30:15Z", "1999-03-01T00:00:00Z",
    ])
    func agreesWithFoundation(_ text: String) throws {
        let fast = try #require(ISO8601Parsing.wholeSecondsUTC(text))
        #expect(fast == (try Date(text, strategy: .iso8601)))
    }

    @Test(arguments: [
        "2023-02-29T00:00:00Z", "2100-02-29T00:00:00Z", "2024-13-01T00:00:00Z", "2024-01-01T24:00:00Z",
        "2024-01-01T00:60:00Z", "2024-01-01T00:00:00+01:00", "2024-01-01T00:00:00.5Z", "2024-01-01", "2024-1-01T00:00:00Z",
    ])
    func leavesTheRestToFoundation(_ text: String) {
        #expect(ISO8601Parsing.wholeSecondsUTC(text) == nil)
    }
}
