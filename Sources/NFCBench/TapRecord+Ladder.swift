import NFCBenchRecords
import NFCReaders

/// A stored grade read on the ladder it was measured on. The verdict, the adaptive plan
/// and `refine` model grades against the standard ladder's thresholds, so a grade from
/// another ladder would place the coil at the wrong depth: such a tap counts as the plain
/// read it also is, never as a grade on a scale it was not measured on.
extension TapRecord {
    /// The ladder of this tap's walk: the one it names, or for a tap recorded before taps
    /// named it, the one its walk's profiles identify. `nil` when nothing was tried, or the
    /// name is not one this build knows (a newer nfcbench's ladder).
    public var gradedOn: CouplingLadder? {
        if let couplingLadder { return CouplingLadder.named(couplingLadder) }
        guard coupling != nil || couplingTried != nil else { return nil }
        return CouplingLadder.recognising(coupling: coupling, tried: couplingTried)
    }

    /// The ladder's name as a report states it: the stored one, else the recognised one.
    public var couplingLadderName: String? { couplingLadder ?? gradedOn?.name }

    /// `coupling` when it is a grade on `ladder` (the standard one unless a test says
    /// otherwise); `nil` for an ungraded tap and for a grade on any other ladder.
    public func grade(on ladder: CouplingLadder = .standard) -> Double? {
        guard let coupling, gradedOn == ladder else { return nil }
        return coupling
    }

    /// Whether this tap has a grade that `grade(on:)` sets aside: measured on another ladder.
    public func gradeSetAside(on ladder: CouplingLadder = .standard) -> Bool {
        coupling != nil && grade(on: ladder) == nil
    }
}
