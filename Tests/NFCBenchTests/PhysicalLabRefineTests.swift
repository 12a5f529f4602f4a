import Foundation
import NFCBench
import NFCBenchRecords
import NFCLocatorCore
import NFCPhysics
import NFCReaders
import Testing

/// `SimulatedLab` in the physical world, as `bench/refine` runs it by default: sessions on
/// benches whose readers differ, each recording its reader, graded as the emulated PN532
/// grades (the chip's rung law in it), and `refine` pooling them into one coil in mm.
extension RefinementTests {
    /// A Galaxy S24 (70.6 x 147.0 mm) whose 40 x 30 mm coil is centred at (35.3, 70) mm, on a
    /// 3 mm gap, read by a chip whose rung law (exponent 1.3) the fit does not know.
    static func physicalPhone() -> (phone: SimulatedPhone, centre: (x: Double, y: Double)) {
        let profile = seedProfile("SM-S921B")
        let height = profile.bodyHeightMm!, width = height * profile.aspectRatio
        var phone = SimulatedPhone(
            antenna: ((width / 2 - 20) / width, 55 / height, 40 / width, 30 / height), aspectRatio: profile.aspectRatio,
            missRate: 0.03)
        phone.readHeightMm = 20
        phone.couplingModel = .mutualInductance(
            PhysicalBench(
                reader: ReaderAntenna(widthMm: 35, heightMm: 30), bodyHeightMm: height, gapMm: 3, rungFieldExponent: 1.3))
        return (phone, (width / 2, 70))
    }

    @Test func twoBenchesWhoseReadersDifferPoolIntoOneCoil() throws {
        let (phone, centre) = Self.physicalPhone()
        var lab = SimulatedLab(model: "SM-S921B", phone: phone, plan: .grid, seed: seedCatalog, randomSeed: 11)
        lab.learns = false
        lab.coupling = .standard
        lab.readers = [20, 60].map { ReaderGeometry(antennaWidthMm: $0, antennaHeightMm: $0, gapMm: 3, source: "option") }
        let first = lab.runSession(), second = lab.runSession()
        #expect(first.session.readerGeometry?.antennaWidthMm == 20 && second.session.readerGeometry?.antennaWidthMm == 60)
        // Each bench's phone couples under its own reader: the 60 mm reader reads where the
        // 20 mm one, over the same coil, does not.
        let reads = [first, second].map { Set($0.taps.filter { $0.result == .hit }.map(\.probe)) }
        #expect(reads[1].subtracting(reads[0]).count > 0, "the larger reader reads farther out")
        for session in [first, second] {
            let hits = session.taps.filter { $0.result == .hit }
            #expect(!hits.isEmpty && hits.allSatisfy { $0.coupling != nil }, "every read graded")
        }
        let entry = try #require(lab.refine().entries.first)
        let coil = try #require(entry.coil, "the sessions record their readers, so refine fits the coil")
        #expect(entry.coilSessions == 2 && coil.benches == 2)
        #expect(
            hypot(coil.centreX.value - centre.x, coil.centreY.value - centre.y) < 3,
            "coil centre (\(coil.centreX.value), \(coil.centreY.value)) against (\(centre.x), \(centre.y))")
    }

    /// Readers given to a lab whose phone couples by the linear model would record an
    /// antenna the phone's world never used: a programmer's error, trapped.
    @Test func aLinearWorldTakesNoReaders() async {
        await #expect(processExitsWith: .failure) {
            var lab = SimulatedLab(
                model: "SM-S921B", phone: SimulatedPhone(antenna: (0.2, 0.2, 0.5, 0.2)), plan: .grid, seed: seedCatalog,
                randomSeed: 1)
            lab.readers = [ReaderGeometry(antennaWidthMm: 40, antennaHeightMm: 40, gapMm: 3, source: "option")]
        }
    }
}
