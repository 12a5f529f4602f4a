import NFCReaders
import Testing

/// A grade is a share of its own ladder, so every stored grade must say which ladder it
/// is on: by name for taps recorded since migration 016, by its walk for older ones.
@Suite("Coupling ladder identity")
struct CouplingLadderIdentityTests {
    /// The texts a walk down from the default writes when `weakest` is the weakest rung
    /// that read, as `LadderWalk.grade` words them.
    static func walkDown(_ ladder: CouplingLadder, weakest: Int) -> String {
        let top = ladder.profiles.count - 1
        var seen = (weakest..<top).reversed().map { ladder.profiles[$0].name + " read" }
        if weakest > 0 { seen.append(ladder.profiles[weakest - 1].name + " no answer") }
        return (["default read"] + seen).joined(separator: ", ")
    }

    @Test func everyKnownLadderHasANameOfItsOwn() {
        let names = CouplingLadder.known.map(\.name)
        #expect(Set(names).count == names.count)
        #expect(CouplingLadder.known.first == .standard, "the newest first")
        for ladder in CouplingLadder.known { #expect(CouplingLadder.named(ladder.name) == ladder) }
        #expect(CouplingLadder.named("pn53x-99") == nil)
    }

    /// A ladder's name stands for its rungs in every stored tap: changing the rungs of a
    /// named ladder would re-scale every grade stored on it, so a new ladder takes a new
    /// name and the old one stays in `known`. These are the rungs each name was used with.
    @Test func aNamedLaddersRungsNeverChange() {
        let recorded: [String: [(String, UInt8, UInt8, UInt8)]] = [
            "pn53x-7": [
                ("hinata 1", 0x29, 0x03, 0x11), ("hinata 2", 0x49, 0x0B, 0x0C), ("CWGsP 10", 0x59, 0xF4, 0x10),
                ("CWGsP 18", 0x59, 0xF4, 0x18), ("CWGsP 24", 0x59, 0xF4, 0x24), ("CWGsP 30", 0x59, 0xF4, 0x30),
                ("default", 0x59, 0xF4, 0x3F),
            ],
            "pn53x-11": [
                ("hinata 1", 0x29, 0x03, 0x11), ("hinata 2", 0x49, 0x0B, 0x0C), ("CWGsP 0F", 0x59, 0xF4, 0x0F),
                ("CWGsP 17", 0x59, 0xF4, 0x17), ("CWGsP 1F", 0x59, 0xF4, 0x1F), ("CWGsP 27", 0x59, 0xF4, 0x27),
                ("CWGsP 2F", 0x59, 0xF4, 0x2F), ("CWGsP 33", 0x59, 0xF4, 0x33), ("CWGsP 37", 0x59, 0xF4, 0x37),
                ("CWGsP 3B", 0x59, 0xF4, 0x3B), ("default", 0x59, 0xF4, 0x3F),
            ],
        ]
        #expect(Set(recorded.keys) == Set(CouplingLadder.known.map(\.name)), "a ladder dropped from known, or new")
        for ladder in CouplingLadder.known {
            let rungs = ladder.profiles.map { ($0.name, $0.settings[0], $0.settings[1], $0.settings[2]) }
            let expected = recorded[ladder.name] ?? []
            #expect(rungs.count == expected.count, "\(ladder.name)")
            for (rung, want) in zip(rungs, expected) {
                #expect(rung == want, "\(ladder.name): \(rung) was \(want)")
            }
            // The bytes after the first three are the default's on every rung.
            #expect(ladder.profiles.allSatisfy { $0.settings.dropFirst(3) == AnalogProfile.pn532Default.settings.dropFirst(3) })
        }
    }

    /// Every walk down that any known ladder can record, at every grade, is told apart
    /// from the other ladders' by its index and the profiles it names.
    @Test func everyWalkDownNamesItsLadder() {
        for ladder in CouplingLadder.known {
            for weakest in ladder.profiles.indices.dropLast() {
                let tried = Self.walkDown(ladder, weakest: weakest)
                let index = ladder.coupling(weakestRead: weakest)
                #expect(CouplingLadder.recognising(coupling: index, tried: tried) == ladder, "\(ladder.name): \(tried)")
            }
            // Only the default read: grade 0, told by the rung below the default that did not.
            let onlyDefault = "default read, " + ladder.profiles[ladder.profiles.count - 2].name + " no answer"
            #expect(CouplingLadder.recognising(coupling: 0, tried: onlyDefault) == ladder)
        }
    }

    /// A MISS asked again at the middle rung names that rung, whether or not it read, and
    /// a note after the walk (`not the phone's answer`) is not a profile.
    @Test func aMissCheckedAtTheMiddleNamesItsLadder() {
        for ladder in CouplingLadder.known {
            let middle = ladder.profiles[ladder.middle].name
            #expect(CouplingLadder.recognising(coupling: nil, tried: "default no answer, \(middle) no answer") == ladder)
            let foreign =
                "default no answer, \(middle) read, \(ladder.profiles[ladder.middle - 1].name) no answer"
                + " (not the phone's answer)"
            #expect(CouplingLadder.recognising(coupling: nil, tried: foreign) == ladder, "\(foreign)")
        }
    }

    /// Half way is a grade on both ladders (CWGsP 18 on the seven rungs, CWGsP 27 on the
    /// eleven), and two different fields: the profiles named decide.
    @Test func anIndexBothLaddersHoldIsToldByTheProfiles() {
        let seven = Self.walkDown(.sevenRungs, weakest: 3)
        let eleven = Self.walkDown(.standard, weakest: 5)
        #expect(CouplingLadder.recognising(coupling: 0.5, tried: seven) == .sevenRungs)
        #expect(CouplingLadder.recognising(coupling: 0.5, tried: eleven) == .standard)
        #expect(CouplingLadder.sevenRungs.profiles[3].threshold != CouplingLadder.standard.profiles[5].threshold)
    }

    /// What fits no ladder, or more than one, is not given one: its grade is read as no
    /// grade rather than on a guessed scale.
    @Test func whatFitsNoLadderIsNotGivenOne() {
        // An index off every grid.
        #expect(CouplingLadder.recognising(coupling: 0.37, tried: Self.walkDown(.standard, weakest: 6)) == nil)
        // The index of one ladder with the other's profiles.
        #expect(CouplingLadder.recognising(coupling: 1.0 / 6, tried: Self.walkDown(.standard, weakest: 8)) == nil)
        // A profile no known ladder has.
        #expect(CouplingLadder.recognising(coupling: 0, tried: "default read, CWGsP 3D no answer") == nil)
        // Names common to both, nothing else: either ladder fits.
        #expect(CouplingLadder.recognising(coupling: 1, tried: "default read, hinata 1 read") == nil)
        #expect(CouplingLadder.recognising(coupling: nil, tried: nil) == nil)
    }
}
