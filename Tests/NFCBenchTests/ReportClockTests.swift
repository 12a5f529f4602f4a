import Foundation
import NFCBench
import Testing

/// Reports show local time with its offset under `TZ`, across daylight saving, and say
/// when `TZ` names no zone instead of silently printing UTC.
@Suite("Report clock")
struct ReportClockTests {
    let winter = Date(timeIntervalSince1970: 1_796_225_539)  // 2026-12-02T15:32:19Z
    let summer = Date(timeIntervalSince1970: 1_783_006_339.25)  // 2026-07-02T15:32:19.25Z

    @Test func localTimeCarriesItsOffsetAcrossDaylightSaving() throws {
        let berlin = ReportClock.fromEnvironment(["TZ": "Europe/Berlin"])
        #expect(berlin.problem == nil)
        #expect(berlin.local(winter) == "2026-12-02 16:32:19 +01:00")
        #expect(berlin.local(summer) == "2026-07-02 17:32:19 +02:00")
        #expect(berlin.timeOfDay(summer) == "17:32:19.250")
        #expect(berlin.zoneWords(at: winter) == "Europe/Berlin, UTC+01:00")
        let newYork = ReportClock.fromEnvironment(["TZ": ":America/New_York"])
        #expect(newYork.local(winter) == "2026-12-02 10:32:19 -05:00")
        let kolkata = ReportClock.fromEnvironment(["TZ": "Asia/Kolkata"])
        #expect(kolkata.local(winter) == "2026-12-02 21:02:19 +05:30")
        // Across midnight, the date is the local one.
        let tokyo = ReportClock.fromEnvironment(["TZ": "/usr/share/zoneinfo/Asia/Tokyo"])
        #expect(tokyo.local(winter) == "2026-12-03 00:32:19 +09:00")
    }

    @Test func aZoneNameNobodyKnowsIsSaidNotGuessed() {
        let bogus = ReportClock.fromEnvironment(["TZ": "Mars/Olympus_Mons"])
        #expect(bogus.local(winter) == "2026-12-02 15:32:19 +00:00")
        #expect(bogus.problem?.contains("TZ=Mars/Olympus_Mons is not a time zone name") == true)
        #expect(bogus.problem?.contains("Europe/Berlin") == true)
        #expect(ReportClock.fromEnvironment(["TZ": "UTC"]).zoneWords(at: winter) == "UTC")
    }

    /// A damaged record's instant out of any calendar's range is no time to print: it prints
    /// as nothing, the heading names the zone at offset zero, and nothing traps.
    @Test func instantsOutOfRangeDoNotTrap() {
        let clock = ReportClock.fromEnvironment(["TZ": "Europe/Berlin"])
        for seconds in [Double.infinity, -Double.infinity, .nan, 1e300, -1e300] {
            let instant = Date(timeIntervalSince1970: seconds)
            #expect(clock.local(instant) == "", "\(seconds)")
            #expect(clock.timeOfDay(instant) == "", "\(seconds)")
            #expect(clock.zoneWords(at: instant) == "Europe/Berlin, UTC+00:00", "\(seconds)")
        }
        // The edge of what is printed: a far but finite instant still reads as a wall clock.
        let far = Date(timeIntervalSince1970: 4_102_444_800)  // 2100-01-01 00:00:00 UTC
        #expect(clock.local(far) == "2100-01-01 01:00:00 +01:00")
    }
}
