import NFCBench
import NFCBenchRecords
import NFCLocatorCore
import NFCReaders
import Testing

/// The verdict with graded taps (`run --coupling`): a position outside the predicted zone
/// that couples more strongly than every graded position inside it contradicts the
/// prediction, which binary taps alone cannot see; a few rungs of difference are scatter.
@Suite("Verdict with graded taps")
struct GradedVerdictTests {
    static let zone = try! NormalizedRect(x: 0.1, y: 0.36, width: 0.8, height: 0.38)
    static let plan = GridPlan(around: zone)

    /// The S24 grid's positions: the middle rows read, the row just above the zone reads
    /// in its middle, and the rest stays silent. Binary taps alone call this CONFIRMED.
    static let history: [(probe: Probe, hit: Bool)] = [
        (Probe(x: 0.5, y: 0.55), true), (Probe(x: 0.3, y: 0.55), true), (Probe(x: 0.7, y: 0.55), true),
        (Probe(x: 0.5, y: 0.5), true), (Probe(x: 0.5, y: 0.7), true),
        (Probe(x: 0.5, y: 0.3), true), (Probe(x: 0.167, y: 0.3), false), (Probe(x: 0.833, y: 0.3), false),
        (Probe(x: 0.5, y: 0.9), false), (Probe(x: 0.5, y: 0.1), false),
    ]

    /// The coupling index one rung of the standard ladder stands for.
    static let rung = 1.0 / Double(CouplingLadder.standard.profiles.count - 1)

    static func score(outsideGrade: Double?, insideGrade: Double? = rung) -> SessionScore {
        var grades: [(probe: Probe, coupling: Double)] = []
        if let insideGrade { grades += history.prefix(5).map { ($0.probe, insideGrade) } }
        if let outsideGrade { grades.append((Probe(x: 0.5, y: 0.3), outsideGrade)) }
        return SessionScore(predicted: zone, history: history, grades: grades, strategy: plan, aspectRatio: 0.48)
    }

    @Test func ungradedTapsConfirmTheZone() {
        let score = Self.score(outsideGrade: nil, insideGrade: nil)
        #expect(score.verdict == .confirmed, "\(score.reason)")
        #expect(score.evidence?.strongestInside == nil && score.evidence?.strongestOutside == nil)
    }

    @Test func aStrongerGradeOutsideShiftsTheVerdict() {
        let score = Self.score(outsideGrade: 7 * Self.rung)
        #expect(score.verdict == .shifted)
        #expect(
            score.reason
                == "a position outside the predicted zone couples more strongly (grade 0.70) than any inside it (grade 0.10): the field is strongest outside the prediction"
        )
        let criteria = VerdictCriteria(score: score, bodyHeightMm: 147)
        let graded = try! #require(criteria.confirmed.last)
        #expect(graded.met == false && graded.observed == "strongest inside 0.10, outside 0.70")
    }

    /// A third of the ladder is the margin, four rungs of the standard one above the
    /// strongest inside; fewer can be a phone at a profile's threshold answering one round
    /// and not the next.
    @Test(arguments: [(4, Verdict.confirmed), (5, .shifted), (2, .confirmed), (0, .confirmed)])
    func threeRungsAreScatterFourAreEvidence(outsideRungs: Int, verdict: Verdict) {
        #expect(Self.score(outsideGrade: Double(outsideRungs) * Self.rung).verdict == verdict)
    }

    typealias Verdict = SessionVerdict

    /// Without a graded read inside the zone there is nothing to compare with: the binary
    /// rules decide alone.
    @Test func noGradeInsideLeavesTheBinaryVerdict() {
        let score = Self.score(outsideGrade: 1, insideGrade: nil)
        #expect(score.verdict == .confirmed)
        let graded = try! #require(VerdictCriteria(score: score, bodyHeightMm: nil).confirmed.last)
        #expect(graded.met == true && graded.observed == "strongest inside none, outside 1.00")
    }

    /// Grades come from the store; a value no ladder gives is left out, never compared.
    @Test func aGradeThatIsNoNumberIsLeftOut() {
        let grades: [(probe: Probe, coupling: Double)] = [
            (Probe(x: 0.5, y: 0.55), 0), (Probe(x: 0.5, y: 0.3), .nan), (Probe(x: 0.5, y: 0.3), .infinity),
        ]
        let score = SessionScore(
            predicted: Self.zone, history: Self.history, grades: grades, strategy: Self.plan, aspectRatio: 0.48)
        #expect(score.verdict == .confirmed && score.evidence?.strongestOutside == nil)
    }
}
