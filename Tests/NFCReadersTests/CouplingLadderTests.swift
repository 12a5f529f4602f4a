import NFCReaders
import Testing

/// The standard ladder's shape: what makes its grades place a coil's edge, and the
/// rung a saturated phone's MISS is asked again at.
@Suite("Coupling ladder")
struct CouplingLadderTests {
    static let ladder = CouplingLadder.standard
    /// The thresholds from the default (0) to the weakest profile.
    static let thresholds = ladder.profiles.reversed().map(\.threshold)

    /// Each rung is weaker than the one above it, so the walk down stops at the first
    /// profile that hears nothing and every profile above it would have read.
    @Test func everyRungIsWeakerThanTheOneAboveIt() {
        for (stronger, weaker) in zip(Self.thresholds, Self.thresholds.dropFirst()) {
            #expect(weaker > stronger, "\(Self.thresholds)")
        }
        #expect(Self.ladder.profiles.last == .pn532Default)
    }

    /// A coil's edge is where only a nearly full field reads: the steps next to the default
    /// are the ladder's finest, so a read there places an edge within one small step. The
    /// seven-rung ladder's first step (to CWGsP 30, 0.24 of coupling) was its coarsest.
    @Test func theStepsNextToTheDefaultAreTheFinest() {
        let steps = zip(Self.thresholds.dropFirst(), Self.thresholds).map { $0 - $1 }
        let nearDefault = steps.prefix(4), deeper = steps.dropFirst(4).dropLast(2)  // hinata_go's two below
        #expect(nearDefault.max()! < 0.07, "\(steps)")
        #expect(nearDefault.max()! < deeper.min()!, "\(steps)")
    }

    /// A full-field MISS is asked again at half the default's strength, not half the
    /// rungs: with fine rungs near the default, the rung half way down is still a strong
    /// field that a saturated phone cannot answer.
    @Test func theMiddleRungIsHalfTheDefaultsStrength() {
        let middle = Self.ladder.profiles[Self.ladder.middle]
        #expect(middle.name == "CWGsP 1F")
        for profile in Self.ladder.profiles.dropLast() {
            #expect(abs(middle.threshold - 0.5) <= abs(profile.threshold - 0.5))
        }
        #expect(Self.ladder.profiles[(Self.ladder.profiles.count - 1) / 2].threshold < 0.4, "half the rungs is not it")
    }

    /// A grade is the share of the ladder below the weakest profile that read, and reading
    /// it back gives that rung: the stored value names one rung exactly.
    @Test func aGradeNamesItsRung() {
        let rungs = Self.ladder.profiles.count - 1
        for rung in Self.ladder.profiles.indices {
            let grade = Self.ladder.coupling(weakestRead: rung)
            #expect(Self.ladder.rungsRead(coupling: grade) == rungs - rung)
        }
        #expect(Self.ladder.coupling(weakestRead: rungs) == 0 && Self.ladder.coupling(weakestRead: 0) == 1)
    }
}
