import NFCBenchRecords
import NFCLocatorCore

/// The rules behind a verdict, each with what this session showed, so a reviewer can check
/// a filed verdict against its evidence without the code. The words follow
/// `SessionScore.judge` and `ZoneEvidence`; a test holds them to the verdict itself.
public struct VerdictCriteria: Sendable {
    public struct Criterion: Sendable, Equatable {
        /// The condition, with the number it needs.
        public let rule: String
        /// What this session showed.
        public let observed: String
        /// `nil` when the session cannot tell (no prediction to compare with).
        public let met: Bool?
    }

    /// How positions count as evidence: the core and far-outside margins, in millimetres
    /// when the body size is known.
    public let bands: String
    /// What CONFIRMED needs, every one of them.
    public let confirmed: [Criterion]
    /// What the other verdicts mean.
    public let others: [String]
    /// The decision rule in one statement, with its risks of a false accept and a false
    /// reject, as ISO/IEC 17025 §7.8.6 asks a report that states conformity to give.
    public let decisionRule: String

    public init(score: SessionScore, bodyHeightMm: Double?) {
        if score.coilTested {
            self = VerdictCriteria(coilTested: score)
            return
        }
        func margin(_ share: Double) -> String {
            let percent = FixedPoint.format(share * 100, 0) + "% of the body height"
            return bodyHeightMm.map { percent + " (" + FixedPoint.format(share * $0, 1) + " mm)" } ?? percent
        }
        bands =
            "Only positions clear of the predicted zone's edge count: the middle (core) lies at least "
            + margin(ZoneEvidence.coreMargin) + " inside the edge, well outside means more than "
            + margin(ZoneEvidence.farMargin)
            + " beyond it, and positions between say nothing either way (a reader reaches a little past a coil's edge)."
        let e = score.evidence
        func told(_ observed: (ZoneEvidence) -> String, _ met: (ZoneEvidence) -> Bool) -> (String, Bool?) {
            guard let e else { return ("no prediction", nil) }
            return (observed(e), met(e))
        }
        let core = told({ "\($0.coreHits) of \($0.coreTaps) read" }, { $0.coreHits > 0 })
        let allowed = told(
            { "\($0.coreMisses) missed, \($0.allowedCoreMisses) allowed" }, { $0.coreMisses <= $0.allowedCoreMisses })
        let far = told({ "\($0.farHits) of \($0.farTaps) read" }, { $0.farHits == 0 })
        let around = told(
            { "\($0.outsideMisses) of \($0.outsideTaps) silent" }, { $0.outsideMisses >= ZoneEvidence.neededAround })
        let graded = told(
            { e in
                guard e.strongestInside != nil || e.strongestOutside != nil else { return "not graded" }
                func words(_ grade: Double?) -> String { grade.map(SessionScore.grade) ?? "none" }
                return "strongest inside \(words(e.strongestInside)), outside \(words(e.strongestOutside))"
            }, { !$0.strongerOutside })
        confirmed = [
            Criterion(
                rule: "At least \(SessionScore.minimumTaps) positions tapped (skips do not count)", observed: "\(score.taps)",
                met: score.taps >= SessionScore.minimumTaps),
            Criterion(rule: "A predicted zone to compare with", observed: e == nil ? "none" : "yes", met: e != nil),
            Criterion(rule: "A position in the middle of the predicted zone reads", observed: core.0, met: core.1),
            Criterion(
                rule: "At most one miss in the middle, or one in five middle positions when there are more than five",
                observed: allowed.0, met: allowed.1),
            Criterion(rule: "Nothing well outside the predicted zone reads", observed: far.0, met: far.1),
            Criterion(
                rule:
                    "At least \(ZoneEvidence.neededAround) positions around the zone stay silent (a larger or shifted antenna is ruled out)",
                observed: around.0, met: around.1),
            Criterion(
                rule: "Graded taps (run --coupling): nothing outside the zone couples more strongly, by "
                    + FixedPoint.format(ZoneEvidence.couplingMargin, 2) + " or more, than every graded position inside it",
                observed: graded.0, met: graded.1),
        ]
        others = [
            "SHIFTED: something read, and a position well outside read, more middle positions missed than allowed, "
                + "or a graded position outside the zone coupled more strongly than every graded one inside it.",
            "NO_FIELD: nothing read, with at least \(ZoneEvidence.neededInside) positions tapped inside the zone (1 in its middle) "
                + "and \(ZoneEvidence.neededAround) around it.",
            "INCONCLUSIVE: none of these holds; the verdict names what is missing.",
        ]
        decisionRule =
            "Decision rule: CONFIRMED only when every condition above holds, SHIFTED on any named below. Risks measured "
            + "in simulated labs (bench/verdicts): on the linear model, a right prediction not CONFIRMED in about 1.5 % "
            + "of sessions (false reject) and no shifted zone CONFIRMED (false accept); under two coupled loops, "
            + "16-27 % and 8-55 % (a zone 10-15 mm off)."
    }

    /// A `--plan coil` session's criteria: the two tests on the coil (`CoilVerdict`).
    init(coilTested score: SessionScore) {
        func mm(_ v: Double) -> String { FixedPoint.format(v, 0) + " mm" }
        bands =
            "The verdict tests the coil fitted in millimetres under the physics of two loops, not where taps read: "
            + "a reader reads beyond the coil and a coil larger than the reader couples least at its middle "
            + "(docs/refine.md, \"Verdicts on the coil\")."
        confirmed = [
            Criterion(
                rule: "At least \(SessionScore.minimumTaps) positions tapped (skips do not count)", observed: "\(score.taps)",
                met: score.taps >= SessionScore.minimumTaps),
            Criterion(
                rule: "No centre figure lies more than \(mm(CoilVerdict.rightWithinMm)) from the prediction's by over "
                    + "2.33 standard errors (else SHIFTED; a right prediction is called SHIFTED at most 2 % of the time; "
                    + "the size is reported, not tested)",
                observed: score.reason, met: score.verdict != .shifted),
            Criterion(
                rule: "The coil's centre lies within \(mm(CoilVerdict.wrongFromMm)) of the prediction's: its distance plus "
                    + "2.05 standard errors is under \(mm(CoilVerdict.wrongFromMm)) (a coil that far off is confirmed at "
                    + "most 2 % of the time)",
                observed: score.reason, met: score.verdict == .confirmed),
        ]
        others = [
            "SHIFTED: the coil's centre contradicts the prediction beyond its uncertainty, as above.",
            "NO_FIELD: nothing read, with at least \(ZoneEvidence.neededInside) positions tapped inside the zone (1 in its "
                + "middle) and \(ZoneEvidence.neededAround) around it.",
            "INCONCLUSIVE: the coil's centre is not known well enough either way; the verdict says how well.",
        ]
        decisionRule =
            "Decision rule: two tests on the coil's centre. False accept (CONFIRMED with the coil 10 mm or more off): "
            + "at most 2 % by the test's construction; false reject (SHIFTED with the coil within 3 mm): at most 2 %. "
            + "Measured under the physics of two loops (VERDICTS=1 LABS=200 bench/physics; docs/refine.md, \"Verdicts "
            + "on the coil\"): right predictions CONFIRMED in 99.0 % of labs, coils 10-15 mm off in none."
    }
}
