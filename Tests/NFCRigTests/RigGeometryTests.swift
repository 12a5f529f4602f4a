import NFCBenchRecords
import Testing

@testable import NFCRig

@Suite("Mapping the phone's back to machine coordinates")
struct RigGeometryTests {
    static func rig(x: String = "+X", y: String = "+Y", originX: Double = 40, originY: Double = 30) -> RigConfiguration {
        RigConfiguration(
            dialect: .grbl, originX: originX, originY: originY, xAxis: .init(x)!, yAxis: .init(y)!, safeZ: 32, tapZ: 2,
            feedXY: 3000, feedZ: 600, travelX: 200, travelY: 250, travelZ: 60, homes: true)
    }

    @Test func aPointOnTheBackLandsWhereTheJigPutsIt() {
        let g = RigGeometry(rig: Self.rig(), bodyWidthMm: 70.6, bodyHeightMm: 147)
        let p = g.machinePoint(x: 0.5, y: 0.25)
        #expect(abs(p.x - 75.3) < 1e-9)
        #expect(abs(p.y - 66.75) < 1e-9)
        let back = g.backPoint(machineX: p.x, machineY: p.y)
        #expect(abs(back.x - 0.5) < 1e-12 && abs(back.y - 0.25) < 1e-12)
    }

    /// A phone lying across the bed, top to the left: its x runs along -Y, its y along +X.
    @Test func aTurnedPhoneMapsAlongTheOtherAxes() {
        let g = RigGeometry(rig: Self.rig(x: "-Y", y: "+X", originX: 20, originY: 100), bodyWidthMm: 70, bodyHeightMm: 150)
        let p = g.machinePoint(x: 1, y: 1)
        #expect(abs(p.x - 170) < 1e-9)
        #expect(abs(p.y - 30) < 1e-9)
        let back = g.backPoint(machineX: 170, machineY: 30)
        #expect(abs(back.x - 1) < 1e-12 && abs(back.y - 1) < 1e-12)
    }

    @Test func aPlanOutsideTheTravelIsRefusedNamingThePosition() {
        let g = RigGeometry(rig: Self.rig(originY: 150), bodyWidthMm: 70.6, bodyHeightMm: 147)
        let probes = [Probe(x: 0.5, y: 0.2), Probe(x: 0.5, y: 0.9)]
        let why = g.unreachable(probes)
        #expect(why?.hasPrefix("position 2 (x 35.3 mm, y 132.3 mm from the top-left corner)") == true, "\(why ?? "")")
        #expect(why?.contains("outside travel-y 0...250 mm") == true)
        // An adaptive plan has no list yet: the back's corners must be in reach.
        #expect(g.unreachable([])?.contains("bottom-left corner") == true)
        #expect(RigGeometry(rig: Self.rig(), bodyWidthMm: 70.6, bodyHeightMm: 147).unreachable(probes) == nil)
    }
}

@Suite("Calibrating the jig against the published body")
struct JigCalibrationTests {
    static let rig = RigGeometryTests.rig()

    @Test func cornersThatMatchTheBodyGiveTheOriginAndAxes() throws {
        // A Galaxy S24 (70.6 x 147.0 mm) lying across the bed, its top towards -X.
        let jig = JigCalibration(topLeft: (150, 20), bottomRight: (3.2, 90.4))
        let rig = try jig.applied(to: Self.rig, publishedWidthMm: 70.6, publishedHeightMm: 147, model: "Galaxy S24")
        #expect(rig.originX == 150 && rig.originY == 20)
        #expect(rig.xAxis.description == "+Y" && rig.yAxis.description == "-X")
        let g = RigGeometry(rig: rig, bodyWidthMm: 70.6, bodyHeightMm: 147)
        let corner = g.machinePoint(x: 1, y: 1)
        #expect(abs(corner.x - 3) < 1e-9 && abs(corner.y - 90.6) < 1e-9)
    }

    @Test func aMisalignedJigIsRefusedWithTheNumbers() {
        let jig = JigCalibration(topLeft: (40, 30), bottomRight: (110.6, 182.5))
        do {
            _ = try jig.applied(to: Self.rig, publishedWidthMm: 70.6, publishedHeightMm: 147, model: "Galaxy S24")
            Issue.record("a body 5.5 mm too long was accepted")
        } catch {
            #expect(error.description.contains("70.6 x 152.5 mm"), "\(error)")
            #expect(error.description.contains("5.5 mm off"), "\(error)")
        }
        // Within 2 mm is accepted.
        #expect(
            (try? JigCalibration(topLeft: (40, 30), bottomRight: (111.9, 178.5)).applied(
                to: Self.rig, publishedWidthMm: 70.6, publishedHeightMm: 147, model: "S24")) != nil)
    }

    /// The marks `rig calibrate` collects make the rig only when all three are there: the
    /// tap height marked, the stroke above it kept, the jig marked, and a file that reads back.
    @Test func marksMakeTheRigOnlyWhenComplete() throws {
        var marks = JigMarks()
        marks.topLeft = (40, 30)
        marks.bottomRight = (110.6, 177)
        #expect {
            try marks.calibrated(Self.rig, publishedWidthMm: 70.6, publishedHeightMm: 147, model: "S24")
        } throws: { "\($0)".contains("mark both corners (a, b) and the tap height (t) first") }
        marks.tapZ = 12.5
        let rig = try marks.calibrated(Self.rig, publishedWidthMm: 70.6, publishedHeightMm: 147, model: "S24")
        #expect(rig.tapZ == 12.5 && rig.jigMarked && rig.originX == 40 && rig.originY == 30)
        #expect(rig.safeZ - rig.tapZ == min(Self.rig.safeZ - Self.rig.tapZ, Self.rig.travelZ - 12.5))
        #expect(try RigConfiguration.parse(rig.text) == rig)
    }
}
