/// Every ladder a build of nfcbench has graded taps on, so a stored grade is read on the
/// scale it was measured on. A grade is a share of its own ladder: 0.5 on the seven-rung
/// ladder is CWGsP 18, on the eleven-rung one CWGsP 27, two different fields.
extension CouplingLadder {
    /// The first ladder (builds of 2026-12-03 to 2026-12-05): hinata_go's two profiles and
    /// CWGsP 10, 18, 24 and 30, spaced evenly over the register. Its taps were stored
    /// before a tap named its ladder; `recognising(coupling:tried:)` tells them apart.
    public static let sevenRungs = CouplingLadder(
        name: "pn53x-7",
        [
            .weakened("hinata 1", rfCfg: 0x29, gsNOn: 0x03, cwGsP: 0x11),
            .weakened("hinata 2", rfCfg: 0x49, gsNOn: 0x0B, cwGsP: 0x0C),
            .weakened("CWGsP 10", rfCfg: 0x59, gsNOn: 0xF4, cwGsP: 0x10),
            .weakened("CWGsP 18", rfCfg: 0x59, gsNOn: 0xF4, cwGsP: 0x18),
            .weakened("CWGsP 24", rfCfg: 0x59, gsNOn: 0xF4, cwGsP: 0x24),
            .weakened("CWGsP 30", rfCfg: 0x59, gsNOn: 0xF4, cwGsP: 0x30),
            .pn532Default,
        ])

    /// Newest first. A ladder, once used, stays here: stored grades depend on it.
    public static let known: [CouplingLadder] = [.standard, .sevenRungs]

    public static func named(_ name: String) -> CouplingLadder? { known.first { $0.name == name } }

    /// The ladder a tap was graded on when the tap does not name it (recorded before
    /// migration 016): the one known ladder whose grid holds the index and whose rungs
    /// include every profile the walk names. `nil` when none or several fit.
    ///
    /// A walk always tries the rung next to where it starts (below the default, or around
    /// the middle), and those rungs differ between the known ladders, so a real walk's
    /// text identifies its ladder; an index off every grid or a foreign name fits none.
    public static func recognising(coupling: Double?, tried: String?) -> CouplingLadder? {
        let names = tried.map(triedNames) ?? []
        let fitting = known.filter { ladder in
            let rungs = Set(ladder.profiles.map(\.name))
            return names.allSatisfy(rungs.contains) && (coupling.map(ladder.holdsIndex) ?? true)
        }
        return fitting.count == 1 ? fitting[0] : nil
    }

    /// Whether `index` is one of this ladder's grades (`coupling(weakestRead:)` of a rung).
    func holdsIndex(_ index: Double) -> Bool {
        profiles.indices.contains { abs(coupling(weakestRead: $0) - index) < 1e-9 }
    }

    /// The profile names in a walk's text: `default read, CWGsP 3B no answer` gives
    /// `default` and `CWGsP 3B`; a note after the last entry, `(not the phone's answer)`,
    /// is not a name.
    static func triedNames(_ tried: String) -> [String] {
        tried.split(separator: ",").map { part in
            var entry = part.split(separator: " (", maxSplits: 1, omittingEmptySubsequences: false).first ?? part
            while entry.first == " " { entry = entry.dropFirst() }
            for outcome in [" no answer", " read"] where entry.hasSuffix(outcome) {
                return String(entry.dropLast(outcome.count))
            }
            return String(entry)
        }
    }
}
