import Foundation
import Testing

@testable import NFCPhysics

/// What two coupled loops do that a depth-inside-the-coil model cannot.
@Suite struct CoupledLoopTests {
    static let coil = RectangularLoop(centreX: 35, centreY: 40, widthMm: 40, heightMm: 30, turns: 4, pitchMm: 0.6)

    /// M along the coil's long axis, from its centre out, every 0.5 mm.
    static func profile(_ bench: BenchPhysics) -> [(offset: Double, m: Double)] {
        stride(from: 0.0, through: 90, by: 0.5).map {
            ($0, bench.mutualInductance(readerAtX: coil.centreX + $0, y: coil.centreY))
        }
    }

    /// Past the coil's edge the flux through the coil cancels (M = 0, the null ring), then
    /// turns negative: the outer lobe, whose strength at 3 mm is a sizable share of the peak.
    /// Both for a reader smaller than the coil and for one larger.
    @Test(arguments: [14.0, 20.0, 40.0, 60.0])
    func nullRingThenOuterLobe(readerMm: Double) throws {
        let bench = BenchPhysics(
            reader: ReaderAntenna(widthMm: readerMm, heightMm: readerMm), coil: Self.coil, gapMm: 3, readHeightMm: 20)
        let profile = Self.profile(bench)
        let peak = profile.map { abs($0.m) }.max()!
        let null = try #require(profile.firstIndex { $0.m < 0 }, "M never changes sign")
        let nullOffset = profile[null].offset
        // The ring lies outside the coil's edge (20 mm from its centre) and within a
        // reader's half-width of it: the reader's far side leaves the coil's field there.
        #expect(nullOffset > 20 && nullOffset <= 20 + readerMm / 2 + 1, "null at \(nullOffset) mm")
        let lobe = profile[null...].map { -$0.m }.max()!
        #expect(lobe / peak > 0.10 && lobe / peak < 0.40, "outer lobe \(lobe / peak) of the peak")
        // Beyond the lobe the coupling only fades.
        #expect(abs(profile.last!.m) < lobe / 2)
    }

    /// A reader smaller than the coil couples best near the coil's edge: there the field
    /// of the near side adds to the flux of the whole loop.
    @Test func aSmallReaderPeaksNearTheCoilsEdge() {
        let bench = BenchPhysics(
            reader: ReaderAntenna(widthMm: 14, heightMm: 14), coil: Self.coil, gapMm: 3, readHeightMm: 20)
        let profile = Self.profile(bench)
        let best = profile.max { $0.m < $1.m }!
        #expect(best.offset > 10 && best.offset < 20, "peak at \(best.offset) mm from the centre")
        #expect(best.m > profile[0].m * 1.05)
    }

    /// The read region: where |M| at the default field clears the phone's threshold. It
    /// grows with the reader and with the field and shrinks with height, so what a bench
    /// maps is the region, never the coil itself.
    @Test func theReadRegionDependsOnReaderFieldAndHeight() {
        let threshold = BenchPhysics(
            reader: ReaderAntenna(widthMm: 40, heightMm: 40), coil: Self.coil, gapMm: 3, readHeightMm: 20
        ).activationHenries
        func halfWidth(reader: Double, strength: Double = 1, height: Double = 0) -> Double {
            let bench = BenchPhysics(
                reader: ReaderAntenna(widthMm: reader, heightMm: reader), coil: Self.coil, gapMm: 3,
                activationHenries: threshold)
            return Array(stride(from: 0.0, through: 90, by: 0.25)).last {
                bench.answers(strength: strength, readerAtX: Self.coil.centreX + $0, y: Self.coil.centreY, heightMm: height)
            } ?? 0
        }
        let small = halfWidth(reader: 20), middle = halfWidth(reader: 40), large = halfWidth(reader: 60)
        #expect(small < middle && middle < large, "half-widths \(small), \(middle), \(large) mm")
        #expect(middle > 20, "a reader reads beyond the coil's edge: \(middle) mm")
        #expect(halfWidth(reader: 40, strength: 0.5) < middle && halfWidth(reader: 40, strength: 2) > middle)
        #expect(halfWidth(reader: 40, height: 8) < middle)
        // The threshold was set so the default field reads 20 mm above the centre, not 21.
        let bench = BenchPhysics(
            reader: ReaderAntenna(widthMm: 40, heightMm: 40), coil: Self.coil, gapMm: 3, activationHenries: threshold)
        #expect(bench.answers(strength: 1, readerAtX: 35, y: 40, heightMm: 19.9))
        #expect(!bench.answers(strength: 1, readerAtX: 35, y: 40, heightMm: 21))
    }
}
