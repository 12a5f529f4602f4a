import Foundation
import NFCBench
import NFCBenchRecords
import NFCLocatorCore
import NFCReaders
import Testing

/// A simulated lab whose hand places the phone a little off the position asked for
/// (`SimulatedLab.placementJitter`): each tap is judged where the phone landed and
/// recorded where it was asked for, as at a real bench.
@Suite("Placement jitter in a simulated lab")
struct PlacementJitterTests {
    static func lab(jitter: Double, seed: UInt64 = 7) -> SimulatedLab {
        var lab = SimulatedLab(
            model: "SM-S921B",
            phone: SimulatedPhone(antenna: (0.1, 0.36, 0.8, 0.38), aspectRatio: seedProfile("SM-S921B").aspectRatio),
            plan: .adaptive, seed: seedCatalog, randomSeed: seed)
        lab.placementJitter = jitter
        return lab
    }

    /// Without jitter a placement lands where it was asked for, so every study before the
    /// jitter existed draws the same taps.
    @Test func withoutJitterAPlacementLandsOnItsPosition() {
        let lab = Self.lab(jitter: 0)
        for n in 1...20 {
            let landed = lab.landing(session: 0, Probe(x: 0.4, y: 0.6), UInt64(n))
            #expect(landed.x == 0.4 && landed.y == 0.6)
        }
    }

    /// Landings scatter around the position as a normal of the given spread on each axis,
    /// in body heights (x in fractions of the width, so divided by the aspect ratio), and
    /// the same placement always lands in the same place.
    @Test func landingsScatterWithTheGivenSpread() {
        let spread = 0.01
        let lab = Self.lab(jitter: spread)
        let aspect = lab.phone.aspectRatio
        let probe = Probe(x: 0.5, y: 0.5)
        let landings = (1...2_000).map { lab.landing(session: 0, probe, UInt64($0)) }
        let dx = landings.map { ($0.x - probe.x) * aspect }, dy = landings.map { $0.y - probe.y }
        func mean(_ v: [Double]) -> Double { v.reduce(0, +) / Double(v.count) }
        func deviation(_ v: [Double]) -> Double { (mean(v.map { $0 * $0 }) - mean(v) * mean(v)).squareRoot() }
        #expect(abs(mean(dx)) < 0.001 && abs(mean(dy)) < 0.001, "\(mean(dx)), \(mean(dy))")
        #expect(abs(deviation(dx) - spread) < 0.001 && abs(deviation(dy) - spread) < 0.001)
        #expect(lab.landing(session: 0, probe, 5) == lab.landing(session: 0, probe, 5))
        #expect(lab.landing(session: 0, probe, 5) != lab.landing(session: 1, probe, 5))
    }

    /// A landing off the back's edge stays on the back.
    @Test func aLandingStaysOnTheBack() {
        let lab = Self.lab(jitter: 0.05)
        for n in 1...500 {
            let landed = lab.landing(session: 0, Probe(x: 0, y: 1), UInt64(n))
            #expect((0...1).contains(landed.x) && (0...1).contains(landed.y))
        }
    }

    /// A session's taps are recorded where they were asked for: its first is the
    /// predicted centre, exactly, whatever the hand did. Jittered landings change what
    /// some positions read.
    @Test func tapsAreRecordedWhereTheyWereAskedFor() throws {
        var exact = Self.lab(jitter: 0), shaky = Self.lab(jitter: 0.02)
        let centre = try #require(exact.resolution.zone)
        let steady = exact.runSession(), jittered = shaky.runSession()
        let first = try #require(steady.taps.first), shakyFirst = try #require(jittered.taps.first)
        #expect(first.probeX == shakyFirst.probeX && first.probeY == shakyFirst.probeY)
        #expect(abs(first.probeX - centre.midX) < 1e-3 && abs(first.probeY - centre.midY) < 1e-3)
        let outcomes = { (s: SessionEvidence) in s.taps.map { "\($0.probeX),\($0.probeY):\($0.result)" } }
        #expect(outcomes(steady) != outcomes(jittered), "the hand changed nothing")
    }
}
