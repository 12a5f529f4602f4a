import Foundation
import NFCBench
import NFCBenchRecords
import NFCBenchStoreSQLite
import NFCLocatorCore
import NFCReaders
import NFCTestSupport
import Testing

/// A stored grade is read on the ladder it was measured on. Grades from the seven-rung
/// ladder (builds of 2026-12-03 to 12-05) would place a coil at the wrong depth on the
/// eleven-rung scale the verdict and refine model, so they count as the plain reads they
/// also are, and the reports say so.
@Suite("Grades on their own ladder")
struct GradeLadderTests {
    let scratch: TemporaryDirectory
    init() throws { scratch = try TemporaryDirectory("grade-ladder") }

    static let phone = SimulatedPhone(
        antenna: (0.15, 0.56, 0.7, 0.3), aspectRatio: ReportFixture.session().aspectRatio, readerRadius: 0.0186,
        missRate: 0)

    /// A graded grid session over the fixture's phone as `ladder` grades it: each HIT walked
    /// down, worded as the walk words it; the ladder named unless `named` is false (a tap
    /// stored before migration 016).
    static func taps(_ session: SessionRecord, on ladder: CouplingLadder, named: Bool = true) -> [TapRecord] {
        let plan = ProbePlans.make(.grid, around: ReportFixture.predicted, aspectRatio: session.aspectRatio)
        return plan.expectedProbes(for: ReportFixture.antenna).enumerated().map { step, probe in
            let c = phone.coupling(x: probe.x, y: probe.y)
            let grade = c > 0 ? SimulatedLab.grade(c, on: ladder) : nil
            let tried = grade.map { g -> String in
                let top = ladder.profiles.count - 1, weakest = top - Int((g * Double(top)).rounded())
                var seen = (weakest..<top).reversed().map { ladder.profiles[$0].name + " read" }
                if weakest > 0 { seen.append(ladder.profiles[weakest - 1].name + " no answer") }
                return (["default read"] + seen).joined(separator: ", ")
            }
            return TapRecord(
                sessionID: session.id, step: step, attempt: 0, probe: probe,
                insidePredicted: ReportFixture.predicted.contains(x: probe.x, y: probe.y), result: c > 0 ? .hit : .miss,
                latencyMs: c > 0 ? 40 : nil, timestamp: ReportFixture.start + Double(step), coupling: grade,
                couplingTried: tried, couplingLadder: named && grade != nil ? ladder.name : nil)
        }
    }

    static func ungraded(_ taps: [TapRecord]) -> [TapRecord] {
        taps.map { t in
            var plain = t
            plain.coupling = nil; plain.couplingTried = nil; plain.couplingLadder = nil
            return plain
        }
    }

    @Test func aGradeCountsOnlyOnItsOwnLadder() {
        let session = ReportFixture.session()
        let standard = Self.taps(session, on: .standard), seven = Self.taps(session, on: .sevenRungs)
        let unnamedStandard = Self.taps(session, on: .standard, named: false)
        let unnamedSeven = Self.taps(session, on: .sevenRungs, named: false)
        let graded = standard.filter { $0.coupling != nil }
        #expect(graded.count >= 6 && Set(graded.compactMap(\.coupling)).count >= 3, "a spread of grades")
        #expect(standard.allSatisfy { $0.grade() == $0.coupling && !$0.gradeSetAside() })
        #expect(unnamedStandard.allSatisfy { $0.grade() == $0.coupling && $0.couplingLadderName == $0.gradedOn?.name })
        for taps in [seven, unnamedSeven] {
            #expect(taps.allSatisfy { $0.grade() == nil })
            #expect(taps.filter { $0.gradeSetAside() }.count == graded.count)
            #expect(taps.allSatisfy { $0.coupling == nil || $0.couplingLadderName == "pn53x-7" })
        }
        // A ladder this build does not know (a newer build's) is no scale to read either.
        var foreign = graded[0]
        foreign.couplingLadder = "pn53x-13"
        #expect(foreign.gradedOn == nil && foreign.grade() == nil && foreign.couplingLadderName == "pn53x-13")
    }

    /// The verdict and the report read a seven-rung session as its plain reads, and say
    /// how many grades they set aside; the same grades on the standard ladder are used.
    @Test func theReportSetsAsideAnotherLaddersGrades() async throws {
        let session = ReportFixture.session()
        let seven = ReportedSession(session, taps: Self.taps(session, on: .sevenRungs))
        let plain = ReportedSession(session, taps: Self.ungraded(Self.taps(session, on: .sevenRungs)))
        let standard = ReportedSession(session, taps: Self.taps(session, on: .standard))
        let graded = Self.taps(session, on: .standard).filter { $0.coupling != nil }.count
        #expect(standard.isGraded && standard.gradesSetAside.isEmpty)
        #expect(!seven.isGraded)
        #expect(seven.gradesSetAside.map(\.ladder) == ["pn53x-7"] && seven.gradesSetAside.map(\.taps) == [graded])
        #expect(seven.score.verdict == plain.score.verdict && seven.score.reason == plain.score.reason)
        #expect(seven.score.evidence?.strongestInside == nil && standard.score.evidence?.strongestInside != nil)

        let store = try await SQLiteBenchStore.open(path: scratch.file("bench.sqlite"))
        try await store.insert(session)
        for tap in Self.taps(session, on: .sevenRungs, named: false) { try await store.record(tap) }
        let sink = ExportSink.memory()
        try await HTMLReportExporter(options: ReportFixture.options).export([session], from: store, to: sink)
        #expect(sink.text.contains("(\(graded) on ladder pn53x-7) count as plain reads"))
        #expect(!sink.text.contains("<h3>Coupling</h3>"))
    }

    /// Refine fits a seven-rung session's reads as plain reads, exactly as the session
    /// without grades, and says how many grades it set aside.
    @Test func refineFitsAnotherLaddersGradesAsPlainReads() throws {
        var session = ReportFixture.session(simulated: false)
        session.status = .completed
        session.endedAt = ReportFixture.start + 60
        let refiner = CatalogRefiner(resolver: AntennaZoneResolver(remote: nil, seed: seedCatalog), reachMm: 0)
        func entry(_ taps: [TapRecord]) throws -> EntryRefinement {
            try #require(refiner.refine([SessionEvidence(session: session, taps: taps)]).entries.first)
        }
        let seven = try entry(Self.taps(session, on: .sevenRungs, named: false))
        let plain = try entry(Self.ungraded(Self.taps(session, on: .sevenRungs)))
        let standard = try entry(Self.taps(session, on: .standard))
        let hits = Self.taps(session, on: .standard).filter { $0.result == .hit }.count
        #expect(seven.gradedReads == 0 && seven.gradesSetAside == hits && seven.binaryEstimate == nil)
        #expect(seven.estimate?.zone == plain.estimate?.zone)
        #expect(standard.gradedReads == hits && standard.gradesSetAside == 0 && standard.binaryEstimate != nil)
        #expect(standard.estimate?.zone != plain.estimate?.zone, "the grades move the fit")
    }
}
