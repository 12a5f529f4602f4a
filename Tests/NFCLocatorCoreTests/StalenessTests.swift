import Foundation
import Testing

@testable import NFCLocatorCore

@Suite("Staleness")
struct StalenessTests {
    static let verifiedAt = "2026-01-01T00:00:00Z"
    static let base = try! Date("2026-01-01T00:00:00Z", strategy: .iso8601)

    @Test(arguments: [(179, false), (180, false), (181, true)])
    func approximateAgesOut(days: Int, stale: Bool) throws {
        let profile = try DeviceAntennaProfile(entry: sampleEntry(lastVerifiedAt: Self.verifiedAt))
        #expect(profile.confidence == .approximate)
        #expect(profile.isStale(now: Self.base.addingTimeInterval(Double(days) * 86_400)) == stale)
    }

    @Test func oneSecondPast180DaysIsStale() throws {
        let profile = try DeviceAntennaProfile(entry: sampleEntry(lastVerifiedAt: Self.verifiedAt))
        #expect(profile.isStale(now: Self.base.addingTimeInterval(180 * 86_400 + 1)))
    }

    @Test func neverVerifiedApproximateIsStale() throws {
        let profile = try DeviceAntennaProfile(entry: sampleEntry(lastVerifiedAt: nil))
        #expect(profile.isStale(now: Self.base))
    }

    @Test(arguments: [nil, "2001-01-01T00:00:00Z"])
    func exactIsNeverStale(lastVerifiedAt: String?) throws {
        let profile = try DeviceAntennaProfile(entry: sampleEntry(verified: true, lastVerifiedAt: lastVerifiedAt))
        #expect(profile.confidence == .exact)
        #expect(!profile.isStale(now: Self.base.addingTimeInterval(3650 * 86_400)))
    }

    @Test(arguments: ["2026-01-01", "2026-01-01T00:00:00.000Z", "2026-01-01T01:00:00+01:00"])
    func acceptsCommonISO8601Forms(text: String) throws {
        let profile = try DeviceAntennaProfile(entry: sampleEntry(lastVerifiedAt: text))
        #expect(profile.lastVerifiedAt == Self.base)
    }

    @Test func staleApproximateIsPairedWithSweep() {
        let resolver = AntennaZoneResolver(remote: nil, seed: catalog([sampleEntry(lastVerifiedAt: nil)]))
        let fp = DeviceFingerprint(manufacturer: "samsung", model: "sm_s921b")
        let r = resolver.resolve(fp, signals: DeviceIdentitySignals(model: "x"), now: Self.base)
        guard case .staleMarker(let marker, let sweep) = r.guidance else {
            Issue.record("expected a stale marker, got \(r.guidance)")
            return
        }
        #expect(marker.confidence == .approximate)
        #expect(sweep.hintKey == "nfc_locator.marker.stale_hint")
        #expect(sweep.sweepRegion!.intersectionArea(with: marker.zone) == marker.zone.area)
        #expect(r.isStale)
    }

    @Test func freshApproximateStandsAlone() {
        let resolver = AntennaZoneResolver(remote: nil, seed: catalog([sampleEntry(lastVerifiedAt: Self.verifiedAt)]))
        let r = resolver.resolve(
            DeviceFingerprint(manufacturer: "", model: "sm_s921b"),
            signals: DeviceIdentitySignals(model: "x"), now: Self.base.addingTimeInterval(86_400))
        #expect(r.guidance == .marker(ResolvedMarker(zone: r.zone!, confidence: .approximate)))
    }
}
