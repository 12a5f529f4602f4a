import Foundation
import NFCBench
import NFCBenchRecords
import NFCBenchSeams
import NFCLocatorCore
import NFCTestSupport
import Testing

/// Where to put the phone, in words a technician's hands can follow.
@Suite("Position words")
struct PositionWordsTests {
    static let seed: [DeviceAntennaProfile] = {
        let document = try! CatalogDocumentDecoder.load(contentsOf: Checkout.seedCatalog)
        return Catalog(document: document).profiles
    }()

    /// Every seed entry has a published body size, and every plan's positions get words
    /// in millimetres that tell them apart: two positions share words only when they
    /// are the same place to within a millimetre (the adaptive plan taps a surprising
    /// miss twice).
    @Test(arguments: PlanKind.allCases)
    func millimetresAndDistinctWordsForEverySeedEntry(_ kind: PlanKind) throws {
        #expect(Self.seed.count >= 30)
        for profile in Self.seed {
            let body = try #require(BodyMillimetres(profile: profile), "\(profile.modelIdentifier) has no body size")
            let words = PositionWords(body: body)
            // A raster is laid out from the body; the other plans from the prediction, a coil
            // plan with a reader's antenna too.
            let reader = ReaderGeometry(antennaWidthMm: 40, antennaHeightMm: 40, gapMm: 3, source: "operator")
            let plan: any ProbeStrategy =
                kind == .raster
                ? try #require(RasterPlan(stepMm: 5, bodyWidthMm: body.width, bodyHeightMm: body.height))
                : ProbePlans.make(
                    kind, around: profile.zone, aspectRatio: profile.aspectRatio,
                    physics: PlanPhysics(reader: reader, bodyHeightMm: body.height))
            if kind == .coil { #expect(plan is CoilPlan, "a coil plan with its physics is one") }
            // Where the prediction is right, and where the antenna is elsewhere (the plan
            // then searches the back).
            let elsewhere = try NormalizedRect(x: 0.05, y: 0.8, width: 0.3, height: 0.15)
            for truth in [profile.zone, elsewhere] {
                let probes = plan.expectedProbes(for: truth)
                if let adaptive = plan as? AdaptivePlan {
                    #expect(probes.count < adaptive.maximumPositions, "the bound the run tells is never reached")
                }
                let texts = probes.map(words.words)
                for (text, group) in Dictionary(grouping: probes, by: words.words) where group.count > 1 {
                    let points = group.map(body.position)
                    let spread = points.map { hypot($0.fromLeft - points[0].fromLeft, $0.fromTop - points[0].fromTop) }.max()!
                    #expect(spread <= 1.0, "\(profile.modelIdentifier) \(kind): '\(text)' names places \(spread) mm apart")
                }
                #expect(texts.allSatisfy { $0.hasPrefix("reader centre ") && $0.contains(" mm ") && !$0.contains("0.") })
            }
        }
    }

    /// Always from the top and left edges, whichever is nearer: one reference corner
    /// in prompts, template, report and JUnit.
    @Test func millimetresFromTheTopLeftCorner() {
        let words = PositionWords(body: BodyMillimetres(width: 70, height: 150))
        #expect(words.words(Probe(x: 0.2, y: 0.1)) == "reader centre 15 mm below the top edge, 14 mm from the left edge")
        #expect(words.words(Probe(x: 0.9, y: 0.8)) == "reader centre 120 mm below the top edge, 63 mm from the left edge")
        #expect(
            words.words(Probe(x: 0.5, y: 0.5)) == "reader centre 75 mm below the top edge, 35 mm from the left edge (centred)")
        #expect(words.words(Probe(x: 0.05, y: 0.02)) == "reader centre 3 mm below the top edge, 3.5 mm from the left edge")
        #expect(words.orientation.contains("below the top edge and from the left edge"))
        #expect(words.orientation.contains("back of the phone facing you, top edge up"))
        let body = BodyMillimetres(width: 70, height: 150)
        #expect(body.words(Probe(x: 0.9, y: 0.8)) == "120 mm below the top edge, 63 mm from the left edge")
    }

    @Test func fractionsWhenNoBodySizeIsPublishedAndSaysSo() {
        let words = PositionWords(body: nil)
        #expect(
            words.words(Probe(x: 0.17, y: 0.9))
                == "reader centre 0.90 of the height below the top edge, 0.17 of the width from the left edge")
        #expect(words.orientation.contains("no published body size"))
    }
}
