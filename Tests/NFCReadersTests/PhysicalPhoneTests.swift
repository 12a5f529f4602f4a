import Foundation
import NFCPhysics
import Testing

@testable import NFCReaders

/// The simulated phone in the physical world (`SimulatedCoupling.mutualInductance`): what
/// the virtual bench and the studies see when the coupling is two loops'.
@Suite struct PhysicalPhoneTests {
    /// A Galaxy S24's body (70.6 x 147.0 mm) with a 40 x 30 mm coil centred 35 mm from the top.
    static func phone(readerMm: Double, readHeightMm: Double = 30, exponent: Double = 1) -> SimulatedPhone {
        var phone = SimulatedPhone(
            antenna: ((70.6 - 40) / 2 / 70.6, 20 / 147.0, 40 / 70.6, 30 / 147.0), aspectRatio: 70.6 / 147.0, missRate: 0.03)
        phone.readHeightMm = readHeightMm
        phone.couplingModel = .mutualInductance(
            PhysicalBench(
                reader: ReaderAntenna(widthMm: readerMm, heightMm: readerMm), bodyHeightMm: 147, gapMm: 3,
                rungFieldExponent: exponent))
        return phone
    }

    /// Along the coil's long axis: sure over the coil, never on the null ring, and read
    /// again in the outer lobe beyond it, which the linear model cannot do.
    @Test func theNullRingIsSilentAndTheOuterLobeReads() throws {
        let phone = Self.phone(readerMm: 20)
        let y = 35 / 147.0
        let xs = stride(from: 35.3, through: 70.6, by: 0.25).map { $0 / 70.6 }
        let chances = xs.map { phone.detectionProbability(x: $0, y: y) }
        #expect(abs(chances[0] - 0.97) < 1e-6)
        let silent = try #require(chances.firstIndex { $0 < 1e-6 }, "no silent ring")
        let lobe = chances[silent...].indices.max { chances[$0] < chances[$1] }!
        #expect(chances[lobe] > 0.5, "the outer lobe reads: \(chances[lobe])")
        // The linear world reads nothing there: its edge band ends before the lobe.
        var linear = phone
        linear.couplingModel = .linear
        #expect(linear.detectionProbability(x: xs[lobe], y: y) == 0)
        #expect(linear.detectionProbability(x: xs[0], y: y) > 0.9)
    }

    /// A rung of nominal threshold t reads where the margin times (1 - t)^exponent reaches
    /// 1: the chip's own law, which the coupling value the emulators compare with obeys.
    @Test(arguments: [1.0, 1.6])
    func rungsAnswerByTheChipsLaw(exponent: Double) throws {
        let phone = Self.phone(readerMm: 40, exponent: exponent)
        let physics = try #require(phone.physics)
        for (x, y) in [(35.3, 35.0), (50.0, 40.0), (58.0, 35.0), (35.3, 60.0)] {
            let margin = physics.margin(readerAtX: x, y: y)
            for t in CouplingLadder.standard.profiles.map(\.threshold) {
                let expected = margin * pow(1 - t, exponent) >= 1
                #expect(phone.answers(fieldThreshold: t, x: x / 70.6, y: y / 147) == expected, "at \(x), \(y) mm, t \(t)")
            }
        }
        // Raising the reader weakens the field it couples: the default field reads about
        // as high as the phone was set to read (30 mm), give or take its scatter.
        #expect(phone.detectionProbability(x: 35.3 / 70.6, y: 35 / 147, heightMm: 26) > 0.9)
        #expect(abs(phone.detectionProbability(x: 35.3 / 70.6, y: 35 / 147, heightMm: 30) - 0.97 / 2) < 1e-6)
        #expect(phone.detectionProbability(x: 35.3 / 70.6, y: 35 / 147, heightMm: 34) < 0.05)
    }
}
